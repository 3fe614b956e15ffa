package agentimport_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/agentimport"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// fakeCatalog is a registry view: namespace → its tools (nil: an MCP
// provider, whose tools are listed when it starts).
type fakeCatalog map[string][]string

func (f fakeCatalog) Provider(ns string) ([]string, bool) {
	t, ok := f[ns]
	return slices.Clone(t), ok
}

// registry is the catalog of most tests: the files and device MCP
// providers and the native notification tools.
var registry = fakeCatalog{"files": nil, "device": nil, "notification": {"notification.show"}}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// serversFile writes a servers.json with a github server and returns it.
func serversFile(t *testing.T) string {
	return write(t, filepath.Join(t.TempDir(), "servers.json"), `{"servers": {"github": {"transport": "stdio", "command": "github-mcp"}}}`+"\n")
}

func target(file string) *agentimport.ServersTarget {
	return &agentimport.ServersTarget{Current: file, Dest: file, Taken: map[string]string{"device": "the built-in MCP provider \"device\"", "files": "the built-in MCP provider \"files\""}}
}

func preview(t *testing.T, paths []string, opts agentimport.Options) *agentimport.Plan {
	t.Helper()
	p, err := agentimport.Preview(paths, &opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func unmappedTools(c *agentimport.Coworker) []string {
	var out []string
	for _, u := range c.Unmapped {
		out = append(out, u.Tool)
	}
	return out
}

func ignoredFields(c *agentimport.Coworker) []string {
	var out []string
	for _, ig := range c.Ignored {
		out = append(out, ig.Field)
	}
	return out
}

func reason(c *agentimport.Coworker, tool string) string {
	for _, u := range c.Unmapped {
		if u.Tool == tool {
			return u.Reason
		}
	}
	return ""
}

// TestPreviewClaudeAgent: a Claude Code subagent's file tools map to the
// files provider, mcp__server__tool to the servers file's server, and
// everything else is left out with why; unknown fields are ignored with
// their lines; a full model id is kept.
func TestPreviewClaudeAgent(t *testing.T) {
	dir := t.TempDir()
	src := write(t, filepath.Join(dir, ".claude", "agents", "reviewer.md"), `---
name: code-reviewer
description: Reviews code for quality and security.
tools: Read, Grep, Glob, Write, Edit, MultiEdit, LS, Bash(git diff:*), Read(./src/**), mcp__github__create_issue, mcp__github, mcp__jira__search, WebFetch, Frobnicate
model: claude-sonnet-4-5
color: blue
permissionMode: acceptEdits
---
You are a senior code reviewer.
`)
	p := preview(t, []string{src}, agentimport.Options{Coworkers: filepath.Join(dir, "coworkers"), Catalog: registry, Servers: target(serversFile(t))})
	if p.Refused() || len(p.Coworkers) != 1 {
		t.Fatalf("plan = %+v", p)
	}
	c := p.Coworkers[0]
	if c.ID != "code-reviewer" || c.Name != "code-reviewer" || c.Description != "Reviews code for quality and security." || c.Kind != agentimport.KindClaudeAgent ||
		c.Instructions != "You are a senior code reviewer." || c.Model != "claude-sonnet-4-5" {
		t.Errorf("coworker = %+v", c)
	}
	if diff := cmp.Diff([]string{"files.file_read", "files.files_search", "files.file_write", "files.file_edit", "files.files_list", "github.create_issue"}, c.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"Bash(git diff:*)", "mcp__github", "mcp__jira__search", "WebFetch", "Frobnicate"}, unmappedTools(c)); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
	for tool, want := range map[string]string{
		"Bash(git diff:*)":  "OpenWorker has no shell tool",
		"mcp__github":       `it grants every tool of provider "github"`,
		"mcp__jira__search": `there is no server "jira" in this OpenWorker or its servers file`,
		"Frobnicate":        `"Frobnicate" is not a Claude Code tool OpenWorker knows`,
	} {
		if got := reason(c, tool); !strings.Contains(got, want) {
			t.Errorf("reason for %s = %q, want it to hold %q", tool, got, want)
		}
	}
	for _, m := range c.Mapped {
		if m.Verified {
			t.Errorf("%s → %v is verified, but MCP providers list their tools only when they start", m.From, m.To)
		}
		if m.From == "Read(./src/**)" && !strings.Contains(m.Note, "its rule (./src/**) is not carried over") {
			t.Errorf("note of %s = %q", m.From, m.Note)
		}
	}
	if diff := cmp.Diff([]string{"color", "permissionMode"}, ignoredFields(c)); diff != "" {
		t.Errorf("ignored (-want +got):\n%s", diff)
	}
	if c.Ignored[0].Line != 6 {
		t.Errorf("color is ignored at line %d, want 6", c.Ignored[0].Line)
	}

	// The JSON a UI or --dry-run --json shows holds, per coworker, the
	// fields the issue names.
	data, _ := json.Marshal(p)
	var shape struct {
		Coworkers []map[string]json.RawMessage `json:"coworkers"`
	}
	json.Unmarshal(data, &shape)
	for _, k := range []string{"id", "name", "description", "tools", "unmapped", "skills"} {
		if _, ok := shape.Coworkers[0][k]; !ok {
			t.Errorf("the plan's JSON has no %q per coworker: %s", k, data)
		}
	}
}

// TestPreviewWithoutRegistry: with no catalog every name maps by its
// form, marked not verified; a subagent without tools gets none.
func TestPreviewWithoutRegistry(t *testing.T) {
	dir := t.TempDir()
	a := write(t, filepath.Join(dir, "a.md"), "---\nname: a\ndescription: d\ntools: [Read, mcp__web__fetch]\nmodel: sonnet\n---\nBody.\n")
	b := write(t, filepath.Join(dir, "b.md"), "---\nname: b\ndescription: every tool\n---\n")
	p := preview(t, []string{a, b}, agentimport.Options{Coworkers: filepath.Join(dir, "cw")})
	if p.Refused() || len(p.Coworkers) != 2 {
		t.Fatalf("plan = %+v", p)
	}
	ca, cb := p.Coworkers[0], p.Coworkers[1]
	if diff := cmp.Diff([]string{"files.file_read", "web.fetch"}, ca.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, m := range ca.Mapped {
		if m.Verified || !strings.Contains(m.Note, "not verified") {
			t.Errorf("mapping %+v is not marked not verified", m)
		}
	}
	if ca.Model != "" || !strings.Contains(ca.Ignored[0].Reason, `"sonnet" is a model alias`) {
		t.Errorf("model = %q, ignored %+v", ca.Model, ca.Ignored)
	}
	if len(cb.Tools) != 0 || len(cb.Unmapped) != 1 || cb.Unmapped[0].Tool != "*" || !strings.Contains(cb.Unmapped[0].Reason, "which in Claude Code means every tool") {
		t.Errorf("a subagent without tools = %+v", cb)
	}
	if cb.Instructions != "You are b. every tool" {
		t.Errorf("instructions of a subagent without a body = %q", cb.Instructions)
	}
}

// TestPreviewVSCode: a custom agent's and a chat mode's tools, tool sets
// and server tools map; a prompt file and an unknown file get one line
// each; a folder's README is passed over.
func TestPreviewVSCode(t *testing.T) {
	dir := t.TempDir()
	agents := filepath.Join(dir, ".github", "agents")
	write(t, filepath.Join(agents, "builder.agent.md"), `---
name: Builder
description: 'Builds things'
tools: ['edit/editFiles', 'search', 'runCommands', 'github/*', 'github/create_issue', 'web/fetch', 'codebase', 'notification', 'azure_thing']
model: GPT-4.1
handoffs:
  - label: Review
    agent: reviewer
---
Build it.
`)
	write(t, filepath.Join(agents, "planner.chatmode.md"), "---\ndescription: Plans work.\ntools: ['codebase', 'readFile']\n---\nPlan it.\n")
	write(t, filepath.Join(agents, "fix.prompt.md"), "---\nmode: agent\n---\nFix it.\n")
	write(t, filepath.Join(agents, "README.md"), "# Agents\n")
	notes := write(t, filepath.Join(dir, "notes.txt"), "hello\n")
	p := preview(t, []string{agents, notes}, agentimport.Options{Coworkers: filepath.Join(dir, "cw"), Catalog: registry, Servers: target(serversFile(t))})
	if p.Refused() || len(p.Coworkers) != 2 {
		t.Fatalf("plan = %+v", p)
	}
	b, pl := p.Coworkers[0], p.Coworkers[1]
	if b.ID != "builder" || b.Name != "Builder" || b.Kind != agentimport.KindVSCodeAgent || b.Model != "" {
		t.Errorf("agent = %+v", b)
	}
	if diff := cmp.Diff([]string{"files.file_edit", "files.file_write", "files.files_search", "files.files_list", "github.create_issue", "notification.show"}, b.Tools); diff != "" {
		t.Errorf("agent tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"runCommands", "github/*", "web/fetch", "codebase", "azure_thing"}, unmappedTools(b)); diff != "" {
		t.Errorf("agent unmapped (-want +got):\n%s", diff)
	}
	for _, m := range b.Mapped {
		if m.From == "notification" && (!m.Verified || !slices.Equal(m.To, []string{"notification.show"})) {
			t.Errorf("a native provider named alone = %+v, want its every tool, verified", m)
		}
	}
	if diff := cmp.Diff([]string{"model", "handoffs"}, ignoredFields(b)); diff != "" {
		t.Errorf("agent ignored (-want +got):\n%s", diff)
	}
	if pl.ID != "planner" || pl.Kind != agentimport.KindVSCodeChatMode || !slices.Equal(pl.Tools, []string{"files.file_read"}) {
		t.Errorf("chat mode = %+v", pl)
	}
	var lines []string
	for _, s := range p.Sources {
		for _, n := range s.Notes {
			lines = append(lines, filepath.Base(s.Path)+": "+n)
		}
	}
	want := []string{
		"fix.prompt.md: fix.prompt.md is a VS Code prompt file (a reusable request, not an agent); it is left out",
		"notes.txt: not an agent, recipe, skill, plugin or export of a kind OpenWorker imports (docs/import-agents.md)",
	}
	if diff := cmp.Diff(want, lines); diff != "" {
		t.Errorf("source lines (-want +got):\n%s", diff)
	}
}

// TestPreviewGooseRecipe: a recipe's MCP extensions become servers
// entries (env_keys as inputs) and its tools (available_tools one by
// one; a whole extension is left out with why); parameters with a
// default are filled in; Goose's built-in extensions are left out.
func TestPreviewGooseRecipe(t *testing.T) {
	dir := t.TempDir()
	src := write(t, filepath.Join(dir, "triage.yaml"), `version: 1.0.0
title: Issue Triage
description: Triages the issues of a repository.
instructions: |
  Triage the issues of {{ repo }}.
prompt: Start with issue {{ issue }}.
parameters:
  - key: repo
    input_type: string
    requirement: optional
    default: block/goose
    description: the repository
  - key: issue
    input_type: string
    requirement: required
    description: the first issue
extensions:
  - type: stdio
    name: github
    cmd: npx
    args: ["-y", "@modelcontextprotocol/server-github"]
    env_keys: [GITHUB_PERSONAL_ACCESS_TOKEN]
    envs:
      LOG_LEVEL: debug
    timeout: 300
    available_tools: [list_issues, get_issue]
  - type: stdio
    name: notes-server
    cmd: notes-mcp
  - type: builtin
    name: developer
  - summarizer
activities:
  - Triage the newest issues
settings:
  goose_provider: anthropic
`)
	sf := filepath.Join(dir, "servers.json")
	cw := filepath.Join(dir, "coworkers")
	p := preview(t, []string{src}, agentimport.Options{Coworkers: cw, Catalog: registry, Servers: target(sf)})
	if p.Refused() || len(p.Coworkers) != 1 || p.Servers == nil {
		t.Fatalf("plan = %+v", p)
	}
	c := p.Coworkers[0]
	if c.ID != "issue-triage" || c.Name != "Issue Triage" || c.Kind != agentimport.KindGooseRecipe {
		t.Errorf("coworker = %+v", c)
	}
	if want := "Triage the issues of block/goose.\n\n## The task\n\nStart with issue {{ issue }}."; c.Instructions != want {
		t.Errorf("instructions = %q, want %q", c.Instructions, want)
	}
	if diff := cmp.Diff([]string{"github.list_issues", "github.get_issue"}, c.Tools); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"extension notes-server", "extension developer", "summarizer"}, unmappedTools(c)); diff != "" {
		t.Errorf("unmapped (-want +got):\n%s", diff)
	}
	if !strings.Contains(reason(c, "extension developer"), "Goose's developer extension") ||
		!strings.Contains(reason(c, "extension notes-server"), `every tool of provider "notes-server"`) {
		t.Errorf("reasons = %+v", c.Unmapped)
	}
	if diff := cmp.Diff([]string{"settings.goose_provider", "version", "activities"}, ignoredFields(c)); diff != "" {
		t.Errorf("ignored (-want +got):\n%s", diff)
	}
	var items []string
	for _, it := range p.Servers.Items {
		items = append(items, string(it.Action)+" "+it.Namespace+" "+strings.Join(it.Inputs, ","))
	}
	if diff := cmp.Diff([]string{"add github github-GITHUB_PERSONAL_ACCESS_TOKEN", "add notes-server "}, items); diff != "" {
		t.Errorf("servers (-want +got):\n%s", diff)
	}

	res, err := agentimport.Apply(p)
	if err != nil {
		t.Fatal(err)
	}
	if res.ServersAdded != 2 || res.ServersFile != sf {
		t.Errorf("result = %+v", res)
	}
	cfg, err := servers.ReadConfig(sf, nil)
	if err != nil {
		t.Fatal(err)
	}
	gh := cfg.Entries[0] // 300 s is over the bound of a call: capped
	if gh.Server.Namespace != "github" || gh.Server.Program != "npx" || gh.Server.Timeout != tool.DefaultCallTimeout || len(gh.Inputs()) != 1 || !gh.Inputs()[0].Password {
		t.Errorf("github entry = %+v, inputs %+v", gh.Server, gh.Inputs())
	}
	if _, err := bundle.Load(filepath.Join(cw, "issue-triage")); err != nil {
		t.Errorf("the imported coworker does not load: %v", err)
	}
}

// TestPreviewSkills: a skill folder imported alone becomes a coworker
// holding it; with Into, skills (a folder and a zip) go into that
// coworker, whose skills list grows with them.
func TestPreviewSkills(t *testing.T) {
	dir := t.TempDir()
	skill := filepath.Join(dir, "src", "pdf-helper")
	write(t, filepath.Join(skill, "SKILL.md"), "---\nname: pdf-helper\ndescription: Fills PDF forms.\n---\nUse the form's field names.\n")
	write(t, filepath.Join(skill, "reference.md"), "Field names.\n")
	cw := filepath.Join(dir, "coworkers")
	p := preview(t, []string{skill}, agentimport.Options{Coworkers: cw, Catalog: registry})
	if p.Refused() || len(p.Coworkers) != 1 {
		t.Fatalf("plan = %+v", p)
	}
	c := p.Coworkers[0]
	if c.ID != "pdf-helper" || c.Kind != agentimport.KindSkill || c.Description != "Fills PDF forms." || !slices.Equal(c.Skills, []string{"pdf-helper"}) {
		t.Errorf("coworker = %+v", c)
	}
	if _, err := agentimport.Apply(p); err != nil {
		t.Fatal(err)
	}
	b, err := bundle.Load(filepath.Join(cw, "pdf-helper"))
	if err != nil || len(b.Skills) != 1 || b.Skills[0].Name != "pdf-helper" {
		t.Fatalf("loaded = %+v, %v", b, err)
	}
	if data, _ := os.ReadFile(filepath.Join(cw, "pdf-helper", "coworker", "skills", "pdf-helper", "reference.md")); string(data) != "Field names.\n" {
		t.Errorf("reference.md = %q", data)
	}

	// Into a coworker that lists its skills: a second folder and a zip.
	other := filepath.Join(dir, "src", "citations")
	write(t, filepath.Join(other, "SKILL.md"), "---\nname: citations\ndescription: Cites sources.\n---\nCite as [title](url).\n")
	zipped := zipSkill(t, filepath.Join(dir, "src", "glossary.zip"), "glossary", "---\nname: glossary\ndescription: Terms.\n---\nUse the glossary.\n")
	if _, err := bundle.Create(cw, bundle.Draft{ID: "writer", Name: "Writer", Instructions: "Write.", Skills: []string{}}); err != nil {
		t.Fatal(err)
	}
	p = preview(t, []string{other, zipped}, agentimport.Options{Coworkers: cw, Into: "writer", Catalog: registry})
	if p.Refused() || len(p.Coworkers) != 1 || !p.Coworkers[0].Into || !slices.Equal(p.Coworkers[0].Skills, []string{"citations", "glossary"}) {
		t.Fatalf("plan into writer = %+v", p)
	}
	if _, err := agentimport.Apply(p); err != nil {
		t.Fatal(err)
	}
	d, problems, err := bundle.ReadDraft(filepath.Join(cw, "writer"))
	if err != nil || len(problems) > 0 || !slices.Equal(d.Skills, []string{"citations", "glossary"}) {
		t.Errorf("writer after the import = %+v, %v, %v", d.Skills, problems, err)
	}
	// The same skill again is refused before anything is written.
	p = preview(t, []string{other}, agentimport.Options{Coworkers: cw, Into: "writer"})
	if !p.Refused() || !strings.Contains(p.Problems[0], `coworker writer has a skill "citations" already`) {
		t.Errorf("a skill attached already = %+v", p.Problems)
	}
}

// TestPreviewPlugin: a Claude Code plugin's agents become coworkers, its
// skills a coworker named after it, its .mcp.json (servers at its top)
// goes through the servers import, and its commands and hooks get a
// line each; "mcp__plugin_<plugin>_<server>__<tool>" names its server.
func TestPreviewPlugin(t *testing.T) {
	dir := t.TempDir()
	pl := filepath.Join(dir, "demo")
	write(t, filepath.Join(pl, ".claude-plugin", "plugin.json"), `{"name": "demo", "description": "A demo plugin.", "version": "1.0.0", "author": {"name": "Me"}, "outputStyles": "./styles"}`)
	write(t, filepath.Join(pl, "agents", "reviewer.md"), "---\nname: reviewer\ndescription: Reviews.\ntools: Read, mcp__plugin_demo_helper__do_thing\n---\nReview.\n")
	write(t, filepath.Join(pl, "skills", "notes", "SKILL.md"), "---\nname: notes\ndescription: Takes notes.\n---\nTake notes.\n")
	write(t, filepath.Join(pl, "skills", "empty", "SKILL.md"), "---\nname: empty\ndescription: Says nothing.\n---\n")
	write(t, filepath.Join(pl, "commands", "go.md"), "---\ndescription: Go.\n---\nGo!\n")
	write(t, filepath.Join(pl, "hooks", "hooks.json"), `{"hooks": {}}`)
	write(t, filepath.Join(pl, ".mcp.json"), "{\n  \"helper\": {\"command\": \"helper-mcp\", \"args\": [\"--stdio\"]}\n}\n")
	sf := filepath.Join(dir, "servers.json")
	p := preview(t, []string{pl}, agentimport.Options{Coworkers: filepath.Join(dir, "cw"), Catalog: registry, Servers: target(sf)})
	if p.Refused() || len(p.Coworkers) != 2 {
		t.Fatalf("plan = %+v", p)
	}
	r, d := p.Coworkers[0], p.Coworkers[1]
	if r.ID != "reviewer" || !slices.Equal(r.Tools, []string{"files.file_read", "helper.do_thing"}) {
		t.Errorf("agent = %+v", r)
	}
	if d.ID != "demo" || d.Kind != agentimport.KindClaudePlugin || d.Description != "A demo plugin." || !slices.Equal(d.Skills, []string{"notes"}) {
		t.Errorf("the plugin's coworker = %+v", d)
	}
	if p.Servers == nil || len(p.Servers.Items) != 1 || p.Servers.Items[0].Namespace != "helper" || p.Servers.Items[0].Action != servers.ImportAdd {
		t.Errorf("servers = %+v", p.Servers)
	}
	notes := strings.Join(p.Sources[0].Notes, "\n")
	for _, want := range []string{`"outputStyles" is ignored`, "skill " + filepath.Join(pl, "skills", "empty") + " is left out: " + filepath.Join(pl, "skills", "empty", "SKILL.md") + ":4:1: SKILL.md has no instructions", "slash command /go (" + filepath.Join(pl, "commands", "go.md") + ") is left out", "hooks are left out"} {
		if !strings.Contains(notes, want) {
			t.Errorf("plugin notes lack %q:\n%s", want, notes)
		}
	}
}

// TestPreviewProblems: a path that does not exist, front matter that is
// not YAML and a folder of nothing refuse the import with file and line.
func TestPreviewProblems(t *testing.T) {
	dir := t.TempDir()
	bad := write(t, filepath.Join(dir, "bad.md"), "---\nname: bad\ndescription: one: two: three\n---\nBody.\n")
	p := preview(t, []string{bad, filepath.Join(dir, "missing.md")}, agentimport.Options{Coworkers: filepath.Join(dir, "cw")})
	if len(p.Problems) != 2 || !strings.HasPrefix(p.Problems[0], bad+":3: not valid YAML") || !strings.Contains(p.Problems[1], "missing.md cannot be read") {
		t.Errorf("problems = %q", p.Problems)
	}
	if _, err := agentimport.Apply(p); err == nil || !strings.Contains(err.Error(), "nothing was written") {
		t.Errorf("Apply of a refused plan = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "cw")); err == nil {
		t.Error("a refused import made the coworkers folder")
	}
	empty := t.TempDir()
	write(t, filepath.Join(empty, "todo.txt"), "x")
	p = preview(t, []string{empty}, agentimport.Options{Coworkers: filepath.Join(dir, "cw")})
	if len(p.Problems) != 1 || !strings.HasPrefix(p.Problems[0], "nothing to import") {
		t.Errorf("a folder of nothing = %q", p.Problems)
	}
	if _, err := agentimport.Preview([]string{bad}, &agentimport.Options{}); err != agentimport.ErrNoCoworkersFolder {
		t.Errorf("Preview without a coworkers folder = %v", err)
	}
}

// TestPreviewProjectFolder: a project folder is read through the folders
// its hosts keep agents and skills in; a server two recipes name
// differently is added once, the other said; without a servers file the
// servers are not added, each said, and their tools are not granted.
func TestPreviewProjectFolder(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".claude", "agents", "a.md"), "---\nname: a\ndescription: A.\ntools: Read\n---\nA.\n")
	write(t, filepath.Join(dir, ".claude", "skills", "s", "SKILL.md"), "---\nname: s\ndescription: S.\n---\nS.\n")
	write(t, filepath.Join(dir, ".github", "chatmodes", "c.chatmode.md"), "---\ndescription: C.\n---\nC.\n")
	write(t, filepath.Join(dir, "main.go"), "package main\n")
	r1 := write(t, filepath.Join(dir, "recipes", "one.yaml"), "title: One\ninstructions: One.\nextensions:\n  - {type: stdio, name: github, cmd: gh-one, available_tools: [a]}\n")
	r2 := write(t, filepath.Join(dir, "recipes", "two.yaml"), "title: Two\ninstructions: Two.\nextensions:\n  - {type: stdio, name: github, cmd: gh-two, available_tools: [b]}\n")
	sf := filepath.Join(dir, "servers.json")
	p := preview(t, []string{dir, r1, r2}, agentimport.Options{Coworkers: filepath.Join(dir, "cw"), Catalog: registry, Servers: target(sf)})
	var ids []string
	for _, c := range p.Coworkers {
		ids = append(ids, c.ID)
	}
	if diff := cmp.Diff([]string{"a", "s", "c", "one", "two"}, ids); p.Refused() || diff != "" {
		t.Fatalf("coworkers (-want +got):\n%s\nproblems %q", diff, p.Problems)
	}
	if p.Servers == nil || len(p.Servers.Items) != 1 || !slices.Equal(p.Coworkers[4].Tools, []string{"github.b"}) {
		t.Errorf("servers = %+v, two's tools %v", p.Servers, p.Coworkers[4].Tools)
	}
	var notes []string
	for _, s := range p.Sources {
		if s.Path == r2 {
			notes = s.Notes
		}
	}
	if len(notes) != 1 || !strings.HasPrefix(notes[0], `MCP server "github" (`+r2+` (extensions):`) || !strings.Contains(notes[0], "which is the one added") {
		t.Errorf("notes of %s = %q", r2, notes)
	}

	p = preview(t, []string{r1}, agentimport.Options{Coworkers: filepath.Join(dir, "cw"), Catalog: registry})
	if p.Refused() || p.Servers != nil || len(p.Coworkers[0].Tools) != 0 ||
		!strings.Contains(reason(p.Coworkers[0], "github/a"), "no servers file was given to add it to") ||
		!slices.Equal(p.Sources[0].Notes, []string{`MCP server "github" is not added: no servers file was given to add it to`}) {
		t.Errorf("without a servers file = %+v %q", p.Coworkers[0], p.Sources)
	}
}
