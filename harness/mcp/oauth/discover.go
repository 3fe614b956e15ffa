package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// discovery is what a sign-in learns before it asks anyone
// (docs/mcp.md#discovery): the protected resource (RFC 9728) and its
// authorization server (RFC 8414 or OpenID Connect Discovery), or the
// 2025-03-26 fallbacks when the server publishes no resource metadata.
type discovery struct {
	// resource is the RFC 8707 resource sent with every authorize and
	// token request: the resource metadata's, or the server's URL.
	resource string
	// scopes are those the resource metadata lists (scopes_supported).
	scopes []string
	// issuer is the authorization server's issuer.
	issuer string
	// as is its metadata; its endpoints are the defaults (issuer +
	// /authorize, /token, /register) when it publishes none.
	as oauthex.AuthServerMeta
	// legacy is set when the server publishes no resource metadata and
	// its own origin is taken as the authorization server (MCP 2025-03-26).
	legacy bool
	// noMetadata is set when the authorization server publishes no
	// metadata and the default endpoints are used.
	noMetadata bool
}

// maxMetadata bounds a metadata document.
const maxMetadata = 1 << 20

// errNotPublished is a metadata URL answered with a 4xx status: the
// document is not there, and the next place is tried.
var errNotPublished = errors.New("not published")

// discover finds the resource and authorization server of the MCP server
// at server, which answered with challenges:
//
//  1. Protected resource metadata (RFC 9728) at the URL the challenge's
//     resource_metadata names, else at the well-known URL with the
//     server's path inserted, else at the origin's root. A document whose
//     resource is not this server (its URL, or an origin-and-path prefix
//     of it) is refused, never skipped.
//  2. Its first authorization server's metadata, at the URLs the MCP
//     specification lists in order (RFC 8414 with path insertion, OpenID
//     Connect with path insertion, OpenID Connect with the path appended;
//     for an issuer without a path, RFC 8414 then OpenID Connect). The
//     issuer must match and S256 PKCE be offered.
//  3. With no resource metadata anywhere (every place answered 4xx): MCP
//     2025-03-26, the server's origin is the authorization server, its
//     metadata at the origin's well-known URLs, with the issuer it names.
//  4. With no authorization server metadata: the default endpoints
//     ISSUER/authorize, ISSUER/token and ISSUER/register.
func discover(ctx context.Context, c *http.Client, challenges []oauthex.Challenge, server string) (*discovery, error) {
	su, err := url.Parse(server)
	if err != nil || su.Host == "" {
		return nil, fmt.Errorf("the server's URL %q cannot be parsed", server)
	}
	origin := (&url.URL{Scheme: su.Scheme, Host: su.Host}).String()
	d := &discovery{}
	prm, err := resourceMetadata(ctx, c, challenges, su)
	switch {
	case errors.Is(err, errNotPublished):
		d.legacy, d.resource, d.issuer = true, server, origin
	case err != nil:
		return nil, err
	default:
		d.resource, d.scopes, d.issuer = prm.Resource, prm.ScopesSupported, prm.AuthorizationServers[0]
	}
	as, err := authServerMetadata(ctx, c, d.issuer, d.legacy)
	switch {
	case errors.Is(err, errNotPublished):
		d.noMetadata = true
		base := strings.TrimSuffix(d.issuer, "/")
		d.as = oauthex.AuthServerMeta{Issuer: d.issuer, AuthorizationEndpoint: base + "/authorize", TokenEndpoint: base + "/token", RegistrationEndpoint: base + "/register"}
	case err != nil:
		return nil, err
	default:
		d.as = *as
		if d.legacy {
			d.issuer = as.Issuer
		}
	}
	return d, nil
}

// resourceMetadata returns the first protected resource metadata found
// (discover, step 1); errNotPublished when every place answered 4xx.
func resourceMetadata(ctx context.Context, c *http.Client, challenges []oauthex.Challenge, su *url.URL) (*oauthex.ProtectedResourceMetadata, error) {
	var tries []string
	if u := bearerParam(challenges, "resource_metadata"); u != "" {
		tries = append(tries, u)
	}
	w := url.URL{Scheme: su.Scheme, Host: su.Host}
	if p := strings.Trim(su.Path, "/"); p != "" {
		w.Path = "/.well-known/oauth-protected-resource/" + p
		tries = append(tries, w.String())
	}
	w.Path = "/.well-known/oauth-protected-resource"
	tries = append(tries, w.String())

	var failed error
	for _, t := range tries {
		var prm oauthex.ProtectedResourceMetadata
		err := getMetadata(ctx, c, t, &prm)
		if errors.Is(err, errNotPublished) {
			continue
		}
		if err != nil {
			failed = cmpOr(failed, err)
			continue
		}
		if !resourceOf(prm.Resource, su) {
			return nil, fmt.Errorf("its protected resource metadata (%s) is for the resource %q, not for this server; refused (RFC 9728 §3.3)", t, prm.Resource)
		}
		if len(prm.AuthorizationServers) == 0 {
			return nil, fmt.Errorf("its protected resource metadata (%s) names no authorization server", t)
		}
		for _, as := range prm.AuthorizationServers {
			if err := secureURL(as); err != nil {
				return nil, fmt.Errorf("its protected resource metadata (%s) names the authorization server %q: %v", t, as, err)
			}
		}
		return &prm, nil
	}
	if failed != nil {
		return nil, fmt.Errorf("the server asks for a sign-in, but its protected resource metadata (RFC 9728) could not be read: %w", failed)
	}
	return nil, errNotPublished
}

