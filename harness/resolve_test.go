package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
)

func TestResolveErrorsNameTheFilePositionAndTheChoices(t *testing.T) {
	for _, tc := range []struct {
		selected string
		want     []string
	}{
		{"test.ech", []string{`namespace "test" is native and has no tool "ech"`, "its tools: test.echo"}},
		{"Test.echo", []string{`no native tool or MCP provider has the namespace "Test"`, "known namespaces: test"}},
	} {
		echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
		e := newEnv(t, envOpts{tools: []tool.Tool{echo}, selected: []string{tc.selected}})
		_, err := e.rt.NewSession(context.Background(), "tester", e.so)
		var re *harness.ResolveError
		if !errors.As(err, &re) {
			t.Fatalf("%s: NewSession = %v, want a ResolveError", tc.selected, err)
		}
		if filepath.Base(re.File) != "tools.json" || re.Line != 1 || re.Col < 2 {
			t.Errorf("%s: position %s:%d:%d, want tools.json:1:COL", tc.selected, re.File, re.Line, re.Col)
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", tc.selected, err, w)
			}
		}
	}
}

func TestPolicyForAToolOutsideAWholeProviderSelection(t *testing.T) {
	e := newEnv(t, envOpts{device: true, selected: []string{"device.battery_status_get"}})
	// Rewrite the bundle as v1 (every device tool) with a misspelled policy.
	cw := filepath.Join(e.dir, "coworkers", "tester", "coworker")
	writeFile(t, filepath.Join(cw, "tools.json"), `{"version":1,"mcp":["device"]}`)
	writeFile(t, filepath.Join(cw, "manifest.md"), "---\nid: tester\nname: T\npolicy:\n  device.system_info_gett: deny\n---\nHi.\n")
	_, err := e.rt.NewSession(context.Background(), "tester", e.so)
	var re *harness.ResolveError
	if !errors.As(err, &re) || re.Tool != "device.system_info_gett" || filepath.Base(re.File) != "manifest.md" {
		t.Fatalf("NewSession = %v, want a ResolveError for the policy in manifest.md", err)
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
