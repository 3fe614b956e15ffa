package app

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
)

// Views are the MCP App views of a chat's tool calls (docs/mcp-apps.md):
// their documents, served by the app (viewpages.go), the calls a view
// asks for, and what the window reports of them. Its state is the
// documents (viewPages, own lock).
type Views struct {
	*env
	engine *engine
	chats  *Chats // a view's call changes its chat as listed
	pages  *viewPages
}

// ToolView is the app view of one invocation, for the chat's AppView
// component (docs/mcp-apps.md#resources): the page as text, at most 2 MB,
// and the origins it declared, each checked (docs/mcp-apps.md#csp).
type ToolView struct {
	SessionID  string `json:"session_id"`
	Invocation string `json:"invocation_id"`
	// Tool is the qualified name of the tool whose call has the view.
	Tool   string  `json:"tool"`
	URI    string  `json:"uri"`    // ui://…
	Digest string  `json:"digest"` // "sha256:<hex>" of HTML
	Size   int     `json:"size"`   // bytes of HTML
	HTML   string  `json:"html"`
	CSP    ViewCSP `json:"csp"`
	// Permissions the view asked for ("camera", "microphone",
	// "geolocation", "clipboardWrite"); the window gives none.
	Permissions   []string `json:"permissions"`
	PrefersBorder *bool    `json:"prefers_border,omitempty"`
}

// ViewCSP is the origins a view declared: connect-src, the sources of
// scripts, styles, images, fonts and media, frame-src and base-uri
// (docs/mcp-apps.md#csp). Never nil.
type ViewCSP struct {
	Connect  []string `json:"connect"`
	Resource []string `json:"resource"`
	Frame    []string `json:"frame"`
	BaseURI  []string `json:"base_uri"`
}

// ViewToolResult is how a tool call asked by a view ended
// (docs/mcp-apps.md#view-calls): Status succeeded, failed, unknown or
// refused; Code the refusal or error code (not_selected, not_for_app,
// denied, over_budget, invalid_arguments, …); Invocation the journaled
// call ("" when none); Content and Structured the result of a call that ran.
type ViewToolResult struct {
	Status     string          `json:"status"`
	Code       string          `json:"code,omitempty"`
	Error      string          `json:"error,omitempty"`
	Invocation string          `json:"invocation_id,omitempty"`
	Content    []tool.Block    `json:"content"`
	Structured json.RawMessage `json:"structured,omitempty"`
}

// ToolView returns the app view of invocationID in the open chat sessionID
// (harness Session.UIResource: cached for the session, or read again from
// its provider for a resumed chat). Errors: no open chat; no such
// invocation in it; it has no view; the view was refused (over 2 MB, not
// HTML, a bad CSP origin) or could not be read.
func (vw *Views) ToolView(sessionID, invocationID string) (ToolView, error) {
	s, err := vw.engine.chat(sessionID)
	if err != nil {
		return ToolView{}, err
	}
	r, err := s.UIResource(vw.base, invocationID)
	if err != nil {
		return ToolView{}, err
	}
	name, _ := s.ViewTool(vw.base, invocationID) // known now: UIResource found the view
	v := ToolView{SessionID: sessionID, Invocation: invocationID, Tool: name, URI: r.URI, Digest: r.Digest, Size: r.Size, HTML: string(r.HTML),
		CSP: ViewCSP{nonNil(r.CSP.Connect), nonNil(r.CSP.Resource), nonNil(r.CSP.Frame), nonNil(r.CSP.BaseURI)}, Permissions: nonNil(r.Permissions), PrefersBorder: r.PrefersBorder}
	return v, nil
}

func nonNil(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// ViewCallTool runs a tool call asked by the view of invocationID
// (harness Session.CallFromView, docs/mcp-apps.md#view-calls): name is the
// server's own tool name, arguments a JSON object (empty means {}). Its
// events reach the window as EventHarness like a turn's, with Origin
// "view:<invocationID>", so the chat shows its card and the consent dialog
// names the app view. A refusal is a result with Status "refused", not an
// error; errors are for no open chat, or an invocation of another chat or
// without a view.
func (vw *Views) ViewCallTool(sessionID, invocationID, name string, arguments json.RawMessage) (res ViewToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			vw.log.Error("view call panicked", "session", sessionID, "invocation", invocationID, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("internal error in this view call: %v", p)
		}
	}()
	s, err := vw.engine.chat(sessionID)
	if err != nil {
		return ViewToolResult{}, err
	}
	r, err := s.CallFromView(vw.base, harness.ViewCall{Invocation: invocationID, Name: name, Arguments: arguments}, func(e harness.Event) {
		vw.emit.Emit(EventHarness, chatEvent(e))
		if chatEventChanges(e) {
			vw.chats.chatChanged(sessionID)
		}
	})
	if err != nil {
		return ViewToolResult{}, err
	}
	vw.log.Info("view call", "session", sessionID, "invocation", invocationID, "tool", name, "status", r.Status, "code", r.Code, "call", r.Invocation)
	content := r.Output.Content
	if content == nil {
		content = []tool.Block{}
	}
	return ViewToolResult{Status: r.Status, Code: r.Code, Error: r.Error, Invocation: r.Invocation, Content: content, Structured: r.Output.Structured}, nil
}

// maxRefusalText bounds what ViewRefused and ViewShown record of the window's words.
const maxRefusalText = 300

// ViewRefused records something the window refused a view
// (docs/mcp-apps.md#refusals): a flood of messages, a pop-up, a top
// navigation, an unsupported request, …; what is the window's words, cut
// to 300 bytes. It is logged at warn and kept in the e2e state.
func (vw *Views) ViewRefused(sessionID, invocationID, what string) error {
	what = clipText(strings.TrimSpace(what), maxRefusalText)
	if what == "" {
		return fmt.Errorf("ViewRefused needs what was refused (for example \"window.open\")")
	}
	vw.log.Warn("app view refused", "session", sessionID, "invocation", invocationID, "what", what)
	noteViewRefused(sessionID, invocationID, what)
	return nil
}

// ViewShown records that the window rendered the view of invocationID:
// x, y, w, h are the frame's rect in CSS pixels of the window's viewport.
// It is logged at debug and kept in the e2e state.
func (vw *Views) ViewShown(sessionID, invocationID string, x, y, w, h int) error {
	if w < 0 || h < 0 {
		return fmt.Errorf("ViewShown: width %d and height %d must not be negative", w, h)
	}
	vw.log.Debug("app view shown", "session", sessionID, "invocation", invocationID, "x", x, "y", y, "w", w, "h", h)
	noteViewShown(sessionID, invocationID, [4]int{x, y, w, h})
	return nil
}

// clipText cuts s to at most n bytes on a rune boundary.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "…"
}
