package oauth

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"net/url"
	"slices"

	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// authorizationCode gets tokens with the authorization code grant and
// PKCE S256 (OAuth 2.1): a loopback listener for the redirect, the
// client (identify), the person's consent in the browser (fetch), the
// state and RFC 9207 iss checks, and the exchange, both requests with the
// RFC 8707 resource. It asks for offline_access when the authorization
// server lists it, for a refresh token.
func (h *Handler) authorizationCode(ctx context.Context, d *discovery, scopes []string, again bool) (*oauth2.Config, *oauth2.Token, error) {
	lb, err := listenLoopback()
	if err != nil {
		return nil, nil, err
	}
	defer lb.close()
	c, err := h.identify(ctx, d, lb.redirectURL)
	if err != nil {
		return nil, nil, err
	}
	if slices.Contains(d.as.ScopesSupported, "offline_access") {
		scopes = withScopes(scopes, []string{"offline_access"})
	}
	oc := &oauth2.Config{
		ClientID: c.id, ClientSecret: c.secret, RedirectURL: lb.redirectURL, Scopes: scopes,
		Endpoint: oauth2.Endpoint{AuthURL: d.as.AuthorizationEndpoint, TokenURL: d.as.TokenEndpoint, AuthStyle: c.style},
	}
	verifier, state := oauth2.GenerateVerifier(), rand.Text()
	authURL := oc.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier), oauth2.SetAuthURLParam("resource", d.resource))
	res, err := h.fetch(ctx, lb, authURL, again)
	if err != nil {
		return nil, nil, err
	}
	if res.State != state {
		return nil, nil, errors.New("state mismatch: the redirect back is not of this sign-in")
	}
	if err := checkIss(res.Iss, d); err != nil {
		return nil, nil, err
	}
	tok, err := oc.Exchange(context.WithValue(ctx, oauth2.HTTPClient, h.s.HTTPClient), res.Code,
		oauth2.VerifierOption(verifier), oauth2.SetAuthURLParam("resource", d.resource))
	if err != nil {
		return nil, nil, tokenError(d.as.TokenEndpoint, c, err)
	}
	return oc, tok, nil
}

// checkIss applies RFC 9207: an authorization server that advertises the
// iss parameter must send its issuer; any iss sent must be the issuer.
func checkIss(iss string, d *discovery) error {
	switch {
	case d.as.AuthorizationResponseIssParameterSupported && iss == "":
		return fmt.Errorf("the authorization server %s advertises the RFC 9207 iss parameter, but the redirect back holds none", d.issuer)
	case iss != "" && !sameIssuer(iss, d.issuer):
		return fmt.Errorf("the redirect back names the issuer %q, not %q (RFC 9207)", iss, d.issuer)
	}
	return nil
}

// clientCredentials gets a token with the client credentials grant
// (RFC 6749 §4.4): the entry's pre-registered client and its secret, sent
// as the token endpoint advertises, the scopes and the RFC 8707 resource.
// Nobody is asked and no browser opens.
func (h *Handler) clientCredentials(ctx context.Context, d *discovery, scopes []string) (*oauth2.Config, *oauth2.Token, error) {
	if h.cfg.ClientID == "" || h.cfg.ClientSecret == "" {
		return nil, nil, errors.New(`the client credentials grant needs "client_id" and "client_secret" in the server's "oauth" (docs/servers.md#oauth)`)
	}
	c := clientID{id: h.cfg.ClientID, secret: h.cfg.ClientSecret, style: secretStyle(d.as.TokenEndpointAuthMethodsSupported), how: "pre-registered"}
	tok, err := credentialsToken(ctx, h, c, d.as.TokenEndpoint, d.resource, scopes)
	if err != nil {
		return nil, nil, err
	}
	return &oauth2.Config{ClientID: c.id, ClientSecret: c.secret, Scopes: scopes,
		Endpoint: oauth2.Endpoint{TokenURL: d.as.TokenEndpoint, AuthStyle: c.style}}, tok, nil
}

// credentialsToken asks tokenURL for a client credentials token.
func credentialsToken(ctx context.Context, h *Handler, c clientID, tokenURL, resource string, scopes []string) (*oauth2.Token, error) {
	cc := &clientcredentials.Config{ClientID: c.id, ClientSecret: c.secret, TokenURL: tokenURL, Scopes: scopes, AuthStyle: c.style}
	if resource != "" {
		cc.EndpointParams = url.Values{"resource": {resource}}
	}
	tok, err := cc.Token(context.WithValue(ctx, oauth2.HTTPClient, h.s.HTTPClient))
	if err != nil {
		return nil, tokenError(tokenURL, c, err)
	}
	return tok, nil
}

// tokenError names the token endpoint's host, the client's kind and the
// server's error code; x/oauth2's message would hold the answer's body.
func tokenError(tokenURL string, c clientID, err error) error {
	var re *oauth2.RetrieveError
	if errors.As(err, &re) {
		code := re.ErrorCode
		if code == "" && re.Response != nil {
			code = re.Response.Status
		}
		msg := fmt.Sprintf("the token endpoint %s refused the %s client %q: %s", host(tokenURL), c.how, c.id, code)
		if re.ErrorDescription != "" {
			msg += " (" + re.ErrorDescription + ")"
		}
		return &tokenRefused{msg: msg, err: re}
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("the token endpoint %s: %s", host(tokenURL), redactErr(ue))
	}
	return fmt.Errorf("the token endpoint %s: %v", host(tokenURL), err)
}

// tokenRefused is a token endpoint's refusal; it unwraps to the
// *oauth2.RetrieveError.
type tokenRefused struct {
	msg string
	err error
}

func (e *tokenRefused) Error() string { return e.msg }
func (e *tokenRefused) Unwrap() error { return e.err }
