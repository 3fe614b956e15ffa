package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// redactor replaces a server's secrets (tool.MCPServer.Secrets) in every
// string the server supplies: serverInfo and instructions (adopt), tool
// descriptors (remoteTool), results (normalize), progress, stderr and
// errors, so they never reach the identity, the journal, the model, the UI
// or a log (docs/mcp.md#secrets). The rules are internal/redact's; this
// type adds what is MCP's own: tool errors, the stderr tail and a
// structured result that cannot stay JSON. The zero value does nothing.
type redactor struct{ redact.Redactor }

func newRedactor(secrets []string) redactor { return redactor{redact.New(secrets)} }

func (r redactor) active() bool { return r.Active() }

func (r redactor) text(s string) string { return r.Replace(s) }

// texts redacts adjacent text blocks, which the model reads joined
// (redact.Redactor.Texts).
func (r redactor) texts(ts []string) []string { return r.Texts(ts) }

// json redacts inside a JSON value; the result stays valid JSON because a
// secret is replaced by plain text inside the string that held it. A
// secret that spanned JSON syntax drops the value: {"redacted":true}.
func (r redactor) json(b json.RawMessage) json.RawMessage {
	if len(b) == 0 {
		return b
	}
	if out := r.JSON(b); out != nil {
		return out
	}
	return json.RawMessage(`{"redacted":true}`)
}

// err returns err with its message redacted, keeping errors.Is and
// errors.As working through Unwrap; a tool error stays one.
func (r redactor) err(err error) error {
	if te, ok := err.(*tool.ToolError); ok && r.Active() {
		return &tool.ToolError{Code: te.Code, Message: r.Replace(te.Message)}
	}
	return r.Error(err)
}

// tail redacts a stderr tail, which may begin ("…") in the middle of a
// secret (older output was dropped): a leading fragment that ends a secret
// is redacted too (redact.Redactor.Tail).
func (r redactor) tail(s string) string {
	body, cut := strings.CutPrefix(s, "…")
	body = r.Tail(body)
	if cut {
		return "…" + body
	}
	return body
}

// startRedactor is the redactor of start errors: each whole value that
// had variables substituted into it (tool.MCPServer.Vars) becomes
// "[FIELD from ${VAR}]", so the error says which field and variable
// without the value; any other secret becomes redact.Redacted.
// program is the program a stdio provider resolved its command to ("" if
// it did not get that far); it is a form of "command" (commandForms).
func startRedactor(srv tool.MCPServer, program string) redactor {
	var labels []redact.Label
	fields := make([]string, 0, len(srv.Vars))
	for f := range srv.Vars {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		v := fieldValue(srv, f)
		as := fmt.Sprintf("[%s from %s]", f, srv.Vars[f])
		if f == "command" {
			for _, form := range commandForms(v, program) {
				labels = append(labels, redact.Label{Value: form, As: as})
			}
		} else if len(v) >= redact.MinSecret {
			labels = append(labels, redact.Label{Value: v, As: as})
		}
	}
	return redactor{redact.New(srv.Secrets, labels...)}
}

// fieldValue is the value of a field named as in tool.MCPServer.Vars.
func fieldValue(srv tool.MCPServer, field string) string {
	switch {
	case field == "command":
		return srv.Program
	case field == "cwd":
		return srv.Dir
	case field == "url":
		return srv.URL
	case strings.HasPrefix(field, "env."):
		return srv.Env[strings.TrimPrefix(field, "env.")]
	case strings.HasPrefix(field, "headers."):
		return srv.Headers[strings.TrimPrefix(field, "headers.")]
	case strings.HasPrefix(field, "args["):
		var i int
		if _, err := fmt.Sscanf(field, "args[%d]", &i); err == nil && i >= 0 && i < len(srv.Args) {
			return srv.Args[i]
		}
	}
	return ""
}
