package cli_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// longTool is a 70-byte tool name: its alias "names__<it>" (77 bytes) is
// within the 80-byte bound of names but over the 64 bytes models take.
var longTool = "read_" + strings.Repeat("very_", 11) + "long_names"

// namesFolder serves an MCP provider "names" over streamable HTTP on
// 127.0.0.1 listing ok_tool and longTool, and writes a servers.json for it
// and two bundles: "whole" selects the whole provider (version 1),
// "picky" selects longTool by name (version 2).
func namesFolder(t *testing.T) (coworkers, servers string) {
	t.Helper()
	srv := sdk.NewServer(&sdk.Implementation{Name: "names", Version: "1.0.0"}, nil)
	for _, name := range []string{"ok_tool", longTool} {
		sdk.AddTool(srv, &sdk.Tool{Name: name, Description: "answers with its name", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "I am " + name}}}, nil, nil
			})
	}
	hs := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	dir := t.TempDir()
	servers = filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {"names": {"transport": "streamable_http", "url": "`+hs.URL+`"}}}`)
	coworkers = filepath.Join(dir, "coworkers")
	for id, tools := range map[string]string{
		"whole": `{"version": 1, "mcp": ["names"]}`,
		"picky": "{\"version\": 2, \"mcp\": {\"names\": [\n  \"" + longTool + "\"]}}",
	} {
		cw := filepath.Join(coworkers, id, "coworker")
		if err := os.MkdirAll(cw, 0o755); err != nil {
			t.Fatal(err)
		}
		write(t, filepath.Join(cw, "manifest.md"), "---\nid: "+id+"\nname: "+id+"\nversion: 1.0.0\n---\nUse your tools.\n")
		write(t, filepath.Join(cw, "tools.json"), tools)
	}
	return coworkers, servers
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// openworker runs the binary and returns its stdout, stderr and exit code.
func openworker(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = binEnv(t)
	var out, errOut strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatal(err)
	}
	return out.String(), errOut.String(), code
}

// TestCheckAppliesTheNameRule: `openworker check` names the rule it
// applied (the shared one without --provider, the provider's with it),
// lists the whole provider's good tool and warns about the 70-byte one,
// and reports the explicit selection of it broken at tools.json:2:3.
func TestCheckAppliesTheNameRule(t *testing.T) {
	coworkers, servers := namesFolder(t)
	picky := filepath.Join(coworkers, "picky", "coworker", "tools.json")
	whole := filepath.Join(coworkers, "whole", "coworker", "tools.json")
	for _, tc := range []struct {
		provider, rule, who string
	}{
		{"", "the rule both model providers (openai, anthropic) share; no model provider is configured", "the model providers (openai, anthropic)"},
		{"anthropic", "the rule of the anthropic model provider", "the anthropic provider"},
	} {
		args := []string{"check", "--coworkers", coworkers, "--servers", servers}
		if tc.provider != "" {
			args = append(args, "--provider", tc.provider)
		}
		out, errOut, code := openworker(t, args...)
		if code != 2 {
			t.Errorf("%v: exit %d; want 2 (picky is broken); stderr %s", args, code, errOut)
		}
		for _, want := range []string{
			"names   tool aliases must match " + model.ToolNamePattern + ", " + tc.rule + "\n",
			"ok      whole",
			"names.ok_tool",
			"warning: " + whole + `:1:24: coworker "whole" leaves out "names.` + longTool + `" of MCP provider "names": tool alias "names__` + longTool + `" is not accepted by ` + tc.who + ": it is 77 bytes long, more than 64",
			"broken  picky\n          " + picky + `:2:3: coworker "picky" selects "names.` + longTool + `"`,
			"fix: remove the name from tools.json",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: output does not hold %q:\n%s", args, want, out)
			}
		}
		if strings.Contains(out, "names__ok_tool; calls go to") {
			t.Errorf("a provider on 127.0.0.1 is reported remote:\n%s", out)
		}
	}
	// --json carries the same.
	out, _, _ := openworker(t, "check", "--coworkers", coworkers, "--servers", servers, "--json")
	var rep struct {
		NameRule string `json:"name_rule"`
		OK       []struct {
			ID    string
			Tools []struct{ Name, Placement string }
			Left  []struct{ Tool, Message string } `json:"left_out"`
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("--json: %v\n%s", err, out)
	}
	if len(rep.OK) != 1 || len(rep.OK[0].Tools) != 1 || rep.OK[0].Tools[0].Placement != "on this computer" ||
		len(rep.OK[0].Left) != 1 || rep.OK[0].Left[0].Tool != "names."+longTool || rep.NameRule == "" {
		t.Errorf("--json report = %+v", rep)
	}
	if _, errOut, code := openworker(t, "check", "--coworkers", coworkers, "--provider", "gemini"); code != 2 || !strings.Contains(errOut, `--provider "gemini": use openai or anthropic`) {
		t.Errorf("--provider gemini: exit %d, stderr %q", code, errOut)
	}
}

// TestRunAgreesWithCheckOnNames: `openworker run` refuses the coworker
// check reported broken, with the same message, and runs the one check
// listed with its good tool only, journaling the warning about the tool
// left out (`journal show` prints it).
func TestRunAgreesWithCheckOnNames(t *testing.T) {
	coworkers, servers := namesFolder(t)
	checkOut, _, _ := openworker(t, "check", "--coworkers", coworkers, "--servers", servers, "--provider", "openai")
	db := filepath.Join(t.TempDir(), "journal.db")
	srv := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "names__ok_tool", Arguments: `{}`}}},
		modeltest.Reply{Text: "done"})
	run := func(coworker string) (string, int) {
		_, errOut, code := openworker(t, "run", "--coworkers", coworkers, "--coworker", coworker, "--servers", servers, "--db", db,
			"--base-url", srv.URL, "--model", "test", "--approve", "bypass", "go")
		return errOut, code
	}
	errOut, code := run("picky")
	var refused string
	for _, line := range strings.Split(errOut, "\n") {
		if strings.Contains(line, "names."+longTool) {
			refused = strings.TrimSpace(strings.TrimPrefix(line, "openworker: "))
		}
	}
	if code != 2 || refused == "" || !strings.Contains(checkOut, "          "+refused+"\n") {
		t.Errorf("run picky: exit %d, stderr %q; want exit 2 with the line check printed:\n%s", code, errOut, checkOut)
	}
	if errOut, code := run("whole"); code != 0 || !strings.Contains(errOut, "✓ names.ok_tool succeeded") {
		t.Fatalf("run whole: exit %d, stderr %s", code, errOut)
	}
	if got := srv.Requests()[0].ToolNames(); len(got) != 1 || got[0] != "names__ok_tool" {
		t.Errorf("the model was offered %v; want only names__ok_tool", got)
	}
	show, _, _ := openworker(t, "journal", "show", "--db", db)
	if !strings.Contains(show, `warning  tool_left_out: `) || !strings.Contains(show, `leaves out "names.`+longTool+`"`) {
		t.Errorf("journal show does not print the warning:\n%s", show)
	}
}
