package agentimport_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/agentimport"
	"github.com/openworker/desktop/harness/bundle"
)

// published holds files published by others at pinned commits, each
// folder with a NOTICE naming the repository, paths, commit and license
// (testdata/published/README.md).
var published = filepath.Join("testdata", "published")

// TestPublishedSources: each published agent, recipe, plugin and skill
// becomes a coworker that loads, with the tools it names mapped as
// docs/import-agents.md says (the registry here has the files provider)
// and the others left out with why; the sources are not changed.
func TestPublishedSources(t *testing.T) {
	type want struct {
		tools, unmapped, skills []string
	}
	cases := []struct {
		path  string
		kind  agentimport.Kind
		wants map[string]want // by coworker id
	}{
		{"voltagent-claude-code-subagents/agents", agentimport.KindClaudeAgent, map[string]want{
			"api-designer":                     {tools: []string{"files.file_read", "files.file_write", "files.file_edit", "files.files_search"}, unmapped: []string{"Bash"}},
			"compliance-auditor":               {tools: []string{"files.file_read", "files.files_search"}},
			"scientific-literature-researcher": {tools: []string{"files.file_read"}, unmapped: []string{"WebFetch", "WebSearch", "mcp__bgpt__search_papers"}},
			"visual-asset-generator":           {tools: []string{"files.file_read", "files.file_write"}, unmapped: []string{"Bash", "mcp__prompt-to-asset"}},
		}},
		{"awesome-copilot-agents/agents", agentimport.KindVSCodeAgent, map[string]want{
			"context-architect": {tools: []string{"files.file_read", "files.file_edit", "files.file_write"},
				unmapped: []string{"search/codebase", "search/usages", "read/problems", "execute/runInTerminal", "execute/getTerminalOutput", "web/fetch"}},
			"custom-agent-foundry": {tools: []string{"files.file_read", "files.file_edit", "files.file_write", "files.folder_make", "files.files_search", "files.files_list"},
				unmapped: []string{"vscode", "execute", "web", "agent", "github/*", "todo"}},
			"devils-advocate": {tools: []string{"files.file_read", "files.files_search", "files.files_list"}, unmapped: []string{"web"}},
		}},
		{"awesome-copilot-chatmodes/chatmodes", agentimport.KindVSCodeChatMode, map[string]want{
			"atlassian-requirements-to-jira": {unmapped: []string{"atlassian"}},
			"debug": {tools: []string{"files.file_edit", "files.file_write", "files.files_search", "files.files_list"},
				unmapped: []string{"runCommands", "usages", "problems", "testFailure", "fetch", "githubRepo", "runTests"}},
			"planner": {tools: []string{"files.files_search", "files.files_list"}, unmapped: []string{"codebase", "fetch", "findTestFiles", "githubRepo", "usages"}},
		}},
		{"goose-recipes", agentimport.KindGooseRecipe, map[string]want{
			"github-pr-code-review":  {unmapped: []string{"extension developer", "extension code_review"}},
			"github-pr-summarizer":   {unmapped: []string{"github", "summarizer"}},
			"technical-debt-tracker": {unmapped: []string{"extension developer"}},
		}},
		{"claude-plugins-official/feature-dev", agentimport.KindClaudeAgent, map[string]want{
			"code-architect": {tools: []string{"files.files_search", "files.files_list", "files.file_read"},
				unmapped: []string{"NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"}},
			"code-explorer": {tools: []string{"files.files_search", "files.files_list", "files.file_read"},
				unmapped: []string{"NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"}},
			"code-reviewer": {tools: []string{"files.files_search", "files.files_list", "files.file_read"},
				unmapped: []string{"NotebookRead", "WebFetch", "TodoWrite", "WebSearch", "KillShell", "BashOutput"}},
		}},
		{"claude-plugins-official/playground", agentimport.KindClaudePlugin, map[string]want{
			"playground": {skills: []string{"playground"}},
		}},
		{"superpowers-skills/executing-plans", agentimport.KindSkill, map[string]want{"executing-plans": {skills: []string{"executing-plans"}}}},
		{"superpowers-skills/verification-before-completion", agentimport.KindSkill, map[string]want{"verification-before-completion": {skills: []string{"verification-before-completion"}}}},
		{"superpowers-skills/requesting-code-review", agentimport.KindSkill, map[string]want{"requesting-code-review": {skills: []string{"requesting-code-review"}}}},
		{"anthropics-skills/skill-creator", agentimport.KindSkill, map[string]want{"skill-creator": {skills: []string{"skill-creator"}}}},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			src := filepath.Join(published, filepath.FromSlash(tc.path))
			before := snapshotTree(t, src)
			cw := t.TempDir()
			p := preview(t, []string{src}, agentimport.Options{Coworkers: cw, Catalog: registry, Servers: target(filepath.Join(t.TempDir(), "servers.json"))})
			if p.Refused() {
				t.Fatalf("refused: %q", p.Problems)
			}
			got := map[string]want{}
			for _, c := range p.Coworkers {
				if c.Kind != tc.kind {
					t.Errorf("%s is of kind %s, want %s", c.ID, c.Kind, tc.kind)
				}
				got[c.ID] = want{tools: c.Tools, unmapped: unmappedTools(c), skills: c.Skills}
				for _, u := range c.Unmapped {
					if u.Reason == "" {
						t.Errorf("%s: %s is left out without a reason", c.ID, u.Tool)
					}
				}
			}
			opt := cmp.Transformer("nilEmpty", func(s []string) []string {
				if len(s) == 0 {
					return nil
				}
				return s
			})
			if diff := cmp.Diff(tc.wants, got, cmp.AllowUnexported(want{}), opt); diff != "" {
				t.Errorf("coworkers (-want +got):\n%s", diff)
			}
			res, err := agentimport.Apply(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range res.Coworkers {
				b, err := bundle.Load(w.Dir)
				if err != nil {
					t.Errorf("%s does not load: %v", w.ID, err)
					continue
				}
				if len(b.Skills) != len(w.Skills) {
					t.Errorf("%s loads %d skills, want %d", w.ID, len(b.Skills), len(w.Skills))
				}
			}
			if diff := cmp.Diff(before, snapshotTree(t, src)); diff != "" {
				t.Errorf("the source changed (-before +after):\n%s", diff)
			}
		})
	}
}

