package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// published is the test data of real published agents and skills
// (harness/agentimport/testdata/published/README.md).
const published = "../harness/agentimport/testdata/published"

// TestAgentImportPreviewThenApply: a Claude Code subagent and a skill
// folder previewed write nothing; applied by the preview's token, they are
// two new coworkers in the folder's list (and EventCoworkersChanged); the
// token is good once, and an unknown one is refused.
func TestAgentImportPreviewThenApply(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	agent, _ := filepath.Abs(filepath.Join(published, "voltagent-claude-code-subagents/agents/compliance-auditor.md"))
	skill, _ := filepath.Abs(filepath.Join(published, "anthropics-skills/skill-creator"))
	before, err := os.ReadDir(e.bundles)
	if err != nil {
		t.Fatal(err)
	}
	p, err := e.app.Coworkers.PreviewAgentImport([]string{agent, skill})
	if err != nil {
		t.Fatal(err)
	}
	if p.Token == "" || p.Plan == nil || p.Plan.Refused() || len(p.Plan.Coworkers) != 2 {
		t.Fatalf("preview = %+v", p)
	}
	if c := p.Plan.Coworkers[0]; c.ID != "compliance-auditor" || c.Kind != "claude-code-agent" {
		t.Fatalf("first coworker = %+v", c)
	}
	if c := p.Plan.Coworkers[1]; len(c.Skills) != 1 || c.Skills[0] != "skill-creator" {
		t.Fatalf("second coworker = %+v", c)
	}
	after, _ := os.ReadDir(e.bundles)
	if len(after) != len(before) {
		t.Fatalf("the preview wrote into the coworkers folder: %d entries, were %d", len(after), len(before))
	}
	res, err := e.app.Coworkers.ApplyAgentImport(p.Token)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Written.Coworkers) != 2 {
		t.Fatalf("written = %+v", res.Written)
	}
	ids := map[string]bool{}
	for _, c := range res.List.Coworkers {
		ids[c.ID] = true
	}
	for _, w := range res.Written.Coworkers {
		if !ids[w.ID] {
			t.Fatalf("%s is not in the list after the import: %+v (broken %+v)", w.ID, res.List.Coworkers, res.List.Broken)
		}
	}
	l := e.rec.waitFor(t, EventCoworkersChanged, func(v any) bool {
		for _, c := range v.(CoworkerList).Coworkers {
			if c.ID == "compliance-auditor" {
				return true
			}
		}
		return false
	}).(CoworkerList)
	if len(l.Coworkers) == 0 {
		t.Fatal("no coworkers listed")
	}
	if _, err := e.app.Coworkers.ApplyAgentImport(p.Token); err == nil || !strings.Contains(err.Error(), "no longer kept") {
		t.Fatalf("second apply of one token: %v", err)
	}
	if _, err := e.app.Coworkers.ApplyAgentImport("made-up"); err == nil {
		t.Fatal("an unknown token applied")
	}
}

// TestAgentImportRefusedWritesNothing: a plan with a problem (a recipe
// that is not YAML, named itself) is shown, and applying it is refused
// with nothing written.
func TestAgentImportRefusedWritesNothing(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	bad := filepath.Join(t.TempDir(), "quick-note.yaml")
	if err := os.WriteFile(bad, []byte("title: x\ninstructions: a: b: c\n  - [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadDir(e.bundles)
	p, err := e.app.Coworkers.PreviewAgentImport([]string{bad})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Plan.Refused() {
		t.Fatalf("plan not refused: %+v", p.Plan)
	}
	if _, err := e.app.Coworkers.ApplyAgentImport(p.Token); err == nil {
		t.Fatal("a refused plan applied")
	}
	after, _ := os.ReadDir(e.bundles)
	if len(after) != len(before) {
		t.Fatalf("a refused import wrote: %d entries, were %d", len(after), len(before))
	}
	if _, err := e.app.Coworkers.PreviewAgentImport(nil); err == nil {
		t.Fatal("no paths previewed")
	}
}

// TestAgentImportAddsServers: a Claude Code plugin's .mcp.json server is
// planned into the app's servers file, written with the coworkers, and
// settings then use that file (saved too), as Import MCP servers… does.
func TestAgentImportAddsServers(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	plugin, _ := filepath.Abs(filepath.Join(published, "claude-plugins-official/example-plugin"))
	p, err := e.app.Coworkers.PreviewAgentImport([]string{plugin})
	if err != nil {
		t.Fatal(err)
	}
	if p.Plan.Refused() || p.Plan.Servers == nil || p.Plan.Servers.Added() != 1 {
		t.Fatalf("plan = %+v (servers %+v)", p.Plan, p.Plan.Servers)
	}
	dest := p.Plan.Servers.Dest
	if _, err := os.Stat(dest); err == nil {
		t.Fatalf("the preview wrote %s", dest)
	}
	res, err := e.app.Coworkers.ApplyAgentImport(p.Token)
	if err != nil {
		t.Fatal(err)
	}
	if res.Written.ServersAdded != 1 || res.Written.ServersFile != dest {
		t.Fatalf("written = %+v, want 1 server in %s", res.Written, dest)
	}
	data, err := os.ReadFile(dest)
	if err != nil || !strings.Contains(string(data), "https://mcp.example.com/api") {
		t.Fatalf("servers file %s: %s %v", dest, data, err)
	}
	if got := e.app.settings.get().ServersPath; got != dest {
		t.Fatalf("settings use %q, want %q", got, dest)
	}
	saved, err := os.ReadFile(e.app.paths.Settings)
	destJSON, _ := json.Marshal(dest) // as the settings file spells it (Windows: escaped backslashes)
	if err != nil || !strings.Contains(string(saved), string(destJSON)) {
		t.Fatalf("saved settings do not name %s: %s %v", dest, saved, err)
	}
}
