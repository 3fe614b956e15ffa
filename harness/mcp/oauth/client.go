package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"

	"golang.org/x/oauth2"
)

// clientID is how OpenWorker identifies itself to an authorization server
// in one sign-in (docs/mcp.md#sign-in, step 2).
type clientID struct {
	id, secret string
	// style is how the token endpoint gets the secret (or, without one,
	// the id): HTTP Basic (client_secret_basic) or the form
	// (client_secret_post, none).
	style oauth2.AuthStyle
	how   string // "pre-registered", "client ID metadata document", "dynamic registration"
}

// identify picks the client of a sign-in in the MCP specification's
// order: the pre-registered client of the entry's oauth (with its secret,
// sent as the authorization server advertises); the client ID metadata
// document when the server supports them and the host names one;
// dynamic registration (RFC 7591) as a native app when it offers it.
func (h *Handler) identify(ctx context.Context, d *discovery, redirect string) (clientID, error) {
	if h.cfg.ClientID != "" {
		c := clientID{id: h.cfg.ClientID, secret: h.cfg.ClientSecret, style: oauth2.AuthStyleInParams, how: "pre-registered"}
		if c.secret != "" {
			c.style = secretStyle(d.as.TokenEndpointAuthMethodsSupported)
		}
		return c, nil
	}
	if h.s.ClientMetadataURL != "" && d.as.ClientIDMetadataDocumentSupported {
		return clientID{id: h.s.ClientMetadataURL, style: oauth2.AuthStyleInParams, how: "client ID metadata document"}, nil
	}
	if d.as.RegistrationEndpoint == "" {
		return clientID{}, fmt.Errorf("the authorization server %s offers neither dynamic registration nor client ID metadata documents; ask its owner for a client id and write it in the server's \"oauth\" (docs/servers.md#oauth)", host(d.issuer))
	}
	return h.register(ctx, d.as.RegistrationEndpoint, redirect)
}

// secretStyle is how a confidential client sends its secret, by the
// token endpoint's advertised methods: client_secret_basic when listed
// (or nothing is: RFC 8414's default), else client_secret_post.
func secretStyle(methods []string) oauth2.AuthStyle {
	if len(methods) == 0 || slices.Contains(methods, "client_secret_basic") || !slices.Contains(methods, "client_secret_post") {
		return oauth2.AuthStyleInHeader
	}
	return oauth2.AuthStyleInParams
}

// registration is RFC 7591's request and answer, the fields OpenWorker
// sends and reads.
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	ApplicationType         string   `json:"application_type,omitempty"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method,omitempty"`
	GrantTypes              []string `json:"grant_types,omitempty"`
	ResponseTypes           []string `json:"response_types,omitempty"`
	ClientName              string   `json:"client_name,omitempty"`
	ClientID                string   `json:"client_id,omitempty"`
	ClientSecret            string   `json:"client_secret,omitempty"`
	Error                   string   `json:"error,omitempty"`
	ErrorDescription        string   `json:"error_description,omitempty"`
}

// register registers OpenWorker as a native app with the redirect URI.
// The authorization server may issue a secret and name how to send it;
// errors name the endpoint's host and the server's error code, never the
// answer's body (it may hold a secret).
func (h *Handler) register(ctx context.Context, endpoint, redirect string) (clientID, error) {
	body, _ := json.Marshal(registration{
		RedirectURIs: []string{redirect}, ApplicationType: "native", TokenEndpointAuthMethod: "none",
		GrantTypes: []string{"authorization_code", "refresh_token"}, ResponseTypes: []string{"code"}, ClientName: h.s.ClientName,
	})
	fail := func(why string) (clientID, error) {
		return clientID{}, fmt.Errorf("dynamic registration at %s failed: %s", host(endpoint), why)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, bytes.NewReader(body))
	if err != nil {
		return fail(err.Error())
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := h.s.HTTPClient.Do(req)
	if err != nil {
		return fail(redactErr(err))
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if err != nil {
		return fail(err.Error())
	}
	var r registration
	jerr := json.Unmarshal(raw, &r)
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		if jerr == nil && r.Error != "" {
			return fail(fmt.Sprintf("%s %s %s", resp.Status, r.Error, r.ErrorDescription))
		}
		return fail(resp.Status)
	}
	if jerr != nil || r.ClientID == "" {
		return fail("the answer holds no client_id")
	}
	c := clientID{id: r.ClientID, secret: r.ClientSecret, how: "dynamic registration"}
	switch {
	case r.TokenEndpointAuthMethod == "client_secret_post", r.ClientSecret == "":
		c.style = oauth2.AuthStyleInParams
	default: // client_secret_basic, named or (RFC 7591) by default
		c.style = oauth2.AuthStyleInHeader
	}
	return c, nil
}

// host is the host of raw, or "the server" when it has none.
func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "the server"
	}
	return u.Host
}
