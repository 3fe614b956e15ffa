package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// MaxViewCalls bounds the tool calls the app views of one session may ask,
// refused ones included; the next is refused "over_budget"
// (docs/mcp-apps.md#view-calls).
const MaxViewCalls = 100

// uiState is a session's app views (docs/mcp-apps.md): the UI resources
// read, one read per provider and URI for the session's life, and the
// invocations that have a view.
type uiState struct {
	mu    sync.Mutex
	read  map[string]*uiRead   // namespace + " " + URI → the read
	views map[string]viewOwner // invocation id → its view
	calls int                  // view calls asked, for MaxViewCalls
}

type uiRead struct {
	once sync.Once
	res  mcp.UIResource
	err  error
}

// viewOwner is the call a view was shown for.
type viewOwner struct {
	tool     string // qualified name
	provider string // "mcp:<namespace>"
	ns, uri  string
	turnID   string
	digest   string // as journaled
}

// ViewCall is a tool call asked by the app view of an invocation
// (docs/mcp-apps.md#view-calls).
type ViewCall struct {
	// Invocation is the call whose view asks: an invocation of this
	// session whose tool has a view that was shown.
	Invocation string `json:"invocation_id"`
	// Name is the tool as the view names it: its server's own tool name,
	// resolved on the provider of the Invocation's tool.
	Name string `json:"name"`
	// Arguments is a JSON object; empty means {}.
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// ViewResult is how a view call ended. Status is succeeded, failed, unknown
// or refused; Code the refusal or error code (not_selected, not_for_app,
// denied, invalid_arguments, over_budget, …, docs/mcp-apps.md#refusals);
// Output the result of a call that ran (Content and Structured).
// Invocation is the call's id in the journal ("" when it was not journaled).
type ViewResult struct {
	Invocation string      `json:"invocation_id,omitempty"`
	Status     string      `json:"status"`
	Code       string      `json:"code,omitempty"`
	Error      string      `json:"error,omitempty"`
	Output     tool.Output `json:"output"`
}

// ViewOrigin is the journal's and the events' origin of a call asked by the
// view of invocation inv: "view:<inv>" (docs/mcp-apps.md#journal).
func ViewOrigin(inv string) string { return journal.ViewOrigin(inv) }

// readView reads the view of rt after its succeeded call invID of turn
// turnID (once per provider and URI in the session), journals its URI,
// size and digest, and returns the reference tool.finished carries. A
// refused or failed read is a warning in the log and a reference with
// Error; it never fails the call (docs/mcp-apps.md#resources).
func (s *Session) readView(ctx context.Context, rt *ResolvedTool, invID, turnID string) *UIResourceRef {
	uri := rt.Descriptor.UI.ResourceURI
	ref := &UIResourceRef{URI: uri}
	ns, ok := strings.CutPrefix(rt.Provider, "mcp:")
	if !ok {
		ref.Error = "only MCP tools have app views"
		return ref
	}
	res, err := s.uiResource(ctx, ns, uri)
	if err != nil {
		s.rt.opts.Logger.Warn("app view not shown", "session", s.id, "invocation", invID, "tool", rt.Name, "uri", uri, "err", err)
		ref.Error = err.Error()
		return ref
	}
	if err := s.rt.journal.SetUIResource(context.WithoutCancel(ctx), invID, uri, res.Size, res.Digest); err != nil {
		s.rt.opts.Logger.Error("journal the app view", "invocation", invID, "err", err)
	}
	s.ui.remember(invID, viewOwner{tool: rt.Name, provider: rt.Provider, ns: ns, uri: uri, turnID: turnID, digest: res.Digest})
	ref.Digest, ref.Size = res.Digest, res.Size
	return ref
}

// uiResource reads uri of provider ns once for the session.
func (s *Session) uiResource(ctx context.Context, ns, uri string) (mcp.UIResource, error) {
	key := ns + " " + uri
	s.ui.mu.Lock()
	if s.ui.read == nil {
		s.ui.read = map[string]*uiRead{}
	}
	r := s.ui.read[key]
	if r == nil {
		r = &uiRead{}
		s.ui.read[key] = r
	}
	s.ui.mu.Unlock()
	r.once.Do(func() {
		p, err := s.provider(ctx, ns)
		if err != nil {
			r.err = err
			return
		}
		r.res, r.err = p.ReadUIResource(ctx, uri)
	})
	if r.err != nil && !isUIRefusal(r.err) { // a failed read (a dead provider, a cancel) is tried again next time
		s.ui.mu.Lock()
		if s.ui.read[key] == r {
			delete(s.ui.read, key)
		}
		s.ui.mu.Unlock()
	}
	return r.res, r.err
}

func isUIRefusal(err error) bool {
	var ue *mcp.UIResourceError
	return errors.As(err, &ue) && ue.Code != "missing"
}

// owner returns the view of invocation inv of this session: from the views
// shown, or from the journal (a resumed session) by the journaled ui_uri.
func (s *Session) owner(ctx context.Context, inv string) (viewOwner, error) {
	s.ui.mu.Lock()
	o, ok := s.ui.views[inv]
	s.ui.mu.Unlock()
	if ok {
		return o, nil
	}
	row, err := s.rt.journal.Invocation(ctx, inv)
	if err != nil || row.SessionID != s.id {
		return viewOwner{}, fmt.Errorf("there is no invocation %q in session %s; a view belongs to a call of its own session", inv, s.id)
	}
	if row.UIURI == "" {
		return viewOwner{}, fmt.Errorf("invocation %s (%s) has no app view: its tool declares none, or the view was not shown", inv, row.Tool)
	}
	ns, ok := strings.CutPrefix(row.Provider, "mcp:")
	if !ok {
		return viewOwner{}, fmt.Errorf("invocation %s (%s) is not of an MCP tool; only MCP tools have app views", inv, row.Tool)
	}
	o = viewOwner{tool: row.Tool, provider: row.Provider, ns: ns, uri: row.UIURI, turnID: row.TurnID, digest: row.UIDigest}
	s.ui.remember(inv, o)
	return o, nil
}

// remember notes that invocation inv has the view o.
func (u *uiState) remember(inv string, o viewOwner) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.views == nil {
		u.views = map[string]viewOwner{}
	}
	u.views[inv] = o
}

