package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/tool"
)

// URLElicitationRequired (docs/mcp.md#url-required): a tools/call the
// server answers with JSON-RPC error -32042 and data
// {"elicitations":[ElicitParams…]} needs the person to open those pages
// first. Each is checked (url mode only, elicit.CheckURL, an
// elicitationId), asked through the call's Asker like a URL question of
// the call, and when every one was accepted the harness waits for the
// server's notifications/elicitation/complete of each (at most
// CompleteWait and half the call's remaining bound) and retries the call
// once, even when no completion came. A second -32042 fails the call: it
// never loops.

const (
	// MaxURLRequired is the most pages one -32042 may ask to open.
	MaxURLRequired = 3
	// MaxURLRequiredData is the largest -32042 error data, in bytes.
	MaxURLRequiredData = 64 << 10
	// DefaultCompleteWait is how long, after every page was accepted, the
	// harness waits for notifications/elicitation/complete before it
	// retries anyway (ElicitationOptions.CompleteWait).
	DefaultCompleteWait = 30 * time.Second
	maxElicitationID    = 256
)

// urlRequiredError fails a call whose -32042 was not satisfied.
func urlRequiredError(format string, a ...any) error {
	return &tool.ToolError{Code: "mcp_error", Message: fmt.Sprintf(format, a...)}
}

// parseURLRequired checks the data of a -32042 answer and returns its
// elicitations, or why they are unusable.
func parseURLRequired(data json.RawMessage) ([]*sdk.ElicitParams, error) {
	if len(data) > MaxURLRequiredData {
		return nil, fmt.Errorf("its data is %d bytes, over the %d-byte limit", len(data), MaxURLRequiredData)
	}
	var d struct {
		Elicitations []*sdk.ElicitParams `json:"elicitations"`
	}
	if t := strings.TrimSpace(string(data)); t == "" || t == "null" {
		return nil, fmt.Errorf(`it has no data; want {"elicitations":[{"mode":"url","url":…,"elicitationId":…,"message":…}]}`)
	}
	if err := json.Unmarshal(data, &d); err != nil {
		return nil, fmt.Errorf(`its data is not {"elicitations":[…]}: %v`, err)
	}
	switch {
	case len(d.Elicitations) == 0:
		return nil, fmt.Errorf(`its data has no "elicitations"`)
	case len(d.Elicitations) > MaxURLRequired:
		return nil, fmt.Errorf("it asks to open %d pages; at most %d are asked", len(d.Elicitations), MaxURLRequired)
	}
	seen := map[string]bool{}
	for i, e := range d.Elicitations {
		switch {
		case e == nil:
			return nil, fmt.Errorf("elicitation %d is null", i+1)
		case e.Mode != elicit.ModeURL:
			return nil, fmt.Errorf(`elicitation %d has mode %q; only "url" may require a page before a call`, i+1, e.Mode)
		case e.ElicitationID == "":
			return nil, fmt.Errorf(`elicitation %d has no "elicitationId"`, i+1)
		case len(e.ElicitationID) > maxElicitationID:
			return nil, fmt.Errorf(`elicitation %d has an "elicitationId" over %d bytes`, i+1, maxElicitationID)
		case seen[e.ElicitationID]:
			return nil, fmt.Errorf(`elicitation %d repeats "elicitationId" %q`, i+1, e.ElicitationID)
		}
		seen[e.ElicitationID] = true
	}
	return d.Elicitations, nil
}

// urlRequired handles a tools/call of name answered with -32042 (wire):
// nil means retry the call once; an error fails the call with it.
func (p *Provider) urlRequired(ctx context.Context, name string, wire *jsonrpc.Error) error {
	what := fmt.Sprintf("the server needs a page opened before tools/call %q (MCP URLElicitationRequired, -32042)", name)
	a := askerOf(ctx)
	if p.opts.Elicitation == nil || a == nil {
		return urlRequiredError("%s, and this host has no one to ask: %s", what, wire.Message)
	}
	prms, err := parseURLRequired(wire.Data)
	if err != nil {
		return urlRequiredError("%s, but the error is malformed: %v", what, err)
	}
	qs, err := p.urlQuestions(a, prms)
	if err != nil {
		return urlRequiredError("%s, and the page was refused: %v", what, err)
	}
	// Waiters first: a completion may come while a question is open.
	dones := make([]<-chan struct{}, len(prms))
	for i, prm := range prms {
		var stop func()
		dones[i], stop = p.urlQs.await(prm.ElicitationID)
		defer stop()
	}
	if err := p.askURLs(ctx, a, name, prms, qs, dones); err != nil {
		return err
	}
	return p.awaitCompletions(ctx, name, dones)
}

