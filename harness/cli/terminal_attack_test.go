package cli_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/internal/termsafe"
)

// hostile is every C0 and C1 control, DEL, and real escape sequences: an
// OSC title change, a screen clear and cursor home, SGR 8 (conceal) left
// on, an OSC 52 clipboard write, the 8-bit CSI, bidi overrides and
// isolates, line separators, and a byte that is not UTF-8.
func hostile() string {
	var b strings.Builder
	for r := rune(0); r < 0x20; r++ {
		if r != '\n' && r != '\t' {
			b.WriteRune(r)
		}
	}
	b.WriteRune(0x7f)
	for r := rune(0x80); r < 0xa0; r++ {
		b.WriteRune(r)
	}
	b.WriteString("\x1b]0;owned title\x07\x1b[2J\x1b[H\x1b]52;c;cm0gLXJmIH4=\x07\u009b31m\u202eevil\u202c\u2066x\u2069\u2028\u200b\xff")
	b.WriteString("\nforged line: ✓ all good\x1b[8m")
	return b.String()
}

// TestNoEscapeReachesTheTerminal feeds hostile text through every
// command that prints what a model, a server, a tool or a file says: a
// model's reply (ending in SGR 8) and a tool name it invents, a server's
// tool error, a bundle's name and description and a tool's description,
// then `run`, `run --unattended` (which parks on an inbox item), `check`,
// `journal show`, `journal list`, `inbox list`, `inbox show` and `doctor`.
// Not one raw control character reaches stdout or stderr; the text is
// there, escaped (docs/cli.md#sanitised-output).
func TestNoEscapeReachesTheTerminal(t *testing.T) {
	evil := hostile()
	srv := sdk.NewServer(&sdk.Implementation{Name: "evil" + evil, Version: "1.0.0"}, nil)
	sdk.AddTool(srv, &sdk.Tool{Name: "fail", Description: "fails " + evil, Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{IsError: true, Content: []sdk.Content{&sdk.TextContent{Text: "server error " + evil}}}, nil, nil
		})
	sdk.AddTool(srv, &sdk.Tool{Name: "write", Description: "writes " + evil},
		func(context.Context, *sdk.CallToolRequest, struct {
			X string `json:"x"`
		}) (*sdk.CallToolResult, any, error) {
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "wrote"}}}, nil, nil
		})
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {"evil": {"transport": "streamable_http", "url": "`+hs.URL+`"}}}`)
	coworkers := filepath.Join(dir, "coworkers")
	cw := filepath.Join(coworkers, "evil", "coworker")
	if err := os.MkdirAll(cw, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(cw, "manifest.md"), "---\nid: evil\nname: Evil\nversion: 1.0.0\n---\nUse your tools.\n")
	write(t, filepath.Join(cw, "tools.json"), `{"version": 1, "mcp": ["evil"]}`)
	// A second bundle whose tools.json names a tool with escapes in it:
	// check reports it broken and quotes the name.
	bad := filepath.Join(coworkers, "bad", "coworker")
	if err := os.MkdirAll(bad, 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(bad, "manifest.md"), "---\nid: bad\nname: Bad\nversion: 1.0.0\n---\nUse your tools.\n")
	write(t, filepath.Join(bad, "tools.json"), `{"version": 2, "mcp": {"evil": ["x\u001b]0;t\u0007\u001b[2J\nforged ✓ \u202e"]}}`)
	db := filepath.Join(dir, "journal.db")

	args, _ := json.Marshal(map[string]string{"x": strings.ToValidUTF8(evil, "?")})
	invented := "made_up\x1b]0;x\x07\x1b[2J\nforged ✓"
	model := modeltest.NewOpenAI(t,
		modeltest.Reply{Text: "hello " + evil, ToolCalls: []model.ToolCall{
			{ID: "c1", Name: invented, Arguments: `{}`},
			{ID: "c2", Name: "evil__fail", Arguments: `{}`},
		}},
		modeltest.Reply{Text: "bye " + evil, Chunk: 1},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c3", Name: "evil__write", Arguments: string(args)}}},
	)
	runFlags := []string{"--coworkers", coworkers, "--coworker", "evil", "--servers", servers, "--db", db, "--base-url", model.URL, "--model", "test"}

	type step struct {
		name string
		args []string
		// shows is what the command must print, escaped, to prove the
		// hostile text reached it.
		shows []string
	}
	steps := []step{
		{"run", append(append([]string{"run"}, runFlags...), "--approve", "bypass", "go"), []string{`hello \u0000\u0001`, `\u001b]0;owned title\u0007`, `made_up\u001b]0;x\u0007\u001b[2J\u000aforged ✓`, `server error `, `bye `}},
		{"check", []string{"check", "--coworkers", coworkers, "--servers", servers}, []string{`\x1b]0;t\a\x1b[2J\nforged ✓ \u202e`}},
		{"check --json", []string{"check", "--coworkers", coworkers, "--servers", servers, "--json"}, nil},
		{"journal show", []string{"journal", "show", "--db", db}, []string{`server error \u0000\u0001`, `there is no tool "made_up\x1b]0;x\a`}},
		{"journal show --json", []string{"journal", "show", "--db", db, "--json"}, nil},
		{"run --unattended", append(append([]string{"run"}, runFlags...), "--approve", "ask", "--unattended", "write it"), nil},
		{"journal list", []string{"journal", "list", "--db", db}, nil},
		{"inbox list", []string{"inbox", "list", "--db", db}, []string{"evil.write"}},
		{"doctor", []string{"doctor", "--servers", servers, "--db", db}, nil},
	}
	for _, s := range steps {
		out, errOut, code := openworker(t, s.args...)
		t.Logf("%s: exit %d\nstdout:\n%s\nstderr:\n%s", s.name, code, out, errOut)
		for stream, text := range map[string]string{"stdout": out, "stderr": errOut} {
			if i := termsafe.FirstRaw(text, true); i >= 0 {
				t.Errorf("%s: %s holds a raw control character at byte %d: %q", s.name, stream, i, text[max(0, i-20):min(len(text), i+20)])
			}
		}
		for _, want := range s.shows {
			if !strings.Contains(out+errOut, want) {
				t.Errorf("%s: the output does not show %q", s.name, want)
			}
		}
		lines := out + errOut
		if s.name == "run" {
			lines = errOut // the reply on stdout keeps the model's own newlines
		}
		if strings.Contains(lines, "\nforged line") || strings.Contains(lines, "\nforged ✓") {
			t.Errorf("%s: a newline from a server or a model starts a line of its own", s.name)
		}
	}
}
