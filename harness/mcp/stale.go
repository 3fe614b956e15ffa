package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// Stale sessions (docs/mcp.md#stale-sessions). A streamable HTTP server
// that restarted, or dropped a session, answers the session's
// Mcp-Session-Id with 404 (the spec; mark3labs/mcp-go) or 400
// (server-everything and other TypeScript servers). Such an answer comes
// before the request is run. A listing, or a call whose own request got
// it, opens a new session once (initialize again) and is sent again; a
// request that may have reached the server is never sent twice.

// sessionHeader is the streamable HTTP session header.
const sessionHeader = "Mcp-Session-Id"

// maxStaleBody bounds how much of a 400 answer is read to see whether it
// is about the session.
const maxStaleBody = 4 << 10

// staleMark is set, with the HTTP status, when the server answered a
// request of one session with "no such session".
type staleMark struct{ status atomic.Int32 }

func (m *staleMark) set(code int) { m.status.CompareAndSwap(0, int32(code)) }
func (m *staleMark) get() int     { return int(m.status.Load()) }

// attempt records what became of the POSTs of one request (carried in its
// context): how many the server refused for a stale session, and how many
// had any other outcome (and so may have run).
type attempt struct {
	mu    sync.Mutex
	stale int // the status of the last stale-session answer
	other int
}

type attemptKey struct{}

func withAttempt(ctx context.Context, a *attempt) context.Context {
	return context.WithValue(ctx, attemptKey{}, a)
}

// noteAnswer looks at the answer to a request of a streamable HTTP
// session: a 404, or a 400 whose body speaks of the session, to a request
// that carried a session id marks the session stale; and the request's
// attempt, if any, learns whether its POST was refused that way.
func noteAnswer(r *http.Request, resp *http.Response, err error, mark *staleMark) {
	stale := 0
	if err == nil && r.Header.Get(sessionHeader) != "" {
		switch resp.StatusCode {
		case http.StatusNotFound:
			stale = resp.StatusCode
		case http.StatusBadRequest:
			if bodyNamesSession(resp) {
				stale = resp.StatusCode
			}
		}
	}
	if stale != 0 {
		mark.set(stale)
	}
	a, _ := r.Context().Value(attemptKey{}).(*attempt)
	if a == nil || r.Method != http.MethodPost {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if stale != 0 {
		a.stale = stale
	} else {
		a.other++
	}
}

// bodyNamesSession reads the start of a 400 answer and reports whether it
// speaks of the session ("Bad Request: No valid session ID provided"); the
// body stays readable in full.
func bodyNamesSession(resp *http.Response) bool {
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxStaleBody))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	return err == nil && bytes.Contains(bytes.ToLower(head), []byte("session"))
}

// refused returns the status with which the server refused the request of
// a for a stale session of c before running it, or 0: its POST got that
// answer, or nothing was sent at all because the session was already
// known to be stale (the SDK closes such a session). Any other answer to a
// POST of a means the request may have run.
func (a *attempt) refused(c *conn) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.other > 0:
		return 0
	case a.stale != 0:
		return a.stale
	}
	return c.stale.get()
}

// request runs do on the provider's current session. For a streamable HTTP
// provider whose server refused the request for a stale session before
// running it, it opens a new session and runs do again, once; refused
// again, it returns an error that says the server restarted or dropped the
// session (a *tool.ToolError for a call, which did not run). what names
// the request in errors ("tools/list").
func (p *Provider) request(ctx context.Context, what string, isCall bool, do func(context.Context, *sdk.ClientSession) error) error {
	c := p.conn.Load()
	if c.stale == nil {
		return do(ctx, c.cs)
	}
	if c.gone() { // closed after a stale answer: nothing goes out on it again
		var err error
		if c, err = p.reopen(ctx, c, what); err != nil {
			return p.lostSession(ctx, isCall, err)
		}
	}
	a := &attempt{}
	err := do(withAttempt(ctx, a), c.cs)
	status := a.refused(c)
	if err == nil || ctx.Err() != nil || status == 0 {
		return err
	}
	c, rerr := p.reopen(ctx, c, what)
	if rerr != nil {
		return p.lostSession(ctx, isCall, rerr)
	}
	a = &attempt{}
	err = do(withAttempt(ctx, a), c.cs)
	if err != nil && ctx.Err() == nil {
		if again := a.refused(c); again != 0 {
			return p.lostSession(ctx, isCall, fmt.Errorf(
				"the server restarted or dropped the session: it refused the session (HTTP %d), and a new session too (HTTP %d)", status, again))
		}
	}
	return err
}

