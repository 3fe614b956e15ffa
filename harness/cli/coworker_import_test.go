package cli_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/tool"
	"github.com/zalando/go-keyring"
)

// importPlan is the JSON of `coworker import --dry-run --json`, as far as
// these tests read it.
type importPlan struct {
	Coworkers []struct {
		ID          string   `json:"id"`
		Name        string   `json:"name"`
		Description string   `json:"description"`
		Tools       []string `json:"tools"`
		Unmapped    []struct {
			Tool   string `json:"tool"`
			Reason string `json:"reason"`
		} `json:"unmapped"`
		Skills  []string `json:"skills"`
		Ignored []struct {
			Field string `json:"field"`
		} `json:"ignored"`
	} `json:"coworkers"`
	Servers *struct {
		Items []struct {
			Namespace string   `json:"namespace"`
			Action    string   `json:"action"`
			Inputs    []string `json:"inputs"`
		} `json:"items"`
	} `json:"servers"`
	Problems []string `json:"problems"`
}

var hasFiles struct {
	once sync.Once
	yes  bool
}

// binaryHasFiles reports whether the binary registers the built-in files
// provider (Claude Code's Read maps to its files.file_read only then):
// whether check resolves a coworker that selects files.file_read.
func binaryHasFiles(t *testing.T) bool {
	hasFiles.once.Do(func() {
		dir := filepath.Join(t.TempDir(), "probe")
		if _, errOut, code := ow(t, "", "coworker", "new", "probe", "--coworkers", dir, "--name", "Probe", "--tool", "files.file_read"); code != 0 {
			t.Fatalf("coworker new probe: %s", errOut)
		}
		_, _, code := ow(t, "", "check", "--coworkers", dir)
		hasFiles.yes = code == 0
	})
	return hasFiles.yes
}

// TestCoworkerImportPreviewThenWrite: a Claude Code subagent is previewed
// (nothing written: its tools mapped or left out with why, its unknown
// fields ignored), then imported as a coworker that check accepts, with
// exactly the tools the preview mapped; the source is not changed.
func TestCoworkerImportPreviewThenWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src := filepath.Join(dir, "helper.md")
	text := "---\nname: helper\ndescription: Reads system facts.\ntools: Read, Bash, mcp__device__system_info_get\nmodel: sonnet\ncolor: green\n---\nAnswer with the system's facts.\n"
	os.WriteFile(src, []byte(text), 0o644)
	cw := filepath.Join(dir, "coworkers")
	sf := filepath.Join(dir, "servers.json")

	out, errOut, code := ow(t, "", "coworker", "import", src, "--coworkers", cw, "--servers", sf, "--dry-run", "--json")
	if code != 0 {
		t.Fatalf("import --dry-run = exit %d\n%s%s", code, out, errOut)
	}
	var p importPlan
	if err := json.Unmarshal([]byte(out), &p); err != nil || len(p.Coworkers) != 1 {
		t.Fatalf("plan JSON: %v\n%s", err, out)
	}
	c := p.Coworkers[0]
	wantTools := []string{"device.system_info_get"}
	var wantUnmapped []string
	if binaryHasFiles(t) {
		wantTools = []string{"files.file_read", "device.system_info_get"}
		wantUnmapped = []string{"Bash"}
	} else {
		wantUnmapped = []string{"Read", "Bash"}
	}
	var unmapped []string
	for _, u := range c.Unmapped {
		unmapped = append(unmapped, u.Tool)
		if u.Reason == "" {
			t.Errorf("%s is not granted, without a reason", u.Tool)
		}
	}
	if c.ID != "helper" || c.Name != "helper" || c.Description != "Reads system facts." || !slices.Equal(c.Tools, wantTools) || !slices.Equal(unmapped, wantUnmapped) || len(c.Ignored) != 2 {
		t.Errorf("coworker = %+v; want tools %v, unmapped %v", c, wantTools, wantUnmapped)
	}
	if _, err := os.Stat(cw); err == nil {
		t.Error("--dry-run made the coworkers folder")
	}

	out, errOut, code = ow(t, "", "coworker", "import", src, "--coworkers", cw, "--servers", sf)
	if code != 0 || !strings.Contains(out, "new     helper (helper), from the Claude Code subagent "+src) ||
		!strings.Contains(out, "not granted Bash: it runs shell commands") || !strings.Contains(errOut, "imported 1 coworker(s) into "+cw+": helper") {
		t.Fatalf("import = exit %d\n%s%s", code, out, errOut)
	}
	tools, _ := os.ReadFile(filepath.Join(cw, "helper", "coworker", "tools.json"))
	var sel struct {
		Tools []string `json:"tools"`
	}
	if json.Unmarshal(tools, &sel); !slices.Equal(sel.Tools, wantTools) {
		t.Errorf("tools.json = %s, want %v", tools, wantTools)
	}
	out, errOut, code = ow(t, "", "check", "--coworkers", cw)
	if code != 0 || !strings.Contains(out, "ok      helper (helper") {
		t.Errorf("check = exit %d\n%s%s", code, out, errOut)
	}
	if data, _ := os.ReadFile(src); string(data) != text {
		t.Errorf("the source changed: %q", data)
	}
	// Again: a new id, the first kept.
	if _, errOut, code = ow(t, "", "coworker", "import", src, "--coworkers", cw, "--servers", sf); code != 0 || !strings.Contains(errOut, ": helper-2\n") {
		t.Errorf("second import = exit %d\n%s", code, errOut)
	}
}