// urlQuestions are the questions of the pages a -32042 answer names, each
// URL checked (elicit.CheckURL); the first refused one is told to a and
// is the error.
func (p *Provider) urlQuestions(a Asker, prms []*sdk.ElicitParams) ([]Asked, error) {
	qs := make([]Asked, len(prms))
	for i, prm := range prms {
		q := p.asked(nil, prm, nil)
		u, host, err := elicit.CheckURL(prm.URL)
		if err != nil {
			if pu, perr := url.Parse(prm.URL); perr == nil && (pu.Scheme == "http" || pu.Scheme == "https") {
				q.Host = pu.Hostname()
			}
			a.Refused(q, err)
			return nil, err
		}
		q.URL, q.Host = u.String(), host
		qs[i] = q
	}
	return qs, nil
}

// askURLs asks each question in turn; a page completed meanwhile (its
// done closed) needs no acceptance. A declined or cancelled page fails
// the call.
func (p *Provider) askURLs(ctx context.Context, a Asker, name string, prms []*sdk.ElicitParams, qs []Asked, dones []<-chan struct{}) error {
	for i, q := range qs {
		qctx, cancel := context.WithCancelCause(ctx)
		stop := p.urlQs.add(prms[i].ElicitationID, cancel)
		ans := a.Ask(qctx, q)
		stop()
		cancel(nil)
		if ans.Action == elicit.Accept || isClosed(dones[i]) {
			continue
		}
		if ctx.Err() != nil {
			return fmt.Errorf("mcp provider %q: tools/call %q: %w", p.srv.Namespace, name, context.Cause(ctx))
		}
		word := "declined"
		if ans.Action == elicit.Cancel {
			word = "cancelled"
		}
		return urlRequiredError("the server needs the page at %s opened before tools/call %q (MCP URLElicitationRequired, -32042), and it was %s; the call was not retried", q.Host, name, word)
	}
	return nil
}

// awaitCompletions waits for the server's notifications that the pages
// were completed, at most Elicitation.CompleteWait (DefaultCompleteWait)
// and half of what is left of ctx; without them the call is retried
// anyway, once.
func (p *Provider) awaitCompletions(ctx context.Context, name string, dones []<-chan struct{}) error {
	wait := DefaultCompleteWait
	if w := p.opts.Elicitation.CompleteWait; w > 0 {
		wait = w
	}
	if d, ok := ctx.Deadline(); ok {
		wait = min(wait, time.Until(d)/2)
	}
	timer := time.NewTimer(max(wait, 0))
	defer timer.Stop()
	for _, done := range dones {
		select {
		case <-done:
		case <-timer.C:
			return nil // no completion came: retry anyway, once
		case <-ctx.Done():
			return fmt.Errorf("mcp provider %q: tools/call %q: %w", p.srv.Namespace, name, context.Cause(ctx))
		}
	}
	return nil
}

// urlRequiredAnswer is err's -32042 answer, or nil.
func urlRequiredAnswer(err error) *jsonrpc.Error {
	var wire *jsonrpc.Error
	if errors.As(err, &wire) && wire.Code == sdk.CodeURLElicitationRequired {
		return wire
	}
	return nil
}

func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// loopedError fails a retried call the server answered -32042 again.
func loopedError(name string, wire *jsonrpc.Error) error {
	msg := strings.TrimSpace(wire.Message)
	if msg == "" {
		msg = "URL elicitation required"
	}
	return urlRequiredError("the server still needs a page opened after tools/call %q was retried once (MCP URLElicitationRequired, -32042: %s); the call fails rather than ask again", name, msg)
}
