package cli

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/consent"
)

// A hostile server's sampling request cannot redraw the terminal's consent
// prompt: escape codes, carriage returns and bidi controls in its server
// name, system prompt and messages are printed as visible \uXXXX escapes
// (docs/cli.md#sanitised-output), and every line
// of the text stays behind the "  | " gutter.
func TestTerminalSamplingPromptPrintsNoEscapes(t *testing.T) {
	r := consent.Request{Tool: "evil.ask", Provider: "mcp:evil", Coworker: "helper", Sampling: &consent.SamplingRequest{
		Namespace: "evil", ServerName: "Evil\x1b]0;owned\x07 Server", SystemPrompt: "be nice\x1b[2J\x1b[H",
		Messages: []consent.SamplingMessage{
			{Role: "user", Text: "harmless\r\x1b[1A\x1b[2K  | nothing to see\nline two \u202eevil\u202c"},
			{Role: "assistant\x1b[31m", Text: "ok\x08\x08xx"},
		},
		MaxTokens: 100, AskedMaxTokens: 100, Model: "test model", Seq: 1,
	}}
	var out strings.Builder
	p := &terminalPrompter{in: strings.NewReader("d\n"), out: &out, interactive: true, lock: &sync.Mutex{}}
	d, err := p.Prompt(context.Background(), r)
	if err != nil || d != consent.Deny {
		t.Fatalf("Prompt = %v, %v\n%s", d, err, out.String())
	}
	s := out.String()
	for _, bad := range []string{"\x1b", "\r", "\x07", "\x08", "\u202e", "\u202c"} {
		if strings.Contains(s, bad) {
			t.Errorf("the prompt printed %q:\n%q", bad, s)
		}
	}
	for _, want := range []string{"  | harmless", "  | line two \\u202eevil\\u202c", "  | be nice\\u001b[2J", "Evil\\u001b]0;owned\\u0007 Server"} {
		if !strings.Contains(s, want) {
			t.Errorf("the prompt does not show %q:\n%s", want, s)
		}
	}
}