// TestPublishedPluginServers: the example plugin's .mcp.json, which lists
// its server at its top, is added to the servers file, and both of its
// skills (license, allowed-tools and argument-hint in their front
// matter) are attached.
func TestPublishedPluginServers(t *testing.T) {
	src := filepath.Join(published, "claude-plugins-official", "example-plugin")
	sf := filepath.Join(t.TempDir(), "servers.json")
	p := preview(t, []string{src}, agentimport.Options{Coworkers: t.TempDir(), Catalog: registry, Servers: target(sf)})
	if p.Refused() || p.Servers == nil || len(p.Servers.Items) != 1 || p.Servers.Items[0].Namespace != "example-server" || p.Servers.Items[0].Transport != "streamable_http" {
		t.Fatalf("plan = %+v, servers %+v", p.Problems, p.Servers)
	}
	var skills []string
	for _, c := range p.Coworkers {
		skills = append(skills, c.Skills...)
	}
	notes := strings.Join(p.Sources[0].Notes, "\n")
	for _, s := range []string{"example-command", "example-skill"} {
		if !slices.Contains(skills, s) {
			t.Errorf("skill %s is not attached (its SKILL.md follows the Agent Skills specification, docs/bundles.md#skills); skills %q, notes:\n%s", s, skills, notes)
		}
	}
	if !strings.Contains(notes, "slash command /example-command") {
		t.Errorf("the plugin's command is not said:\n%s", notes)
	}
	if _, err := agentimport.Apply(p); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(sf); err != nil || !strings.Contains(string(data), `"url": "https://mcp.example.com/api"`) {
		t.Errorf("servers file = %s, %v", data, err)
	}
}

// TestPublishedInvalidRecipe: a published recipe that is not YAML is
// refused with its file and line, and nothing is written.
func TestPublishedInvalidRecipe(t *testing.T) {
	src := filepath.Join(published, "goose-recipes-invalid", "quick-note.yaml")
	p := preview(t, []string{src}, agentimport.Options{Coworkers: t.TempDir()})
	if len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0], src+":16: not valid YAML") {
		t.Errorf("problems = %q", p.Problems)
	}
}

// snapshotTree is the bytes of every file under dir, by path.
func snapshotTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && info.Mode().IsRegular() {
			data, _ := os.ReadFile(p)
			out[p] = string(data)
		}
		return nil
	})
	return out
}
