package harness_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// serveNamesEnv makes the test binary serve namesServer on stdio.
const serveNamesEnv = "OPENWORKER_TEST_SERVE_NAMES"

// longTool is a 70-byte remote tool name: "names.<it>" is 76 bytes, within
// tool.MaxNameBytes (80), and so is its alias "names__<it>" (77 bytes), but
// no model provider takes an alias over 64 bytes.
var longTool = "read_" + strings.Repeat("very_", 11) + "long_names"

func serveNames() {
	s := sdk.NewServer(&sdk.Implementation{Name: "names", Version: "1.0.0"}, nil)
	for _, name := range []string{"ok_tool", longTool} {
		sdk.AddTool(s, &sdk.Tool{Name: name, Description: "answers with its name", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "I am " + name}}}, nil, nil
			})
	}
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// namesMCP is this test binary serving namesServer as provider "names".
func namesMCP(t *testing.T) tool.MCPServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return tool.MCPServer{Namespace: "names", Program: exe, Env: map[string]string{serveNamesEnv: "1", "GORACE": "atexit_sleep_ms=0"}}
}

func TestLongToolNameIsSeventyBytes(t *testing.T) {
	if len(longTool) != 70 || len(tool.Alias("names."+longTool)) != 77 {
		t.Fatalf("longTool is %d bytes (alias %d); the tests below assume 70 (77)", len(longTool), len(tool.Alias("names."+longTool)))
	}
}

// TestWholeProviderLeavesOutANameTheModelCannotTake: a version-1 bundle
// (every tool of a provider) whose provider lists a 70-byte tool name
// resolves with the good tool only. Check reports the left-out tool with a
// warning naming it, the rule and where the provider stands in tools.json;
// a session offers the model only the good tool, journals the same warning
// (code tool_left_out, the tool's name) and calls the good tool.
func TestWholeProviderLeavesOutANameTheModelCannotTake(t *testing.T) {
	e := newEnv(t, envOpts{
		servers: []tool.MCPServer{namesMCP(t)},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "names__ok_tool", `{}`)}},
			{Text: "done"},
		},
	})
	toolsJSON := filepath.Join(e.bundles, "tester", "coworker", "tools.json")
	writeFile(t, toolsJSON, "{\"version\": 1,\n  \"mcp\": [\"names\"]}")

	rep, err := e.rt.Check(context.Background(), e.bundles, e.provider)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.OK) != 1 || len(rep.Broken) != 0 {
		t.Fatalf("Check = %+v; want tester ok", rep)
	}
	ok := rep.OK[0]
	if len(ok.Tools) != 1 || ok.Tools[0].Name != "names.ok_tool" || ok.Tools[0].Placement != tool.PlacementLocal {
		t.Errorf("tools = %+v; want only names.ok_tool, on this computer", ok.Tools)
	}
	if len(ok.LeftOut) != 1 {
		t.Fatalf("left out = %+v; want the 70-byte tool", ok.LeftOut)
	}
	lo := ok.LeftOut[0]
	wantAt := toolsJSON + ":2:11: "
	for _, want := range []string{wantAt, `"names.` + longTool + `"`, model.ToolNamePattern, "77 bytes long, more than 64", "openai"} {
		if !strings.Contains(lo.Message, want) {
			t.Errorf("warning %q does not say %q", lo.Message, want)
		}
	}
	if lo.Tool != "names."+longTool || lo.Provider != "mcp:names" || lo.Line != 2 || lo.Col != 11 || lo.File != toolsJSON {
		t.Errorf("left out = %+v", lo)
	}

	s, res, err := e.send("go")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	if offered := e.model.Requests()[0].ToolNames(); len(offered) != 1 || offered[0] != "names__ok_tool" {
		t.Errorf("the model was offered %v; want only names__ok_tool", offered)
	}
	if invs := e.invocations(s.ID()); len(invs) != 1 || invs[0].Status != harness.StatusSucceeded || invs[0].Tool != "names.ok_tool" {
		t.Errorf("invocations = %+v; want names.ok_tool succeeded", invs)
	}
	var journaled []string
	for _, w := range e.warnings(s.ID()) {
		if w.Code == harness.CodeToolLeftOut {
			if w.Tool != "names."+longTool || w.TurnID != "" {
				t.Errorf("journaled warning = %+v; want the tool named and no turn (it is the session's)", w)
			}
			journaled = append(journaled, w.Message)
		}
	}
	if len(journaled) != 1 || journaled[0] != lo.Message {
		t.Errorf("journaled tool_left_out warnings = %q; want exactly the one Check reported, %q", journaled, lo.Message)
	}
}