// TestCoworkerImportRefusedWritesNothing: a path that does not exist, an
// agent whose front matter is not YAML and an --into coworker that does
// not exist refuse the import (exit 2) with the file and line, and
// nothing is written.
func TestCoworkerImportRefusedWritesNothing(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := filepath.Join(dir, "good.md")
	os.WriteFile(good, []byte("---\nname: good\ndescription: Good.\n---\nGood.\n"), 0o644)
	bad := filepath.Join(dir, "bad.md")
	os.WriteFile(bad, []byte("---\nname: bad\ndescription: a: b: c\n---\nBad.\n"), 0o644)
	skill := filepath.Join(dir, "skill")
	os.MkdirAll(skill, 0o755)
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: skill\ndescription: A skill.\n---\nDo it.\n"), 0o644)
	cw := filepath.Join(dir, "coworkers")
	tests := []struct {
		args []string
		want string
	}{
		{[]string{good, filepath.Join(dir, "missing.md")}, "problem " + filepath.Join(dir, "missing.md") + " cannot be read"},
		{[]string{good, bad}, "problem " + bad + ":3: not valid YAML"},
		{[]string{skill, "--into", "nope"}, `problem no coworker "nope" to add skills to`},
	}
	for _, tc := range tests {
		out, errOut, code := ow(t, "", append(append([]string{"coworker", "import"}, tc.args...), "--coworkers", cw)...)
		if code != 2 || !strings.Contains(out, tc.want) || !strings.Contains(errOut, "the import is refused") {
			t.Errorf("import %v = exit %d\n%s%s", tc.args, code, out, errOut)
		}
		if _, err := os.Stat(cw); err == nil {
			t.Errorf("import %v made the coworkers folder", tc.args)
		}
	}
	if _, errOut, code := ow(t, "", "coworker", "import", good); code != 2 || !strings.Contains(errOut, "coworker import needs --coworkers DIR") {
		t.Errorf("import without --coworkers = exit %d\n%s", code, errOut)
	}
}

// TestCoworkerImportSkillInto: a skill folder goes into the coworker
// --into names, which check still accepts with the skill.
func TestCoworkerImportSkillInto(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	cw := filepath.Join(dir, "coworkers")
	if _, errOut, code := ow(t, "", "coworker", "new", "writer", "--coworkers", cw, "--name", "Writer"); code != 0 {
		t.Fatal(errOut)
	}
	skill := filepath.Join(dir, "citations")
	os.MkdirAll(skill, 0o755)
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: citations\ndescription: Cites sources.\n---\nCite as [title](url).\n"), 0o644)
	out, errOut, code := ow(t, "", "coworker", "import", skill, "--into", "writer", "--coworkers", cw)
	if code != 0 || !strings.Contains(out, "into    writer (Writer): adds skills citations") || !strings.Contains(errOut, "added skills citations into writer") {
		t.Fatalf("import --into = exit %d\n%s%s", code, out, errOut)
	}
	out, errOut, code = ow(t, "", "check", "--coworkers", cw)
	if code != 0 || !strings.Contains(out, "ok      writer (Writer") {
		t.Errorf("check = exit %d\n%s%s", code, out, errOut)
	}
	if _, err := os.Stat(filepath.Join(cw, "writer", "coworker", "skills", "citations", "SKILL.md")); err != nil {
		t.Errorf("the skill is not in writer: %v", err)
	}
}

// TestCoworkerExportImportCheck: `coworker export` writes one .zip with
// the bundle and the servers entry its tools need, with no secret value
// in it (as zip bytes or inside any entry); `coworker import` of that zip
// into a second coworkers folder and servers file makes a coworker that
// check accepts once the input standing for the secret is answered.
func TestCoworkerExportImportCheck(t *testing.T) {
	keyring.MockInit()
	dir := t.TempDir()
	cw1, cw2 := filepath.Join(dir, "one"), filepath.Join(dir, "two")
	const secret = "dev-token-literal-0123456789abcdef"
	entry, _ := json.Marshal(map[string]any{"transport": "stdio", "command": binary, "args": []string{"mcp", "serve", "device"},
		"env": map[string]string{"DEVICE_TOKEN": secret, "LOG_LEVEL": "info"}})
	other, _ := json.Marshal(map[string]any{"transport": "stdio", "command": "unused-mcp", "env": map[string]string{"API_KEY": "other-secret-not-exported"}})
	sf1 := filepath.Join(dir, "servers1.json")
	os.WriteFile(sf1, []byte(`{"servers": {"dev": `+string(entry)+`, "other": `+string(other)+`}}`), 0o600)
	if _, errOut, code := ow(t, "", "coworker", "new", "helper", "--coworkers", cw1, "--name", "Helper", "--tool", "dev.system_info_get"); code != 0 {
		t.Fatal(errOut)
	}
	zipFile := filepath.Join(dir, "helper.zip")
	out, errOut, code := ow(t, "", "coworker", "export", "helper", "--coworkers", cw1, "--servers", sf1, "-o", zipFile)
	if code != 0 || !strings.Contains(out, "exported coworker helper to "+zipFile) || !strings.Contains(out, "with the servers entries dev") ||
		!strings.Contains(out, "env.DEVICE_TOKEN of dev is a secret: the importer is asked for it (input dev-DEVICE_TOKEN)") {
		t.Fatalf("export = exit %d\n%s%s", code, out, errOut)
	}
	raw, _ := os.ReadFile(zipFile)
	contents := string(raw)
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		r, _ := f.Open()
		data, _ := io.ReadAll(r)
		r.Close()
		contents += string(data)
	}
	for _, s := range []string{secret, "other-secret-not-exported", "unused-mcp"} {
		if strings.Contains(contents, s) {
			t.Errorf("the export holds %q", s)
		}
	}

	sf2 := filepath.Join(dir, "servers2.json")
	out, errOut, code = ow(t, "", "coworker", "import", zipFile, "--coworkers", cw2, "--servers", sf2)
	if code != 0 || !strings.Contains(out, "new     helper (Helper), from the exported coworker "+zipFile) || !strings.Contains(errOut, "added 1 server(s) to "+sf2) {
		t.Fatalf("import of the export = exit %d\n%s%s", code, out, errOut)
	}
	var stdout, stderr bytes.Buffer
	code = cli.Run(context.Background(), tool.NewRegistry(), []string{"check", "--coworkers", cw2, "--servers", sf2},
		cli.WithIO(strings.NewReader(secret+"\n"), &stdout, &stderr, func(string) string { return "" }, func() bool { return true }))
	if code != 0 || !strings.Contains(stdout.String(), "ok      helper (Helper") || !strings.Contains(stderr.String(), `(servers file input "dev-DEVICE_TOKEN")`) {
		t.Errorf("check of the import = exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if data, _ := os.ReadFile(sf2); strings.Contains(string(data), secret) {
		t.Errorf("the imported servers file holds the secret:\n%s", data)
	}
}

// TestCoworkerImportPublished: the published agents, recipes, plugins and
// skills of harness/agentimport/testdata/published import in one go into
// coworkers that check accepts (with the servers file the import
// wrote); no tool the preview left out is granted; a published recipe
// that is not YAML is refused with its line.
func TestCoworkerImportPublished(t *testing.T) {
	t.Parallel()
	pub := filepath.Join("..", "agentimport", "testdata", "published")
	paths := []string{"voltagent-claude-code-subagents/agents", "awesome-copilot-agents/agents", "awesome-copilot-chatmodes/chatmodes",
		"goose-recipes", "claude-plugins-official/feature-dev", "claude-plugins-official/playground", "claude-plugins-official/example-plugin",
		"superpowers-skills/executing-plans", "superpowers-skills/verification-before-completion", "superpowers-skills/requesting-code-review",
		"anthropics-skills/skill-creator"}
	args := []string{"coworker", "import"}
	for _, p := range paths {
		args = append(args, filepath.Join(pub, filepath.FromSlash(p)))
	}
	dir := t.TempDir()
	cw, sf := filepath.Join(dir, "coworkers"), filepath.Join(dir, "servers.json")
	args = append(args, "--coworkers", cw, "--servers", sf, "--json")
	out, errOut, code := ow(t, "", args...)
	if code != 0 {
		t.Fatalf("import = exit %d\n%s%s", code, out, errOut)
	}
	var p importPlan
	if err := json.Unmarshal([]byte(out), &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Coworkers) < 20 || p.Servers == nil || len(p.Servers.Items) != 2 {
		t.Fatalf("imported %d coworkers, servers %+v\n%s", len(p.Coworkers), p.Servers, out)
	}
	for _, c := range p.Coworkers {
		data, err := os.ReadFile(filepath.Join(cw, c.ID, "coworker", "tools.json"))
		if err != nil {
			t.Errorf("%s: %v", c.ID, err)
			continue
		}
		var sel struct {
			Tools []string `json:"tools"`
		}
		json.Unmarshal(data, &sel)
		if !slices.Equal(sel.Tools, c.Tools) && !(len(sel.Tools) == 0 && len(c.Tools) == 0) {
			t.Errorf("%s: tools.json selects %v, the preview mapped %v", c.ID, sel.Tools, c.Tools)
		}
		for _, u := range c.Unmapped {
			for _, q := range sel.Tools {
				if q == u.Tool {
					t.Errorf("%s: %s was left out in the preview but is granted", c.ID, u.Tool)
				}
			}
		}
	}
	out, errOut, code = ow(t, "", "check", "--coworkers", cw, "--servers", sf, "--json")
	var rep struct {
		OK []struct {
			ID string `json:"id"`
		} `json:"ok"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || code != 0 || len(rep.OK) != len(p.Coworkers) {
		t.Fatalf("check = exit %d, %d ok of %d, %v\n%s%s", code, len(rep.OK), len(p.Coworkers), err, out, errOut)
	}

	bad := filepath.Join(pub, "goose-recipes-invalid", "quick-note.yaml")
	out, errOut, code = ow(t, "", "coworker", "import", bad, "--coworkers", filepath.Join(dir, "none"))
	if code != 2 || !strings.Contains(out, "problem "+bad+":16: not valid YAML") {
		t.Errorf("import of a recipe that is not YAML = exit %d\n%s%s", code, out, errOut)
	}
}
