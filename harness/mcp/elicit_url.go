package mcp

import (
	"context"
	"net/url"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/elicit"
)

// Elicitation, URL mode (docs/mcp.md#url-mode). A Provider whose
// Options.Elicitation is set advertises form and URL elicitation. A URL
// question's URL must pass elicit.CheckURL (https, or http to this
// computer; no user part; IDN hosts as punycode), else it is declined and
// given to the Asker's Refused; a valid one goes to the call's Asker like a
// form, whose accept means the person chose to open it (the host opens it,
// not the harness). notifications/elicitation/complete for the question's
// elicitationId ends its ctx with cause elicit.ErrCompleted, which closes
// the question unanswered (cancel).

// elicitCapabilities adds form and URL elicitation to c when
// opts.Elicitation is set.
func (p *Provider) elicitCapabilities(c *sdk.ClientCapabilities) *sdk.ClientCapabilities {
	if p.opts.Elicitation != nil {
		c.Elicitation = &sdk.ElicitationCapabilities{Form: &sdk.FormElicitationCapabilities{}, URL: &sdk.URLElicitationCapabilities{}}
	}
	return c
}

// urlWaits are the open URL questions by elicitationId, each the cancel of
// its ctx, and the pages a -32042 waits on (elicit_required.go), each a
// channel closed by the page's completion.
type urlWaits struct {
	mu    sync.Mutex
	open  map[string]context.CancelCauseFunc
	waits map[string]chan struct{}
}

// await returns a channel closed when id completes, until stop is called.
func (w *urlWaits) await(id string) (done <-chan struct{}, stop func()) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waits == nil {
		w.waits = map[string]chan struct{}{}
	}
	c := make(chan struct{})
	w.waits[id] = c
	return c, func() {
		w.mu.Lock()
		if w.waits[id] == c {
			delete(w.waits, id)
		}
		w.mu.Unlock()
	}
}

func (w *urlWaits) add(id string, cancel context.CancelCauseFunc) func() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.open == nil {
		w.open = map[string]context.CancelCauseFunc{}
	}
	w.open[id] = cancel
	return func() {
		w.mu.Lock()
		delete(w.open, id)
		w.mu.Unlock()
	}
}

func (w *urlWaits) complete(id string) {
	w.mu.Lock()
	cancel := w.open[id]
	if c := w.waits[id]; c != nil {
		close(c)
		delete(w.waits, id)
	}
	w.mu.Unlock()
	if cancel != nil {
		cancel(elicit.ErrCompleted)
	}
}

// onElicitComplete is the SDK's ElicitationCompleteHandler.
func (p *Provider) onElicitComplete(_ context.Context, req *sdk.ElicitationCompleteNotificationRequest) {
	if req != nil && req.Params != nil && req.Params.ElicitationID != "" {
		p.urlQs.complete(req.Params.ElicitationID)
	}
}

func (p *Provider) onURLElicit(ctx, cctx context.Context, a Asker, why string, sess *sdk.ClientSession, prm *sdk.ElicitParams) *sdk.ElicitResult {
	decline := &sdk.ElicitResult{Action: string(elicit.Decline)}
	q := p.asked(sess, prm, nil)
	u, host, err := elicit.CheckURL(prm.URL)
	if err != nil {
		if pu, perr := url.Parse(prm.URL); perr == nil && (pu.Scheme == "http" || pu.Scheme == "https") {
			q.Host = pu.Hostname()
		}
		if a != nil {
			a.Refused(q, err)
		} else if s := p.opts.Elicitation.Stray; s != nil {
			s(q, why+"; and the URL was refused: "+err.Error())
		}
		return decline
	}
	q.URL, q.Host = u.String(), host
	if a == nil {
		if s := p.opts.Elicitation.Stray; s != nil {
			s(q, why)
		}
		return decline
	}
	actx, done := questionCtx(ctx, cctx)
	defer done()
	if prm.ElicitationID != "" {
		var cancel context.CancelCauseFunc
		actx, cancel = context.WithCancelCause(actx)
		defer cancel(nil)
		defer p.urlQs.add(prm.ElicitationID, cancel)()
	}
	ans := a.Ask(actx, q)
	return &sdk.ElicitResult{Action: string(ans.Action)}
}
