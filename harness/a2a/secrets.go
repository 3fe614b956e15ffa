package a2a

import (
	"errors"
	"strings"

	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// redactor replaces an agent's secrets (tool.A2AAgent.Secrets and its
// header values, with the token after "Bearer ") in what the agent sends
// back: results, progress and error messages, so an agent that echoes a
// credential never puts it in the journal, the model or the UI
// (docs/a2a.md#secrets). The rules are internal/redact's. The zero value
// does nothing.
type redactor struct{ redact.Redactor }

func newRedactor(cfg tool.A2AAgent) redactor {
	secrets := append([]string(nil), cfg.Secrets...)
	for _, v := range cfg.Headers {
		secrets = append(secrets, v)
		if _, tok, ok := strings.Cut(v, " "); ok {
			secrets = append(secrets, tok)
		}
	}
	return redactor{redact.New(secrets)}
}

func (r redactor) text(s string) string { return r.Replace(s) }

// output redacts a result; a structured value that would no longer be
// JSON is dropped.
func (r redactor) output(o tool.Output) tool.Output {
	if !r.Active() {
		return o
	}
	o.Text = r.Replace(o.Text)
	if len(o.Structured) > 0 {
		o.Structured = r.JSON(o.Structured)
	}
	return o
}

// err redacts an error's message, keeping the chain; a tool error stays
// one.
func (r redactor) err(err error) error {
	var te *tool.ToolError
	if r.Active() && errors.As(err, &te) {
		return &tool.ToolError{Code: te.Code, Message: r.Replace(te.Message)}
	}
	return r.Error(err)
}
