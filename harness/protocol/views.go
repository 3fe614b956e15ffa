package protocol

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp"
)

// Methods of MCP Apps views (docs/stdio-protocol.md#app-views,
// docs/mcp-apps.md).
const (
	MethodUIResourceRead = "ui_resource.read"
	MethodViewCall       = "view.call"
)

// UIResourceReadParams are the params of ui_resource.read: the session and
// the invocation whose tool.finished carried a ui_resource.
type UIResourceReadParams struct {
	SessionID    string `json:"session_id"`
	InvocationID string `json:"invocation_id"`
}

// ViewCallParams are the params of view.call: the invocation whose view
// asks, the server's own tool name, and the arguments (a JSON object).
type ViewCallParams struct {
	SessionID    string          `json:"session_id"`
	InvocationID string          `json:"invocation_id"`
	Name         string          `json:"name"`
	Arguments    json.RawMessage `json:"arguments,omitempty"`
}

// UIResourceResult is the answer of ui_resource.read: the page as text and
// the origins it declared (docs/mcp-apps.md#csp).
type UIResourceResult struct {
	URI           string    `json:"uri"`
	MIMEType      string    `json:"mime_type"`
	HTML          string    `json:"html"`
	Digest        string    `json:"digest"`
	Size          int       `json:"size"`
	CSP           mcp.UICSP `json:"csp"`
	Permissions   []string  `json:"permissions"`
	PrefersBorder *bool     `json:"prefers_border,omitempty"`
}

// uiResourceRead answers UIResourceResult from the background (a resumed
// session reads the view again from its provider).
func (srv *Server) uiResourceRead(ctx context.Context, req Request) {
	var p UIResourceReadParams
	if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" || p.InvocationID == "" {
		srv.bad(req, "%sui_resource.read needs {\"session_id\": ID, \"invocation_id\": ID}", why(err))
		return
	}
	s, ok := srv.session(req, p.SessionID)
	if !ok {
		return
	}
	srv.background(func() {
		r, err := s.UIResource(ctx, p.InvocationID)
		if err != nil {
			var ue *mcp.UIResourceError
			code := CodeBadRequest
			if errors.As(err, &ue) {
				code = CodeFailed
			}
			srv.respond(req.ID, nil, &Error{code, err.Error()})
			return
		}
		srv.respond(req.ID, UIResourceFrom(r), nil)
	})
}

// UIResourceFrom is r as ui_resource.read answers it.
func UIResourceFrom(r mcp.UIResource) UIResourceResult {
	out := UIResourceResult{URI: r.URI, MIMEType: r.MIMEType, HTML: string(r.HTML), Digest: r.Digest, Size: r.Size, CSP: r.CSP,
		Permissions: r.Permissions, PrefersBorder: r.PrefersBorder}
	if out.Permissions == nil {
		out.Permissions = []string{}
	}
	for _, l := range []*[]string{&out.CSP.Connect, &out.CSP.Resource, &out.CSP.Frame, &out.CSP.BaseURI} {
		if *l == nil {
			*l = []string{}
		}
	}
	return out
}

// viewCall runs the call (harness.Session.CallFromView) in the background;
// its events are sent like a turn's, with "origin". The answer is the
// harness.ViewResult; a refusal is a result with status "refused", not an
// error.
func (srv *Server) viewCall(ctx context.Context, req Request) {
	var p ViewCallParams
	if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" || p.InvocationID == "" || p.Name == "" {
		srv.bad(req, "%sview.call needs {\"session_id\": ID, \"invocation_id\": ID, \"name\": TOOL, \"arguments\": {...}}", why(err))
		return
	}
	s, ok := srv.session(req, p.SessionID)
	if !ok {
		return
	}
	srv.background(func() {
		res, err := s.CallFromView(withSession(ctx, p.SessionID), harness.ViewCall{Invocation: p.InvocationID, Name: p.Name, Arguments: p.Arguments},
			func(e harness.Event) { srv.event(e) })
		if err != nil {
			srv.respond(req.ID, nil, &Error{CodeBadRequest, err.Error()})
			return
		}
		srv.respond(req.ID, res, nil)
	})
}
