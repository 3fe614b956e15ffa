package protocol

import (
	"context"

	"github.com/openworker/desktop/harness"
)

// Methods of the prompts a session's providers offer
// (docs/stdio-protocol.md#prompts).
const (
	MethodPromptsList = "prompts.list"
	MethodPromptsGet  = "prompts.get"
)

// PromptsGetParams are the params of prompts.get: the session, the
// prompt's "namespace.name" as prompts.list gives it, and its arguments.
type PromptsGetParams struct {
	SessionID string            `json:"session_id"`
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// promptsList answers {"prompts": [...]} (harness.SessionPrompt each)
// from the background: listing asks the providers (bounded by
// mcp.PromptTimeout each).
func (srv *Server) promptsList(ctx context.Context, req Request) {
	s, ok := srv.sessionParams(req)
	if !ok {
		return
	}
	srv.background(func() {
		list, err := s.Prompts(ctx)
		if err != nil {
			srv.respond(req.ID, nil, &Error{CodeFailed, err.Error()})
			return
		}
		if list == nil {
			list = []harness.SessionPrompt{}
		}
		srv.respond(req.ID, map[string]any{"prompts": list}, nil)
	})
}

// promptsGet answers {"name", "messages", "text"}: the prompt's messages
// and the text a turn.send would carry (harness.PromptText). An unknown
// prompt or a missing argument is bad_request, naming what to fix.
func (srv *Server) promptsGet(ctx context.Context, req Request) {
	var p PromptsGetParams
	if err := strictParams(req.Params, &p); err != nil || p.SessionID == "" || p.Name == "" {
		srv.bad(req, "%sprompts.get needs {\"session_id\": ID, \"name\": \"namespace.prompt\", \"arguments\": {...}}", why(err))
		return
	}
	s, ok := srv.session(req, p.SessionID)
	if !ok {
		return
	}
	srv.background(func() {
		res, err := s.GetPrompt(ctx, p.Name, p.Arguments)
		if err != nil {
			srv.respond(req.ID, nil, &Error{CodeBadRequest, err.Error()})
			return
		}
		srv.respond(req.ID, map[string]any{"name": p.Name, "messages": res.Messages, "text": harness.PromptText(res)}, nil)
	})
}
