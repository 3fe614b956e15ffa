package oauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"golang.org/x/oauth2"
)

// grantSource is the oauth2.TokenSource of a grant: its access token until
// RefreshEarly before expiry, then a refresh (with the RFC 8707 resource,
// which golang.org/x/oauth2's refresh cannot send), saved to the store. A
// refused refresh (invalid_grant: revoked or expired) deletes the grant
// and returns the oauth2.RetrieveError, so the SDK's transport sends the
// request without a token and the server's 401 starts a new sign-in.
type grantSource struct {
	h  *Handler
	mu sync.Mutex
	g  Grant
}

func (s *grantSource) grant() Grant {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.g
}

// Token returns the grant's access token, getting a new one when it
// expires within RefreshEarly; a refused refresh drops the grant.
func (s *grantSource) Token() (*oauth2.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.h.s.Now()
	if s.g.AccessToken != "" && (s.g.Expiry.IsZero() || now.Add(RefreshEarly).Before(s.g.Expiry)) {
		return s.token(), nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tok, err := s.renew(ctx, now)
	if err != nil {
		if re := (*oauth2.RetrieveError)(nil); errors.As(err, &re) && re.ErrorCode == "invalid_grant" {
			s.drop()
		}
		return nil, err
	}
	s.take(tok)
	if err := s.h.s.Store.Save(&s.g); err != nil {
		return nil, err
	}
	return s.token(), nil
}

// renew gets a new token: the client credentials grant again, or the
// refresh token's. s.mu is held.
func (s *grantSource) renew(ctx context.Context, now time.Time) (*oauth2.Token, error) {
	switch {
	case s.g.GrantType == GrantClientCredentials: // no person: the same grant again
		style := oauth2.AuthStyleInParams
		if s.g.SecretInHeader {
			style = oauth2.AuthStyleInHeader
		}
		tok, err := credentialsToken(ctx, s.h, clientID{id: s.g.ClientID, secret: s.g.ClientSecret, style: style, how: "pre-registered"}, s.g.TokenURL, s.g.Resource, s.g.Scopes)
		if err == nil && !tok.Expiry.IsZero() {
			tok.Expiry = now.Add(time.Until(tok.Expiry))
		}
		return tok, err
	case s.g.RefreshToken == "":
		return nil, &oauth2.RetrieveError{ErrorCode: "invalid_grant", ErrorDescription: "the sign-in expired and has no refresh token"}
	default:
		return refresh(ctx, s.h.s.HTTPClient, &s.g, now)
	}
}

// take keeps tok in the grant: its access token and expiry, and its type,
// rotated refresh token and scopes when it names them. s.mu is held.
func (s *grantSource) take(tok *oauth2.Token) {
	s.g.AccessToken, s.g.Expiry = tok.AccessToken, tok.Expiry
	if tok.TokenType != "" {
		s.g.TokenType = tok.TokenType
	}
	if tok.RefreshToken != "" { // rotated
		s.g.RefreshToken = tok.RefreshToken
	}
	if sc, ok := tok.Extra("scope").(string); ok && sc != "" {
		s.g.Scopes = strings.Fields(sc)
	}
}

func (s *grantSource) token() *oauth2.Token {
	return &oauth2.Token{AccessToken: s.g.AccessToken, TokenType: "Bearer", RefreshToken: s.g.RefreshToken, Expiry: s.g.Expiry}
}

// drop forgets the grant (store and handler) after a refused refresh.
func (s *grantSource) drop() {
	_, _ = s.h.s.Store.Delete(s.g.Server)
	h := s.h
	h.mu.Lock() // lock order: s.mu, then h.mu (Handler never holds h.mu while taking s.mu)
	if h.src == s {
		h.src, h.dropped = nil, true
	}
	h.mu.Unlock()
}

// maxTokenResponse bounds a token endpoint's answer.
const maxTokenResponse = 1 << 20

// refresh runs the refresh_token grant of RFC 6749 §6 with the resource of
// RFC 8707. Errors are oauth2.RetrieveError (the server's error code) or
// name the token endpoint's host; none holds a token.
func refresh(ctx context.Context, c *http.Client, g *Grant, now time.Time) (*oauth2.Token, error) {
	req, err := refreshRequest(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("refresh at %s: %w", host(g.TokenURL), err)
	}
	resp, err := c.Do(req)
	if err != nil {
		return nil, fmt.Errorf("refresh at %s: %v", host(g.TokenURL), redactErr(err))
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenResponse))
	if err != nil {
		return nil, fmt.Errorf("refresh at %s: %v", host(g.TokenURL), err)
	}
	var v struct {
		AccessToken      string          `json:"access_token"`
		TokenType        string          `json:"token_type"`
		RefreshToken     string          `json:"refresh_token"`
		ExpiresIn        json.Number     `json:"expires_in"`
		Scope            string          `json:"scope"`
		Error            string          `json:"error"`
		ErrorDescription string          `json:"error_description"`
		Rest             json.RawMessage `json:"-"`
	}
	jerr := json.Unmarshal(body, &v)
	if resp.StatusCode != http.StatusOK || v.Error != "" {
		code := v.Error
		if code == "" {
			code = fmt.Sprintf("http_%d", resp.StatusCode)
		}
		return nil, &oauth2.RetrieveError{ErrorCode: code, ErrorDescription: v.ErrorDescription}
	}
	if jerr != nil || v.AccessToken == "" {
		return nil, fmt.Errorf("refresh at %s: the answer holds no access_token", host(g.TokenURL))
	}
	tok := &oauth2.Token{AccessToken: v.AccessToken, TokenType: v.TokenType, RefreshToken: v.RefreshToken}
	if n, err := v.ExpiresIn.Int64(); err == nil && n > 0 {
		tok.Expiry = now.Add(time.Duration(n) * time.Second)
	}
	if v.Scope != "" {
		tok = tok.WithExtra(map[string]any{"scope": v.Scope})
	}
	return tok, nil
}

// refreshRequest is the token endpoint request of g's refresh grant, with
// the client's secret in the form or, with SecretInHeader, in Basic auth.
func refreshRequest(ctx context.Context, g *Grant) (*http.Request, error) {
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {g.RefreshToken}}
	if g.Resource != "" {
		form.Set("resource", g.Resource)
	}
	if !g.SecretInHeader {
		form.Set("client_id", g.ClientID)
		if g.ClientSecret != "" {
			form.Set("client_secret", g.ClientSecret)
		}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, g.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	if g.SecretInHeader {
		req.SetBasicAuth(url.QueryEscape(g.ClientID), url.QueryEscape(g.ClientSecret))
	}
	return req, nil
}

// redactErr keeps a transport error's message without the URL's query.
func redactErr(err error) string {
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		return ue.Op + " " + host(ue.URL) + ": " + ue.Err.Error()
	}
	return err.Error()
}