// UIResource returns the app view of invocation invocationID of this
// session (docs/mcp-apps.md#resources): from the session's cache, or read
// again from its provider by the journaled ui:// URI (a resumed chat). A
// view whose digest differs from the journaled one is returned all the
// same, with a warning in the log. Errors: no such invocation in this
// session; the invocation has no view; the read was refused
// (*mcp.UIResourceError) or failed.
func (s *Session) UIResource(ctx context.Context, invocationID string) (mcp.UIResource, error) {
	o, err := s.owner(ctx, invocationID)
	if err != nil {
		return mcp.UIResource{}, err
	}
	res, err := s.uiResource(ctx, o.ns, o.uri)
	if err != nil {
		return mcp.UIResource{}, err
	}
	if o.digest != "" && res.Digest != o.digest {
		s.rt.opts.Logger.Warn("app view changed since it was journaled", "session", s.id, "invocation", invocationID, "uri", o.uri, "journaled", o.digest, "now", res.Digest)
	}
	return res, nil
}

// ViewTool returns the qualified name of the tool whose app view
// invocationID shows: from the views shown, or the journal for a resumed
// chat. Errors as UIResource's for a missing invocation or view.
func (s *Session) ViewTool(ctx context.Context, invocationID string) (string, error) {
	o, err := s.owner(ctx, invocationID)
	return o.tool, err
}

// CallFromView runs a tool call asked by the app view of v.Invocation
// (docs/mcp-apps.md#view-calls), exactly as a call of the model runs:
// v.Name is resolved on the provider of the view's tool among the selected
// tools (none: refused "not_selected"); a tool whose visibility lacks "app"
// is refused "not_for_app"; at most MaxViewCalls per session
// ("over_budget"); then validation, consent (the prompt's Origin is "the app
// view of <tool>"), limits, and the journal with Origin "view:<invocation>"
// and the view's turn. Its events go to sink with the same Origin. Its
// result never reaches the model's history. A view call may run while a
// turn runs. The error is for a call that cannot be asked at all: a closed
// session, an invocation of another session or without a view.
func (s *Session) CallFromView(ctx context.Context, v ViewCall, sink Sink) (ViewResult, error) {
	s.mu.Lock()
	closed := s.closed || s.closing
	s.mu.Unlock()
	if closed {
		return ViewResult{}, ErrSessionClosed
	}
	o, err := s.owner(ctx, v.Invocation)
	if err != nil {
		return ViewResult{}, err
	}
	var rtool *ResolvedTool
	for i := range s.res.Tools {
		if rt := &s.res.Tools[i]; rt.Provider == o.provider && rt.Remote == v.Name {
			rtool = rt
			break
		}
	}
	args := string(v.Arguments)
	if strings.TrimSpace(args) == "" {
		args = "{}"
	}
	t := &turn{s: s, id: o.turnID, sink: sink}
	origin := ViewOrigin(v.Invocation)
	invID := journal.NewID("inv_")
	d := t.execCall(ctx, callReq{
		invID: invID, callID: journal.NewID("view_"), alias: v.Name, rawArgs: args, rtool: rtool,
		origin: origin, originText: "the app view of " + o.tool,
		budget: func() (string, string) {
			s.ui.mu.Lock()
			defer s.ui.mu.Unlock()
			if s.ui.calls >= MaxViewCalls {
				return "over_budget", fmt.Sprintf("the app views of this session asked %d tool calls, the most allowed; this call was not run", MaxViewCalls)
			}
			s.ui.calls++
			return "", ""
		},
		notSelected: fmt.Sprintf("the app view of %s asked for %q, which is not a tool selected for this coworker on %s; a view may call only its coworker's selected tools", o.tool, v.Name, o.provider),
		gate: func(rt *ResolvedTool) (string, string) {
			if !rt.Descriptor.UI.VisibleTo(tool.VisibleToApp) {
				return "not_for_app", fmt.Sprintf("%s is not for app views (its visibility is %v); only the model may call it", rt.Name, rt.Descriptor.UI.Visibility)
			}
			return "", ""
		},
	})
	out := ViewResult{Status: string(d.status), Code: d.code, Error: d.errMsg, Output: d.output}
	if d.journaled {
		out.Invocation = invID
	}
	return out, nil
}
