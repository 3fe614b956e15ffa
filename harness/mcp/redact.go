package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
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

// redactor replaces a server's secrets (tool.MCPServer.Secrets) in every
// string the server supplies: serverInfo and instructions (adopt), tool
// descriptors (remoteTool), results (normalize), progress, stderr and
// errors, so they never reach the identity, the journal, the model, the UI
// or a log (docs/mcp.md#secrets). The zero value does nothing.
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
// program is the program a stdio provider resolved its command to ("" if
// it did not get that far); it is a form of "command" (commandForms).
func startRedactor(srv tool.MCPServer, program string) redactor {
	var pairs []string
	fields := make([]string, 0, len(srv.Vars))
	for f := range srv.Vars {
		fields = append(fields, f)
	}
	sort.Strings(fields)
	for _, f := range fields {
		v := fieldValue(srv, f)
		if f == "command" {
			for _, form := range commandForms(v, program) {
				pairs = append(pairs, form, fmt.Sprintf("[%s from %s]", f, srv.Vars[f]))
			}
		} else if len(v) >= minSecret {
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

// texts redacts adjacent text blocks, which the model reads joined
// (docs/mcp.md#secrets): each occurrence of a secret in their
// concatenation, directly or with the "\n" the model's text puts between
// blocks, becomes Redacted in every block that holds a piece of it, so a
// secret split across two or more blocks reaches no one in halves. A
// fragment is redacted only when the blocks together hold the whole
// secret (of at least minSecret bytes); ordinary text at a boundary stays.
// Each block keeps its own place: ts[i] becomes the i-th result.
func (r redactor) texts(ts []string) []string {
	out := make([]string, len(ts))
	if r.r == nil || len(ts) < 2 {
		for i, t := range ts {
			out[i] = r.text(t)
		}
		return out
	}
	marks := make([][][2]int, len(ts)) // per block, byte ranges inside a secret
	starts := make([]int, len(ts))
	for _, sep := range []string{"", "\n"} {
		var joined strings.Builder
		for i, t := range ts {
			if i > 0 {
				joined.WriteString(sep)
			}
			starts[i] = joined.Len()
			joined.WriteString(t)
		}
		all := joined.String()
		for _, sec := range r.secrets {
			for from := 0; ; {
				k := strings.Index(all[from:], sec)
				if k < 0 {
					break
				}
				a := from + k
				b := a + len(sec)
				for i, t := range ts {
					lo, hi := max(a, starts[i]), min(b, starts[i]+len(t))
					if lo < hi {
						marks[i] = append(marks[i], [2]int{lo - starts[i], hi - starts[i]})
					}
				}
				from = a + 1 // overlapping occurrences too
			}
		}
	}
	for i, t := range ts {
		out[i] = r.cut(t, marks[i])
	}
	return out
}

// cut replaces each run of t covered by the ranges with one Redacted and
// redacts the rest as text does.
func (r redactor) cut(t string, ranges [][2]int) string {
	if len(ranges) == 0 {
		return r.text(t)
	}
	slices.SortFunc(ranges, func(x, y [2]int) int { return x[0] - y[0] })
	var b strings.Builder
	done := 0
	for i := 0; i < len(ranges); {
		lo, hi := ranges[i][0], ranges[i][1]
		for i++; i < len(ranges) && ranges[i][0] < hi; i++ { // overlapping: one run
			hi = max(hi, ranges[i][1])
		}
		b.WriteString(r.text(t[done:lo]))
		b.WriteString(Redacted)
		done = hi
	}
	b.WriteString(r.text(t[done:]))
	return b.String()
}
