package mcp

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// signInHandler returns the sign-in handler of a streamable HTTP provider
// (docs/mcp.md#sign-in), or nil when the host offers no sign-in
// (Options.SignIn nil) or the entry sends its own Authorization header.
func signInHandler(srv tool.MCPServer, o Options) *oauth.Handler {
	if o.SignIn == nil || srv.Transport != tool.TransportStreamableHTTP {
		return nil
	}
	for k := range srv.Headers {
		if http.CanonicalHeaderKey(k) == "Authorization" {
			return nil
		}
	}
	cfg := oauth.Config{Namespace: srv.Namespace, URL: srv.URL}
	if o := srv.OAuth; o != nil {
		cfg.ClientID, cfg.ClientSecret, cfg.GrantType, cfg.Scopes = o.ClientID, o.ClientSecret, o.GrantType, o.Scopes
	}
	return oauth.New(cfg, o.SignIn)
}

// startBound is a start's timeout that stops while a sign-in runs: the
// person may take minutes in the browser (oauth.DefaultSignInTimeout
// bounds that), the server's own start keeps its StartTimeout.
type startBound struct {
	mu     sync.Mutex
	d      time.Duration
	timer  *time.Timer
	left   time.Duration
	since  time.Time
	holds  int
	cancel context.CancelCauseFunc
}

func withStartBound(parent context.Context, d time.Duration) (context.Context, context.CancelFunc, *startBound) {
	ctx, cancel := context.WithCancelCause(parent)
	b := &startBound{d: d, left: d, since: time.Now(), cancel: cancel}
	b.timer = time.AfterFunc(d, b.expire)
	return ctx, func() { b.timer.Stop(); cancel(context.Canceled) }, b
}

func (b *startBound) expire() {
	b.cancel(fmt.Errorf("no answer within %v (the start timeout): %w", b.d, context.DeadlineExceeded))
}

// hold stops the bound until the returned release is called.
func (b *startBound) hold() func() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.holds == 0 && b.timer.Stop() {
		b.left -= time.Since(b.since)
	}
	b.holds++
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			defer b.mu.Unlock()
			if b.holds--; b.holds == 0 && b.left > 0 {
				b.since = time.Now()
				b.timer.Reset(b.left)
			}
		})
	}
}
