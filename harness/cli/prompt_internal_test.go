package cli

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/tool"
)

// TestPromptSaysWhereTheCallGoes: the terminal prompt names the placement
// of the call (docs/consent.md#placement): "on this computer", or the
// remote host, said to be one.
func TestPromptSaysWhereTheCallGoes(t *testing.T) {
	for placement, want := range map[string]string{
		tool.PlacementLocal: "Helper wants to run lights.switch on this computer (mcp:lights,",
		"mcp.example.com":   "Helper wants to run lights.switch on mcp.example.com (a remote host) (mcp:lights,",
	} {
		var out strings.Builder
		p := &terminalPrompter{in: strings.NewReader("o\n"), out: &out, interactive: true, lock: &sync.Mutex{}}
		d, err := p.Prompt(context.Background(), consent.Request{CoworkerName: "Helper", Tool: "lights.switch", Provider: "mcp:lights",
			Placement: placement, Classification: "External", Risk: "idempotent_write", Arguments: []byte(`{"on":true}`)})
		if err != nil || d != consent.AllowOnce {
			t.Fatalf("Prompt = %v, %v", d, err)
		}
		if !strings.Contains(out.String(), want) {
			t.Errorf("prompt for %q:\n%s\nwant it to say %q", placement, out.String(), want)
		}
	}
}

// TestPromptSaysTheViewAsks: a call asked by an app view says so
// (docs/mcp-apps.md#view-calls); a model's call has no such line.
func TestPromptSaysTheViewAsks(t *testing.T) {
	for origin, want := range map[string]string{"the app view of kit.show": "  from: the app view of kit.show (not the model)\n", "": ""} {
		var out strings.Builder
		p := &terminalPrompter{in: strings.NewReader("d\n"), out: &out, interactive: true, lock: &sync.Mutex{}}
		d, err := p.Prompt(context.Background(), consent.Request{CoworkerName: "Helper", Tool: "kit.bump", Provider: "mcp:kit",
			Placement: "127.0.0.1", Classification: "External", Risk: "non_idempotent_write", Arguments: []byte(`{}`), Origin: origin})
		if err != nil || d != consent.Deny {
			t.Fatalf("Prompt = %v, %v", d, err)
		}
		if got := strings.Contains(out.String(), "  from: "); got != (want != "") || want != "" && !strings.Contains(out.String(), want) {
			t.Errorf("prompt with origin %q:\n%s\nwant %q", origin, out.String(), want)
		}
	}
}
