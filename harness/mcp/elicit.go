package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/elicit"
)

// Elicitation, form mode (docs/mcp.md#elicitation). A Provider whose
// Options.Elicitation is set advertises form elicitation in its
// handshake; a server's elicitation/create during a tools/call goes to the
// Asker of that call (WithAsker on the ctx given to CallTool):
//   - over MCP 2026-07-28 (multi round-trip), the SDK hands the question
//     over with the call's own ctx;
//   - over older versions the server sends a separate request, which is
//     the call's when exactly one call of this provider is running; with
//     none, or several, it is declined and given to Options.Elicitation's
//     Stray (journaled without an invocation).
// A requested schema that is not a flat form (elicit.Parse) is refused
// with a JSON-RPC error naming why, and given to the Asker's Refused.

// Asked is one question as a provider received it.
type Asked struct {
	Namespace  string
	ServerName string       // from the server's initialize answer, redacted
	Message    string       // the server's message, redacted
	Form       *elicit.Form // the parsed requested schema; nil when Refused and in URL mode
	Mode       string       // elicit.ModeForm or elicit.ModeURL
	URL        string       // URL mode: the URL as elicit.CheckURL returned it; "" when refused
	Host       string       // URL mode: its host (punycode); "" when there is none
}

// Asker answers the questions asked during one tools/call; the harness
// puts one in the call's ctx. Ask blocks until an answer (ctx carries the
// call's deadline; the Asker declines before it). Refused is told of a
// question that was refused before anyone saw it, and why.
type Asker interface {
	Ask(ctx context.Context, q Asked) elicit.Answer
	Refused(q Asked, why error)
}

// ElicitationOptions turn on form elicitation for the providers of a
// Manager (or one Connect).
type ElicitationOptions struct {
	// Stray is told of a question no running call could be found for (why
	// says so); it was declined. May be nil.
	Stray func(q Asked, why string)
	// CompleteWait bounds the wait for notifications/elicitation/complete
	// after the person accepted every page a -32042 asked for, before the
	// call is retried anyway (docs/mcp.md#url-required); 0 means
	// DefaultCompleteWait. Half the call's remaining bound caps it too.
	CompleteWait time.Duration
}

type askerKey struct{}

// WithAsker returns ctx carrying a, the Asker of the call made with it.
func WithAsker(ctx context.Context, a Asker) context.Context {
	return context.WithValue(ctx, askerKey{}, a)
}

func askerOf(ctx context.Context) Asker {
	a, _ := ctx.Value(askerKey{}).(Asker)
	return a
}

// running is the provider's in-flight calls, for a question the server
// sends as its own request (no link to the call it belongs to on the wire).
type running struct {
	mu    sync.Mutex
	next  uint64
	calls map[uint64]context.Context
}

// add registers a call's ctx until the returned func is called.
func (r *running) add(ctx context.Context) func() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.calls == nil {
		r.calls = map[uint64]context.Context{}
	}
	r.next++
	id := r.next
	r.calls[id] = ctx
	return func() {
		r.mu.Lock()
		delete(r.calls, id)
		r.mu.Unlock()
	}
}

// only returns the ctx of the one running call, or why there is none.
func (r *running) only() (context.Context, string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch len(r.calls) {
	case 0:
		return nil, "no tool call of this server is running, so no one asked for it"
	case 1:
		for _, c := range r.calls {
			return c, ""
		}
	}
	return nil, fmt.Sprintf("%d tool calls of this server are running and the question does not say which one asks", len(r.calls))
}

// elicitationHandler is the SDK's ElicitationHandler, or nil when the
// provider does not advertise elicitation.
func (p *Provider) elicitationHandler() func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	if p.opts.Elicitation == nil {
		return nil
	}
	return p.onElicit
}