// lostSession shapes the error of a request that the server refused for
// its session: a call did not run, so it fails as a tool error the model
// sees (code "mcp_session_lost") and the turn goes on; a listing fails, and
// so does a request whose ctx ended or whose provider was closed.
func (p *Provider) lostSession(ctx context.Context, isCall bool, err error) error {
	if !isCall || ctx.Err() != nil || errors.Is(err, ErrClosed) {
		return err
	}
	return &tool.ToolError{Code: "mcp_session_lost", Message: p.secrets.text(scrubURL(err, p.srv.URL).Error()) + "; the call did not run"}
}

// reopen replaces the stale session old with a new one (initialize again,
// within Options.StartTimeout and ctx), unless another request already
// did. The new session may list other tools: CatalogVersion moves on.
func (p *Provider) reopen(ctx context.Context, old *conn, what string) (*conn, error) {
	p.reopenMu.Lock()
	defer p.reopenMu.Unlock()
	p.stateMu.Lock()
	cur, closed := p.conn.Load(), p.closed
	p.stateMu.Unlock()
	switch {
	case closed:
		return nil, ErrClosed
	case cur != old && !cur.gone():
		return cur, nil
	}
	status := old.stale.get()
	cctx, cancel := context.WithTimeout(ctx, p.opts.StartTimeout)
	defer cancel()
	t, mark := p.http.transport()
	cs, err := p.client.Connect(cctx, t, nil)
	if err != nil {
		return nil, fmt.Errorf("the server restarted or dropped the session (HTTP %d), and a new session could not be opened: %w", status, err)
	}
	c, ok := p.adopt(cs, mark)
	if !ok { // Close came while the session was opened
		cs.Close()
		return nil, ErrClosed
	}
	p.catalog.Add(1)
	go cur.cs.Close() // ended already, or of no use: this only releases it
	p.opts.Logger.Info("mcp provider opened a new session: the server restarted or dropped the old one",
		"namespace", p.srv.Namespace, "status", status, "during", what, "server_version", c.version)
	return c, nil
}

// sessionCall makes one tools/call through request: sent again on a new
// session only when the server refused it for a stale session.
func (p *Provider) sessionCall(ctx context.Context, params *sdk.CallToolParams) (*sdk.CallToolResult, error) {
	var res *sdk.CallToolResult
	err := p.request(ctx, fmt.Sprintf("tools/call %q", params.Name), true, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.CallTool(ctx, params)
		return err
	})
	return res, notAnAnswer(err)
}

// codeRejected is the SDK's "rejected by transport" (jsonrpc2.ErrRejected):
// the HTTP request failed (a dropped connection, a refused one, a 502),
// which is no answer from the server.
const codeRejected = -32005

// notAnAnswer hides the SDK's transport rejection, which it reports as a
// JSON-RPC error, so that a call whose connection failed, and which may
// have run, is not taken for the server's definite answer (call.go): it is
// a lost transport. A JSON-RPC error the server did send comes first in
// the chain and is kept.
func notAnAnswer(err error) error {
	var wire *jsonrpc.Error
	if err == nil || !errors.As(err, &wire) || wire.Code != codeRejected {
		return err
	}
	return &transportError{msg: err.Error()}
}

// transportError is an error that failed on the way, not an answer.
type transportError struct{ msg string }

func (e *transportError) Error() string { return e.msg }