// resourceOf reports whether the resource metadata's resource names the
// server at su: its URL, or its origin with a path that is a prefix of
// the server's path, segment by segment (an origin-wide resource).
func resourceOf(resource string, su *url.URL) bool {
	ru, err := url.Parse(resource)
	if err != nil || ru.Fragment != "" || !strings.EqualFold(ru.Scheme, su.Scheme) || !strings.EqualFold(ru.Host, su.Host) {
		return false
	}
	rp, sp := strings.TrimSuffix(ru.Path, "/"), strings.TrimSuffix(su.Path, "/")
	return rp == "" || rp == sp || strings.HasPrefix(sp, rp+"/")
}

// authServerMetadata returns the metadata of the authorization server
// issuer (discover, steps 2 and 3); errNotPublished when every place
// answered 4xx. legacy accepts the issuer the document names.
func authServerMetadata(ctx context.Context, c *http.Client, issuer string, legacy bool) (*oauthex.AuthServerMeta, error) {
	var failed error
	for _, t := range metadataURLs(issuer) {
		var as oauthex.AuthServerMeta
		err := getMetadata(ctx, c, t, &as)
		if errors.Is(err, errNotPublished) {
			continue
		}
		if err != nil {
			failed = cmpOr(failed, err)
			continue
		}
		if !legacy && !sameIssuer(as.Issuer, issuer) {
			return nil, fmt.Errorf("metadata issuer %q does not match issuer URL %q", as.Issuer, issuer)
		}
		if legacy && as.Issuer == "" {
			as.Issuer = issuer
		}
		if !slices.Contains(as.CodeChallengeMethodsSupported, "S256") {
			return nil, fmt.Errorf("the authorization server %s does not offer PKCE with S256 (its metadata %s lists code_challenge_methods_supported %q), which MCP requires", as.Issuer, t, as.CodeChallengeMethodsSupported)
		}
		for name, u := range map[string]string{"authorization_endpoint": as.AuthorizationEndpoint, "token_endpoint": as.TokenEndpoint, "registration_endpoint": as.RegistrationEndpoint} {
			if u == "" && name == "registration_endpoint" {
				continue
			}
			if err := secureURL(u); err != nil {
				return nil, fmt.Errorf("the authorization server's metadata (%s) has %s %q: %v", t, name, u, err)
			}
		}
		return &as, nil
	}
	if failed != nil {
		return nil, fmt.Errorf("the metadata of the authorization server %s could not be read: %w", issuer, failed)
	}
	return nil, errNotPublished
}

// metadataURLs are the places of an issuer's metadata, in the order of
// the MCP specification (2025-11-25, "Authorization Server Metadata
// Discovery").
func metadataURLs(issuer string) []string {
	u, err := url.Parse(issuer)
	if err != nil {
		return nil
	}
	base := url.URL{Scheme: u.Scheme, Host: u.Host}
	at := func(path string) string { b := base; b.Path = path; return b.String() }
	p := strings.Trim(u.Path, "/")
	if p == "" {
		return []string{at("/.well-known/oauth-authorization-server"), at("/.well-known/openid-configuration")}
	}
	return []string{
		at("/.well-known/oauth-authorization-server/" + p),
		at("/.well-known/openid-configuration/" + p),
		at("/" + p + "/.well-known/openid-configuration"),
	}
}

func sameIssuer(a, b string) bool { return strings.TrimSuffix(a, "/") == strings.TrimSuffix(b, "/") }

// getMetadata GETs the JSON document at u into v: errNotPublished for a
// 4xx answer; an error naming u for anything else that is not 200 JSON.
func getMetadata(ctx context.Context, c *http.Client, u string, v any) error {
	if err := secureURL(u); err != nil {
		return fmt.Errorf("%s: %v", u, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return fmt.Errorf("%s: %v", u, err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return fmt.Errorf("%s: %v", u, redactErr(err))
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadata))
		return errNotPublished
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s answered %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	if err != nil {
		return fmt.Errorf("%s: %v", u, err)
	}
	if len(body) > maxMetadata {
		return fmt.Errorf("%s is over %d bytes", u, maxMetadata)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%s is not a JSON metadata document: %v", u, err)
	}
	return nil
}

// secureURL accepts https URLs, and http ones on this computer (a
// loopback address or localhost), as the MCP specification asks of every
// authorization endpoint.
func secureURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return errors.New("not an absolute URL")
	}
	switch u.Scheme {
	case "https":
		return nil
	case "http":
		h := u.Hostname()
		if strings.EqualFold(h, "localhost") {
			return nil
		}
		if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
			return nil
		}
		return errors.New("plain http is allowed only on this computer; it must be https")
	}
	return fmt.Errorf("the scheme %q is neither https nor http", u.Scheme)
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}