// elicitGate is a receiving middleware: it refuses an elicitation/create
// whose schema is not a form before the SDK's own check does, so the
// refusal is told to the call's Asker (and journaled).
func (p *Provider) elicitGate(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "elicitation/create" || p.opts.Elicitation == nil {
			return next(ctx, method, req)
		}
		prm, _ := req.GetParams().(*sdk.ElicitParams)
		if prm == nil || (prm.Mode != "" && prm.Mode != "form") {
			return next(ctx, method, req)
		}
		if _, err := parseRequested(prm.RequestedSchema); err != nil {
			sess, _ := req.GetSession().(*sdk.ClientSession)
			q := p.asked(sess, prm, nil)
			if a, _, why := p.askerFor(ctx); a != nil {
				a.Refused(q, err)
			} else if s := p.opts.Elicitation.Stray; s != nil {
				s(q, why+"; and the form was refused: "+err.Error())
			}
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "openworker refused the elicitation: " + err.Error()}
		}
		return next(ctx, method, req)
	}
}

func parseRequested(schema any) (*elicit.Form, error) {
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("the requested schema is not JSON: %v", err)
	}
	return elicit.Parse(raw)
}

// asked is the question of prm. The server's name comes from the
// connection, or, for a question that arrives while Connect is still
// adopting the handshake, from sess's initialize answer.
func (p *Provider) asked(sess *sdk.ClientSession, prm *sdk.ElicitParams, f *elicit.Form) Asked {
	mode := prm.Mode
	if mode == "" {
		mode = "form"
	}
	name := ""
	if c := p.conn.Load(); c != nil {
		name = c.info.Name
	} else if sess != nil {
		if ir := sess.InitializeResult(); ir != nil {
			name = p.secrets.serverInfo(ir).Name
		}
	}
	return Asked{Namespace: p.srv.Namespace, ServerName: name, Message: p.secrets.text(prm.Message), Form: f, Mode: mode}
}

// askerFor finds the Asker of the call a question belongs to and that
// call's ctx: the question's own ctx (multi round-trip), or the one
// running call's.
func (p *Provider) askerFor(ctx context.Context) (Asker, context.Context, string) {
	if a := askerOf(ctx); a != nil {
		return a, ctx, ""
	}
	cctx, why := p.running.only()
	if cctx == nil {
		return nil, nil, why
	}
	if a := askerOf(cctx); a != nil {
		return a, cctx, ""
	}
	return nil, nil, "the running call has no one to ask"
}

func (p *Provider) onElicit(ctx context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	decline := &sdk.ElicitResult{Action: string(elicit.Decline)}
	prm := req.Params
	if prm == nil {
		return decline, nil
	}
	a, cctx, why := p.askerFor(ctx)
	if prm.Mode == elicit.ModeURL {
		return p.onURLElicit(ctx, cctx, a, why, req.Session, prm), nil
	}
	f, err := parseRequested(prm.RequestedSchema)
	q := p.asked(req.Session, prm, f)
	if err != nil { // the gate refused it already on the legacy path
		if a != nil {
			a.Refused(q, err)
		}
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "openworker refused the elicitation: " + err.Error()}
	}
	if a == nil {
		if s := p.opts.Elicitation.Stray; s != nil {
			s(q, why)
		}
		return decline, nil
	}
	actx, done := questionCtx(ctx, cctx)
	defer done()
	ans := a.Ask(actx, q)
	if ans.Action != elicit.Accept {
		return &sdk.ElicitResult{Action: string(ans.Action)}, nil
	}
	return &sdk.ElicitResult{Action: string(elicit.Accept), Content: ans.Content}, nil
}

// questionCtx is the ctx of a question: it ends with the server's request
// (ctx) and with the call (cctx, whose deadline is the call's bound).
func questionCtx(ctx, cctx context.Context) (context.Context, func()) {
	if cctx == ctx {
		return ctx, func() {}
	}
	actx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(cctx, cancel)
	done := func() { stop(); cancel() }
	if d, ok := cctx.Deadline(); ok {
		var cancel2 context.CancelFunc
		actx, cancel2 = context.WithDeadline(actx, d)
		return actx, func() { cancel2(); done() }
	}
	return actx, done
}
