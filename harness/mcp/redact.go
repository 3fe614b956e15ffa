package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/tool"
)

// Redacted replaces a secret in anything a provider sends back.
const Redacted = "[redacted]"

// minSecret is the shortest value treated as a secret: shorter ones ("1",
// "on") would blank out ordinary text.
const minSecret = 4

// redactor replaces a server's secrets (tool.MCPServer.Secrets) in results,
// progress, stderr and errors, so they never reach the model, the journal or
// a log (docs/limits.md). The zero value does nothing.
type redactor struct {
	r       *strings.Replacer
	secrets []string // those of at least minSecret bytes
}

func newRedactor(secrets []string) redactor {
	var pairs, kept []string
	for _, s := range secrets {
		if len(s) < minSecret {
			continue
		}
		kept = append(kept, s)
		pairs = append(pairs, s, Redacted)
		// The same value as it appears inside a JSON string: as jsonenc
		// writes it (structured results) and as encoding/json's default
		// HTML escaping would.
		seen := map[string]bool{s: true}
		for _, enc := range []func(any) ([]byte, error){jsonenc.Marshal, json.Marshal} {
			if q, err := enc(s); err == nil {
				if inner := string(q[1 : len(q)-1]); !seen[inner] {
					seen[inner] = true
					pairs = append(pairs, inner, Redacted)
				}
			}
		}
	}
	if len(pairs) == 0 {
		return redactor{}
	}
	return redactor{strings.NewReplacer(pairs...), kept}
}

func (r redactor) active() bool { return r.r != nil }

// startRedactor is the redactor of start errors: each whole value that
// had variables substituted into it (tool.MCPServer.Vars) becomes
// "[FIELD from ${VAR}]", so the error says which field and variable
// without the value; any other secret becomes Redacted.
func startRedactor(srv tool.MCPServer) redactor {
	var pairs []string
	fields := make([]string, 0, len(srv.Vars))
	for f := range srv.Vars {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		v := fieldValue(srv, f)
		if len(v) >= minSecret {
			pairs = append(pairs, v, fmt.Sprintf("[%s from %s]", f, srv.Vars[f]))
		}
	}
	base := newRedactor(srv.Secrets)
	if len(pairs) == 0 {
		return base
	}
	for _, s := range base.secrets {
		pairs = append(pairs, s, Redacted)
	}
	return redactor{strings.NewReplacer(pairs...), base.secrets}
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

// tail redacts a stderr tail, which may begin in the middle of a secret
// (older output was dropped): a leading fragment that ends a secret is
// redacted too.
func (r redactor) tail(s string) string {
	s = r.text(s)
	body := strings.TrimPrefix(s, "…")
	for _, sec := range r.secrets {
		for k := len(sec) - 1; k >= minSecret; k-- {
			if strings.HasPrefix(body, sec[len(sec)-k:]) {
				return "…" + Redacted + body[k:]
			}
		}
	}
	return s
}

func (r redactor) text(s string) string {
	if r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

// json redacts inside a JSON value; the result stays valid JSON because a
// secret is replaced by plain text inside the string that held it.
func (r redactor) json(b json.RawMessage) json.RawMessage {
	if r.r == nil || len(b) == 0 {
		return b
	}
	out := json.RawMessage(r.r.Replace(string(b)))
	if !json.Valid(out) { // a secret that spanned JSON syntax: drop the value
		return json.RawMessage(`{"redacted":true}`)
	}
	return out
}

func (r redactor) output(o tool.Output) tool.Output {
	if r.r == nil {
		return o
	}
	o.Text = r.text(o.Text)
	o.Structured = r.json(o.Structured)
	if o.Content != nil {
		blocks := make([]tool.Block, len(o.Content))
		for i, b := range o.Content {
			b.Text, b.URI, b.Name, b.Title, b.Description = r.text(b.Text), r.text(b.URI), r.text(b.Name), r.text(b.Title), r.text(b.Description)
			blocks[i] = b
		}
		o.Content = blocks
	}
	return o
}

// err returns err with its message redacted, keeping errors.Is and
// errors.As working through Unwrap.
func (r redactor) err(err error) error {
	if err == nil || r.r == nil {
		return err
	}
	if te, ok := err.(*tool.ToolError); ok {
		return &tool.ToolError{Code: te.Code, Message: r.text(te.Message)}
	}
	msg := err.Error()
	if red := r.text(msg); red != msg {
		return &redactedError{msg: red, err: err}
	}
	return err
}

type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }
