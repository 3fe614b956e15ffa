package harness_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// writeSkill writes coworker/skills/<name>/<rel> of the tester bundle.
func writeSkill(t *testing.T, e *env, name, rel, text string) string {
	t.Helper()
	p := filepath.Join(e.bundles, "tester", "coworker", "skills", name, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// isErr reports whether the model was told a tool result is an error:
// OpenAI has no flag for it, so the harness starts the text "error: ".
func isErr(r modeltest.RecordedToolResult) bool {
	return r.IsError || strings.HasPrefix(r.Text, "error: ")
}

const (
	pdfBody  = "PDF-BODY-7f3a: read references/REFERENCE.md before you fill a form."
	citeBody = "CITE-BODY-91c2: cite every source as [n]."
	refText  = "REFERENCE-TEXT-5d1e: a form has fields.\n"
)

// TestSkillsProgressiveDisclosure: the first request's system prompt lists
// each skill's name and description but no body; skills.load brings a
// body to the model and skills.read a file of the skill's folder, while
// ".." and absolute paths are refused. The
// calls are journaled like any call, decided without asking (the mode is
// Ask, the manifest denies "*", and nobody is asked), and never prompt.
func TestSkillsProgressiveDisclosure(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("SECRET-6b0f"), 0o600); err != nil {
		t.Fatal(err)
	}
	prompter := &fixedPrompter{d: consent.Deny}
	read := func(id, path string) model.ToolCall {
		return call(id, "skills__read", `{"name":"pdf-processing","path":`+mustJSON(path)+`}`)
	}
	e := newEnv(t, envOpts{
		tools: []tool.Tool{&testTool{name: "test.echo", risk: tool.ReadOnly}}, selected: []string{"test.echo"},
		policy: "policy:\n  \"*\": deny\n", mode: consent.Ask, prompter: prompter,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "skills__load", `{"name":"pdf-processing"}`)}},
			{ToolCalls: []model.ToolCall{read("c2", "references/REFERENCE.md"), read("c3", "../citations/SKILL.md"),
				read("c4", secret), read("c5", "/etc/passwd"), read("c6", "references/../../citations/SKILL.md")}},
			{Text: "Done."},
		},
	})
	writeSkill(t, e, "pdf-processing", "SKILL.md", "---\nname: pdf-processing\ndescription: Extract PDF text and fill forms. Use when handling PDFs.\nlicense: Apache-2.0\n---\n"+pdfBody+"\n")
	writeSkill(t, e, "pdf-processing", "references/REFERENCE.md", refText)
	writeSkill(t, e, "citations", "SKILL.md", "---\nname: citations\ndescription: How to cite sources.\n---\n"+citeBody+"\n")

	s, res, err := e.send("Fill in this PDF form.")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	reqs := e.model.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests, want 3", len(reqs))
	}
	first := reqs[0]
	for _, want := range []string{"You are a test coworker.", "## Skills", "skills__load", "- citations: How to cite sources.", "- pdf-processing: Extract PDF text and fill forms. Use when handling PDFs."} {
		if !strings.Contains(first.System, want) {
			t.Errorf("the first system prompt lacks %q:\n%s", want, first.System)
		}
	}
	for i, r := range reqs {
		for _, body := range []string{pdfBody, citeBody, refText} {
			if strings.Contains(r.System, body) {
				t.Errorf("request %d: the system prompt holds a skill's body or file %q", i, body)
			}
		}
	}
	if names := first.ToolNames(); !slices.Equal(names, []string{"test__echo", "skills__load", "skills__read"}) {
		t.Errorf("tools offered = %v", names)
	}
	if r := reqs[1].ToolResults(); len(r) != 1 || isErr(r[0]) || r[0].Text != pdfBody {
		t.Errorf("after skills.load the model got %+v; want the body %q", r, pdfBody)
	}
	results := reqs[2].ToolResults()[1:]
	want := []struct {
		isErr bool
		frag  string
	}{
		{false, refText},
		{true, `invalid_path: "../citations/SKILL.md" leads out of skill "pdf-processing"'s folder ("..")`},
		{true, "is an absolute path"},
		{true, `invalid_path: "/etc/passwd" is an absolute path`},
		{true, `leads out of skill "pdf-processing"'s folder ("..")`},
	}
	if len(results) != len(want) {
		t.Fatalf("skills.read results = %+v", results)
	}
	for i, w := range want {
		if isErr(results[i]) != w.isErr || !strings.Contains(results[i].Text, w.frag) {
			t.Errorf("skills.read result %d = %+v; want error %v holding %q", i, results[i], w.isErr, w.frag)
		}
		if strings.Contains(results[i].Text, "SECRET-6b0f") || strings.Contains(results[i].Text, citeBody) {
			t.Errorf("skills.read result %d holds what it must not: %q", i, results[i].Text)
		}
	}

	if n := prompter.count.Load(); n != 0 {
		t.Errorf("the skills tools prompted %d times", n)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 6 {
		t.Fatalf("%d invocations journaled, want 6", len(invs))
	}
	for i, inv := range invs {
		wantTool, wantStatus := harness.SkillsRead, harness.StatusFailed
		switch i {
		case 0:
			wantTool, wantStatus = harness.SkillsLoad, harness.StatusSucceeded
		case 1:
			wantStatus = harness.StatusSucceeded
		}
		if inv.Tool != wantTool || inv.Status != wantStatus || inv.Provider != harness.ProviderNative || inv.Risk != string(tool.ReadOnly) {
			t.Errorf("invocation %d = %s %s %s %s; want %s %s", i, inv.Tool, inv.Status, inv.Provider, inv.Risk, wantTool, wantStatus)
		}
		if i >= 2 && inv.ErrorCode != "invalid_path" {
			t.Errorf("invocation %d error code %q, want invalid_path", i, inv.ErrorCode)
		}
	}
	aps := e.approvals(s.ID())
	if len(aps) != 6 {
		t.Fatalf("%d approvals journaled, want 6", len(aps))
	}
	for _, a := range aps {
		if a.Decision != string(consent.AllowOnce) || a.Source != consent.SourceSkills || !strings.Contains(a.Reason, "reads this coworker's own skill files") {
			t.Errorf("approval = %+v", a)
		}
	}
	var sel []string
	for _, rt := range s.Tools() {
		sel = append(sel, rt.Name+" "+rt.Provider+" "+rt.Access)
	}
	if want := []string{"test.echo native " + tool.FullAccess, "skills.load native " + harness.SkillsAccess, "skills.read native " + harness.SkillsAccess}; !slices.Equal(sel, want) {
		t.Errorf("session tools = %q, want %q", sel, want)
	}
}

// TestSkillsReadLinks: skills.read follows a link to a file inside the
// skill's folder and refuses one that leads out of it (to a secret, or
// to another skill's folder).
func TestSkillsReadLinks(t *testing.T) {
	secret := filepath.Join(t.TempDir(), "secret.txt")
	if err := os.WriteFile(secret, []byte("SECRET-6b0f"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := func(id, path string) model.ToolCall {
		return call(id, "skills__read", `{"name":"pdf","path":`+mustJSON(path)+`}`)
	}
	e := newEnv(t, envOpts{selected: []string{},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{read("c1", "references/in.md"), read("c2", "references/out.md"), read("c3", "other/SKILL.md"), read("c4", "other")}},
			{Text: "Done."},
		},
	})
	dir := filepath.Dir(writeSkill(t, e, "pdf", "SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n"+pdfBody+"\n"))
	writeSkill(t, e, "pdf", "references/REFERENCE.md", refText)
	writeSkill(t, e, "citations", "SKILL.md", "---\nname: citations\ndescription: Cite.\n---\n"+citeBody+"\n")
	for link, target := range map[string]string{"references/in.md": "REFERENCE.md", "references/out.md": secret, "other": filepath.Join("..", "citations")} {
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
			t.Skipf("cannot make symbolic links here: %v", err)
		}
	}
	if _, res, err := e.send("Go."); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	results := e.model.Requests()[1].ToolResults()
	if len(results) != 4 {
		t.Fatalf("results = %+v", results)
	}
	if isErr(results[0]) || results[0].Text != refText {
		t.Errorf("a link inside the folder: %+v", results[0])
	}
	for i, w := range []string{`"references/out.md" is a link that leads out of skill "pdf"'s folder`, `"other/SKILL.md" is a link that leads out of skill "pdf"'s folder`, `"other" is a link that leads out`} {
		r := results[i+1]
		if !isErr(r) || !strings.Contains(r.Text, "invalid_path: "+w) || strings.Contains(r.Text, "SECRET") || strings.Contains(r.Text, citeBody) {
			t.Errorf("result %d = %+v; want an error holding %q", i+1, r, w)
		}
	}
}

// TestSkillsReadBounds: skills.read returns text only, within its bound,
// names a folder's files, and says which skills exist.
func TestSkillsReadBounds(t *testing.T) {
	read := func(id, name, path string) model.ToolCall {
		return call(id, "skills__read", `{"name":`+mustJSON(name)+`,"path":`+mustJSON(path)+`}`)
	}
	e := newEnv(t, envOpts{selected: []string{},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{read("c1", "pdf", "assets/logo.png"), read("c2", "pdf", "assets/big.md"), read("c3", "pdf", "assets"),
				read("c4", "pdf", "missing.md"), read("c5", "pdf", `references\REFERENCE.md`), read("c6", "pdf", "./SKILL.md"), read("c7", "pdf", "SKILL.md"),
				call("c8", "skills__load", `{"name":"docx"}`)}},
			{Text: "Done."},
		},
	})
	writeSkill(t, e, "pdf", "SKILL.md", "---\nname: pdf\ndescription: PDFs.\n---\n"+pdfBody+"\n")
	writeSkill(t, e, "pdf", "assets/logo.png", "\x89PNG\r\n\x1a\n\x00\x00")
	writeSkill(t, e, "pdf", "assets/big.md", strings.Repeat("a", harness.MaxSkillFileBytes+1))
	s, res, err := e.send("Go.")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	results := e.model.Requests()[1].ToolResults()
	want := []string{
		`not_text: "assets/logo.png" of skill "pdf" is not a text file (UTF-8 without NUL bytes); skills.read reads text only`,
		`too_large: "assets/big.md" of skill "pdf" is 262145 bytes; skills.read returns files of at most 262144 bytes`,
		`is_folder: "assets" is a folder of skill "pdf"; name a file in it: it holds big.md, logo.png`,
		`not_found: skill "pdf" has no file "missing.md"`,
		`invalid_path: "references\\REFERENCE.md" holds a backslash or a colon`,
		`invalid_path: "./SKILL.md" is not a plain path inside the skill's folder`,
		"",
		`invalid_arguments: the arguments do not match the input schema of skills__load: validating root: validating /properties/name: enum: docx does not equal any of: [pdf]`,
	}
	if len(results) != len(want) {
		t.Fatalf("results = %+v", results)
	}
	for i, w := range want {
		if w == "" {
			if isErr(results[i]) || !strings.Contains(results[i].Text, "name: pdf") {
				t.Errorf("result %d = %+v; want SKILL.md's text", i, results[i])
			}
			continue
		}
		if !isErr(results[i]) || !strings.Contains(results[i].Text, w) {
			t.Errorf("result %d = %+v; want an error holding %q", i, results[i], w)
		}
	}
	if invs := e.invocations(s.ID()); len(invs) != 8 || invs[7].Status != harness.StatusRefused || invs[7].ErrorCode != "invalid_arguments" {
		t.Errorf("the call naming no skill: %+v", invs[len(invs)-1])
	}
}

// TestNoSkillsNoSkillsTools: a coworker without skills is offered
// neither skills tool, its system prompt has no skills part, and a call
// to one is refused as a tool it does not have.
func TestNoSkillsNoSkillsTools(t *testing.T) {
	e := newEnv(t, envOpts{
		tools: []tool.Tool{&testTool{name: "test.echo", risk: tool.ReadOnly}}, selected: []string{"test.echo"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "skills__load", `{"name":"x"}`)}},
			{Text: "Done."},
		},
	})
	s, res, err := e.send("Go.")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v", res, err)
	}
	first := e.model.Requests()[0]
	if names := first.ToolNames(); !slices.Equal(names, []string{"test__echo"}) {
		t.Errorf("tools offered = %v", names)
	}
	if strings.Contains(first.System, "## Skills") || strings.Contains(first.System, "skills__") {
		t.Errorf("system prompt speaks of skills:\n%s", first.System)
	}
	if invs := e.invocations(s.ID()); len(invs) != 1 || invs[0].Status != harness.StatusRefused || invs[0].ErrorCode != "not_selected" {
		t.Errorf("invocations = %+v", invs)
	}
	for _, rt := range s.Tools() {
		if strings.HasPrefix(rt.Name, "skills.") {
			t.Errorf("session has %s", rt.Name)
		}
	}
}
