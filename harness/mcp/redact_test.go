package mcp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

func TestRedactorHidesSecretsEverywhere(t *testing.T) {
	r := newRedactor([]string{"sk-supersecret-42", `pa"ss\word`, "on"})
	out := r.output(tool.Output{
		Text:       "token sk-supersecret-42 and on",
		Structured: json.RawMessage(`{"a":"sk-supersecret-42","b":"pa\"ss\\word"}`),
	})
	if out.Text != "token [redacted] and on" {
		t.Errorf("Text = %q (short values like \"on\" stay)", out.Text)
	}
	if string(out.Structured) != `{"a":"[redacted]","b":"[redacted]"}` || !json.Valid(out.Structured) {
		t.Errorf("Structured = %s", out.Structured)
	}
	base := errors.New("exited; stderr: auth failed for sk-supersecret-42")
	err := r.err(base)
	if strings.Contains(err.Error(), "supersecret") || !errors.Is(err, base) {
		t.Errorf("err = %v (Is base: %v)", err, errors.Is(err, base))
	}
	te := r.err(&tool.ToolError{Code: "x", Message: "bad key sk-supersecret-42"})
	var got *tool.ToolError
	if !errors.As(te, &got) || strings.Contains(got.Message, "supersecret") {
		t.Errorf("tool error = %v", te)
	}
	if (redactor{}).text("sk-supersecret-42") != "sk-supersecret-42" {
		t.Error("the zero redactor changed text")
	}
}

func TestRedactorTailCutInsideASecret(t *testing.T) {
	r := newRedactor([]string{"sk-SUPERSECRET-0123456789"})
	got := r.tail("…UPERSECRET-0123456789YYYY")
	if strings.Contains(got, "SECRET") || !strings.HasSuffix(got, "YYYY") {
		t.Fatalf("tail = %q", got)
	}
	long := strings.Repeat("y", 10<<10)
	if s := stderrSuffix(long); len(s) > maxStderrInError+32 {
		t.Fatalf("stderrSuffix of 10 KB is %d bytes", len(s))
	}
}
