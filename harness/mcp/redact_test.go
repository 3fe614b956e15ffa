package mcp

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
)

func TestRedactorHidesSecretsEverywhere(t *testing.T) {
	r := newRedactor([]string{"sk-supersecret-42", `pa"ss\word`, "on"})
	out, raw := normalize(&sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: "token sk-supersecret-42 and on"}},
		StructuredContent: map[string]any{"a": "sk-supersecret-42", "b": `pa"ss\word`},
	}, r)
	if !strings.Contains(string(raw), "sk-supersecret-42") {
		t.Errorf("the structuredContent for the outputSchema check = %s, want it as sent", raw)
	}
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

// What the model reads (Text) and each block (Content) lose a secret the
// server split across text blocks, also around an image; the blocks keep
// their order and kinds.
func TestNormalizeRedactsASplitSecret(t *testing.T) {
	const secret = "sk-SPLIT-0123456789"
	r := newRedactor([]string{secret})
	text := func(s string) *sdk.TextContent { return &sdk.TextContent{Text: s} }
	out, _ := normalize(&sdk.CallToolResult{Content: []sdk.Content{
		text("token: sk-SPL"), text("IT-0123"), &sdk.ImageContent{MIMEType: "image/png", Data: mcptest.PNG}, text("456789, done"),
		&sdk.ResourceLink{URI: "file:///r", Name: "r"}, text("after the link"),
	}}, r)
	if strings.Contains(out.Text, "SPL") || strings.Contains(out.Text, "456789") {
		t.Errorf("the model reads %q", out.Text)
	}
	want := []string{"token: [redacted]", "[redacted]", "", "[redacted], done", "", "after the link"}
	if len(out.Content) != len(want) {
		t.Fatalf("blocks = %+v", out.Content)
	}
	for i, b := range out.Content {
		if b.Text != want[i] {
			t.Errorf("block %d (%s) = %q, want %q", i, b.Type, b.Text, want[i])
		}
	}
	if out.Content[2].Type != tool.BlockImage || out.Content[4].Type != tool.BlockResourceLink {
		t.Errorf("blocks = %+v", out.Content)
	}
}

// A secret that is the start of another (in configuration order, the
// shorter first) leaves no tail of the longer one in a result, as written,
// JSON-escaped in structuredContent or base64-encoded (internal/redact).
func TestRedactorPrefixSecrets(t *testing.T) {
	r := newRedactor([]string{"sk-abc", "sk-abcdef123"})
	out, _ := normalize(&sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: "keys sk-abcdef123 c2stYWJjZGVmMTIz sk-abc"}},
		StructuredContent: map[string]any{"a": "sk-abcdef123"},
	}, r)
	if out.Text != "keys [redacted] [redacted] [redacted]" {
		t.Errorf("Text = %q", out.Text)
	}
	if string(out.Structured) != `{"a":"[redacted]"}` {
		t.Errorf("Structured = %s", out.Structured)
	}
}