// TestExplicitSelectionOfANameTheModelCannotTake: a version-2 or -3
// selection that names the 70-byte tool is an error at tools.json:L:C,
// with the rule and the fix; Check reports exactly what NewSession
// refuses, for either model provider and for the shared rule.
func TestExplicitSelectionOfANameTheModelCannotTake(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		line, col  int
	}{
		{"v2", "{\"version\": 2, \"mcp\": {\n  \"names\": [\"ok_tool\",\n    \"" + longTool + "\"]}}", 3, 5},
		{"v3", "{\"version\": 3, \"tools\": [\"names.ok_tool\", \"names." + longTool + "\"]}", 1, 43},
	} {
		for _, anthropic := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s anthropic=%v", tc.name, anthropic), func(t *testing.T) {
				e := newEnv(t, envOpts{servers: []tool.MCPServer{namesMCP(t)}, anthropic: anthropic})
				toolsJSON := filepath.Join(e.bundles, "tester", "coworker", "tools.json")
				writeFile(t, toolsJSON, tc.body)
				rep, err := e.rt.Check(context.Background(), e.bundles, e.provider)
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.OK) != 0 || len(rep.Broken) != 1 {
					t.Fatalf("Check = %+v; want tester broken", rep)
				}
				b := rep.Broken[0]
				at := fmt.Sprintf("%s:%d:%d: ", toolsJSON, tc.line, tc.col)
				if !strings.HasPrefix(b.Message, at) || b.File != toolsJSON || b.Line != tc.line || b.Col != tc.col {
					t.Errorf("broken = %+v; want it at %s", b, at)
				}
				for _, want := range []string{"names." + longTool, model.ToolNamePattern, e.provider.Name()} {
					if !strings.Contains(b.Message, want) {
						t.Errorf("message %q does not say %q", b.Message, want)
					}
				}
				if !strings.Contains(b.Fix, "remove the name from tools.json") {
					t.Errorf("fix = %q; want the name removed", b.Fix)
				}
				// run: NewSession refuses with the same error.
				_, err = e.rt.NewSession(context.Background(), "tester", e.so)
				var re *harness.ResolveError
				if !errors.As(err, &re) || err.Error() != b.Message {
					t.Errorf("NewSession = %v;\nCheck said   %s", err, b.Message)
				}
				// The shared rule (no provider configured) agrees.
				shared, err := e.rt.Check(context.Background(), e.bundles, nil)
				if err != nil || len(shared.Broken) != 1 || !strings.Contains(shared.NameRule, "no model provider is configured") ||
					!strings.Contains(shared.Broken[0].Message, "not accepted by the model providers (openai, anthropic)") {
					t.Errorf("Check with the shared rule = %+v, %v", shared, err)
				}
			})
		}
	}
}

// TestCheckAgreesWithRunOnNativeNames: a native tool may be registered
// under a name of up to 80 bytes, but an alias over 64 is refused by
// NewSession; Check says so too, under the provider's rule and the shared
// one, and its report names the rule it applied.
func TestCheckAgreesWithRunOnNativeNames(t *testing.T) {
	long := "test." + strings.Repeat("x", 62) // 67 bytes; its alias 68
	e := newEnv(t, envOpts{tools: []tool.Tool{&testTool{name: long, risk: tool.ReadOnly}}, selected: []string{long}})
	_, runErr := e.rt.NewSession(context.Background(), "tester", e.so)
	if runErr == nil {
		t.Fatal("NewSession accepted a 68-byte alias")
	}
	for _, rule := range []model.NameRule{e.provider, nil} {
		rep, err := e.rt.Check(context.Background(), e.bundles, rule)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Broken) != 1 || !strings.Contains(rep.Broken[0].Message, "68 bytes long, more than 64") {
			t.Errorf("Check(%v) = %+v; want tester broken over the 68-byte alias (run said: %v)", rule, rep, runErr)
		}
	}
	rep, _ := e.rt.Check(context.Background(), e.bundles, e.provider)
	if want := "the rule of the openai model provider"; !strings.Contains(rep.NameRule, want) || !strings.Contains(rep.NameRule, model.ToolNamePattern) {
		t.Errorf("NameRule = %q; want %q and the pattern", rep.NameRule, want)
	}
	if rep.Broken[0].Message != runErr.Error() {
		t.Errorf("Check says %q, run says %q", rep.Broken[0].Message, runErr)
	}
}

// TestPolicyForALeftOutTool: a manifest policy naming a tool that was
// left out says so, instead of calling the name misspelled.
func TestPolicyForALeftOutTool(t *testing.T) {
	e := newEnv(t, envOpts{servers: []tool.MCPServer{namesMCP(t)}})
	cw := filepath.Join(e.bundles, "tester", "coworker")
	writeFile(t, filepath.Join(cw, "tools.json"), `{"version":1,"mcp":["names"]}`)
	writeFile(t, filepath.Join(cw, "manifest.md"), "---\nid: tester\nname: T\npolicy:\n  names."+longTool+": allow\n---\nHi.\n")
	_, err := e.rt.NewSession(context.Background(), "tester", e.so)
	if err == nil || !strings.Contains(err.Error(), "it was left out of the selection") || !strings.Contains(err.Error(), "more than 64") {
		t.Errorf("NewSession = %v; want the policy refused because its tool was left out", err)
	}
}
