package a2a

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// Redacted replaces a secret in anything an agent sends back.
const Redacted = "[redacted]"

// minSecret is the shortest value treated as a secret.
const minSecret = 4

// redactor replaces an agent's secrets (tool.A2AAgent.Secrets and its
// header values) in what the agent sends back: results, progress and
// error messages, so an agent that echoes a credential never puts it in
// the journal, the model or the UI (docs/a2a.md#secrets). The zero value
// does nothing.
type redactor struct{ r *strings.Replacer }

func newRedactor(cfg tool.A2AAgent) redactor {
	secrets := append([]string(nil), cfg.Secrets...)
	for _, v := range cfg.Headers {
		secrets = append(secrets, v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			secrets = append(secrets, tok)
		}
	}
	var pairs []string
	seen := map[string]bool{}
	for _, s := range secrets {
		if len(s) < minSecret || seen[s] {
			continue
		}
		seen[s] = true
		pairs = append(pairs, s, Redacted)
		if q, err := json.Marshal(s); err == nil { // as it stands inside a JSON string
			if inner := string(q[1 : len(q)-1]); inner != s && !seen[inner] {
				seen[inner] = true
				pairs = append(pairs, inner, Redacted)
			}
		}
	}
	if len(pairs) == 0 {
		return redactor{}
	}
	return redactor{strings.NewReplacer(pairs...)}
}

func (r redactor) text(s string) string {
	if r.r == nil {
		return s
	}
	return r.r.Replace(s)
}

func (r redactor) output(o tool.Output) tool.Output {
	if r.r == nil {
		return o
	}
	o.Text = r.r.Replace(o.Text)
	if len(o.Structured) > 0 {
		if red := r.r.Replace(string(o.Structured)); json.Valid([]byte(red)) {
			o.Structured = json.RawMessage(red)
		} else {
			o.Structured = nil
		}
	}
	return o
}

func (r redactor) err(err error) error {
	if err == nil || r.r == nil {
		return err
	}
	var te *tool.ToolError
	if errors.As(err, &te) {
		return &tool.ToolError{Code: te.Code, Message: r.r.Replace(te.Message)}
	}
	msg := r.r.Replace(err.Error())
	if msg == err.Error() {
		return err
	}
	return &scrubbed{msg: msg, err: err}
}
