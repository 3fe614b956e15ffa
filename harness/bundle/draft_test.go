package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyBundle copies testdata bundle name into a temp coworkers folder and
// returns the copy's folder.
func copyBundle(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(testBundles, name))); err != nil {
		t.Fatal(err)
	}
	return dst
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeFile(t *testing.T, p, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// bundleFiles returns manifest.md and tools.json of the bundle in dir.
func bundleFiles(t *testing.T, dir string) (manifest, tools string) {
	t.Helper()
	return readFile(t, filepath.Join(dir, "coworker", "manifest.md")), readFile(t, filepath.Join(dir, "coworker", "tools.json"))
}

// mustDraft reads a draft that must have no problems.
func mustDraft(t *testing.T, dir string) Draft {
	t.Helper()
	d, problems, err := ReadDraft(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadDraft(%s) = %v, %v", dir, problems, err)
	}
	return d
}

func TestReadDraftSaveUnchanged(t *testing.T) {
	for _, name := range []string{"research", "legacy-v1", "legacy-v2", "crlf", "all-skills", "unicode-name"} {
		t.Run(name, func(t *testing.T) {
			dir := copyBundle(t, name)
			m0, t0 := bundleFiles(t, dir)
			d := mustDraft(t, dir)
			if err := Save(dir, d); err != nil {
				t.Fatal(err)
			}
			if m, tj := bundleFiles(t, dir); m != m0 || tj != t0 {
				t.Errorf("an unchanged save changed the bundle:\n%s\n%s", m, tj)
			}
			if ps := Validate(dir, d); ps != nil {
				t.Errorf("Validate = %v", ps)
			}
		})
	}
}

func TestReadDraftResearch(t *testing.T) {
	d := mustDraft(t, copyBundle(t, "research"))
	want := Draft{ID: "research", Name: "Research assistant", Description: "Finds sources and summarizes them.\n", Version: "1.2.0",
		Instructions: "# Research\n\nYou help the user research a topic. Cite every source.",
		Tools:        []string{"example.web_search", "acer.battery_get", "files.dir.list"},
		Policy:       map[string]string{"example.web_search": "allow", "acer.battery_get": "deny", "*": "ask"},
		Skills:       []string{"citations", "outline"}, Sampling: []string{}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Fatalf("ReadDraft (-want +got):\n%s", diff)
	}
	v2 := mustDraft(t, copyBundle(t, "legacy-v2"))
	if want := []string{"acer.battery_get", "acer.fan.speed", "lights.on", "lights.off"}; !cmp.Equal(v2.Tools, want) || v2.WholeProviders != nil {
		t.Errorf("v2 draft tools = %v, whole %v; want %v", v2.Tools, v2.WholeProviders, want)
	}
	v1 := mustDraft(t, copyBundle(t, "legacy-v1"))
	if !cmp.Equal(v1.WholeProviders, []string{"acer", "lights"}) || len(v1.Tools) != 0 {
		t.Errorf("v1 draft tools = %v, whole %v", v1.Tools, v1.WholeProviders)
	}
	if all := mustDraft(t, copyBundle(t, "all-skills")); all.Skills != nil {
		t.Errorf("a manifest without skills reads as Skills %#v, want nil", all.Skills)
	}
}

// TestSaveEdits: each edit changes only its own lines; comments, keys the
// draft does not own and the body stay byte for byte.
func TestSaveEdits(t *testing.T) {
	const manifest = "---\n" +
		"# The research coworker.\n" +
		"id: research   # must equal the folder\n" +
		"name: Research assistant\n" +
		"description: >\n" +
		"  Finds sources and\n" +
		"  summarizes them.\n" +
		"\n" +
		"# what it may do\n" +
		"policy:\n" +
		"  # searching is harmless\n" +
		"  example.web_search: allow\n" +
		"  acer.battery_get: deny   # never\n" +
		"  \"*\": ask\n" +
		"# the end of the front matter\n" +
		"---\n" +
		"\n" +
		"# Research\n\nYou help.   \n\n"
	const tools = `{"version": 3, "tools": ["example.web_search", "acer.battery_get"]}`
	tests := []struct {
		name  string
		edit  func(*Draft)
		wantM string // manifest after the save
		wantT string // tools.json after the save ("" = unchanged)
	}{
		{"name", func(d *Draft) { d.Name = "Research: helper" },
			strings.Replace(manifest, "name: Research assistant", `name: "Research: helper"`, 1), ""},
		{"version added", func(d *Draft) { d.Version = "1.0" },
			strings.Replace(manifest, "# the end of the front matter\n", "# the end of the front matter\nversion: \"1.0\"\n", 1), ""},
		{"description multi-line", func(d *Draft) { d.Description = "Finds sources.\nSummarizes them." },
			strings.Replace(manifest, "description: >\n  Finds sources and\n  summarizes them.\n", "description: |-\n  Finds sources.\n  Summarizes them.\n", 1), ""},
		{"description removed", func(d *Draft) { d.Description = "" },
			strings.Replace(manifest, "description: >\n  Finds sources and\n  summarizes them.\n", "", 1), ""},
		{"one policy changed", func(d *Draft) { d.Policy["example.web_search"] = "ask" },
			strings.Replace(manifest, "  example.web_search: allow\n", "  example.web_search: ask\n", 1), ""},
		{"policy entry added and removed", func(d *Draft) {
			delete(d.Policy, "acer.battery_get")
			d.Policy["example.fetch"] = "deny"
			d.Tools = append(d.Tools, "example.fetch")
		},
			strings.Replace(manifest, "  acer.battery_get: deny   # never\n  \"*\": ask\n", "  \"*\": ask\n  example.fetch: deny\n", 1),
			"{\n  \"version\": 3,\n  \"tools\": [\n    \"example.web_search\",\n    \"acer.battery_get\",\n    \"example.fetch\"\n  ]\n}\n"},
		{"policy removed", func(d *Draft) { d.Policy = nil },
			strings.Replace(manifest, "policy:\n  # searching is harmless\n  example.web_search: allow\n  acer.battery_get: deny   # never\n  \"*\": ask\n", "", 1), ""},
		{"instructions", func(d *Draft) { d.Instructions = "You help.\n\nAlways cite." },
			strings.Replace(manifest, "---\n\n# Research\n\nYou help.   \n\n", "---\nYou help.\n\nAlways cite.\n", 1), ""},
		{"new keys", func(d *Draft) {
			d.Model, d.Folder, d.RequiresSandbox, d.Skills = "gpt-4.1", "/home/me/Research notes", true, []string{}
		}, strings.Replace(manifest, "# the end of the front matter\n",
			"# the end of the front matter\nmodel: gpt-4.1\nfolder: /home/me/Research notes\nrequires_sandbox: true\nskills: []\n", 1), ""},
		{"tools removed", func(d *Draft) {
			d.Tools = []string{"example.web_search", "acer.battery_get", "x.y"}
			d.Tools = d.Tools[:0]
		},
			strings.Replace(manifest, "  example.web_search: allow\n  acer.battery_get: deny   # never\n", "", 1),
			"{\n  \"version\": 3,\n  \"tools\": []\n}\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "research")
			writeFile(t, filepath.Join(dir, "coworker", "manifest.md"), manifest)
			writeFile(t, filepath.Join(dir, "coworker", "tools.json"), tools)
			d := mustDraft(t, dir)
			tc.edit(&d)
			if tc.name == "tools removed" {
				d.Policy = map[string]string{"*": "ask"}
			}
			if err := Save(dir, d); err != nil {
				t.Fatal(err)
			}
			m, tj := bundleFiles(t, dir)
			if m != tc.wantM {
				t.Errorf("manifest.md:\n%s\nwant:\n%s\ndiff (-want +got):\n%s", m, tc.wantM, cmp.Diff(tc.wantM, m))
			}
			wantT := tc.wantT
			if wantT == "" {
				wantT = tools
			}
			if tj != wantT {
				t.Errorf("tools.json = %q, want %q", tj, wantT)
			}
			if _, err := Load(dir); err != nil {
				t.Fatalf("the saved bundle does not load: %v", err)
			}
			if got := mustDraft(t, dir); !cmp.Equal(got, d, cmp.Comparer(func(a, b map[string]string) bool { return len(a) == 0 && len(b) == 0 || cmp.Equal(a, b) })) {
				t.Errorf("read back (-saved +read):\n%s", cmp.Diff(d, got))
			}
		})
	}
}

// TestSaveKeepsLineEndsAndBOM: a CRLF manifest with a byte order mark
// stays CRLF with its mark.
func TestSaveKeepsLineEndsAndBOM(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "crlf")
	m0 := "\xef\xbb\xbf---\r\nid: crlf\r\nname: Windows user\r\n---\r\nLines end with CRLF.\r\n"
	writeFile(t, filepath.Join(dir, "coworker", "manifest.md"), m0)
	writeFile(t, filepath.Join(dir, "coworker", "tools.json"), `{"version": 3, "tools": []}`)
	d := mustDraft(t, dir)
	d.Name, d.Description = "Windows person", "Two\nlines"
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	want := "\xef\xbb\xbf---\r\nid: crlf\r\nname: Windows person\r\ndescription: |-\r\n  Two\r\n  lines\r\n---\r\nLines end with CRLF.\r\n"
	if m, _ := bundleFiles(t, dir); m != want {
		t.Errorf("manifest = %q\nwant       %q", m, want)
	}
	if got := mustDraft(t, dir); got.Description != "Two\nlines" {
		t.Errorf("description read back = %q", got.Description)
	}
}

// TestSaveQuotesText: text that YAML would read as something else, or
// that needs quoting, reads back as the same text.
func TestSaveQuotesText(t *testing.T) {
	for _, s := range []string{"1.0", "true", "null", "~", "Research: helper", "#1 helper", "- dash", "*star", "'quoted'", `"double"`, " lead", "trail ", "tab\there", "Ünïcødé 助手 🤖", "a # b", "[x]", "{x}", "@at", "%pct", "`tick`", "yes", "0x1F", "2024-01-02"} {
		dir := filepath.Join(t.TempDir(), "q")
		d := Draft{ID: "q", Name: "Q", Instructions: "You help.", Tools: []string{}}
		if _, err := Create(filepath.Dir(dir), d); err != nil {
			t.Fatal(err)
		}
		d.Version, d.Description = s, s
		if strings.ContainsAny(s, "\t") {
			d.Version = "v"
		}
		if strings.TrimSpace(s) != s {
			d.Version = "v"
		}
		if err := Save(dir, d); err != nil {
			t.Errorf("Save(description %q) = %v", s, err)
			continue
		}
		got := mustDraft(t, dir)
		if got.Description != d.Description || got.Version != d.Version {
			m, _ := bundleFiles(t, dir)
			t.Errorf("%q read back as description %q, version %q:\n%s", s, got.Description, got.Version, m)
		}
	}
}

func TestSaveLegacySelections(t *testing.T) {
	dir := copyBundle(t, "legacy-v2")
	d := mustDraft(t, dir)
	d.Tools = d.Tools[:3]
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if _, tj := bundleFiles(t, dir); tj != "{\n  \"version\": 3,\n  \"tools\": [\n    \"acer.battery_get\",\n    \"acer.fan.speed\",\n    \"lights.on\"\n  ]\n}\n" {
		t.Errorf("a changed v2 selection was written as %q, want version 3", tj)
	}

	dir = copyBundle(t, "legacy-v1")
	d = mustDraft(t, dir)
	_, t0 := bundleFiles(t, dir)
	d.Name = "Lights helper"
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if _, tj := bundleFiles(t, dir); tj != t0 {
		t.Errorf("a v1 selection the draft did not change was rewritten: %q", tj)
	}
	d.Tools = []string{"acer.battery_get"}
	err := Save(dir, d)
	var de *DraftError
	if !errors.As(err, &de) || de.Problems[0].Field != FieldTools || !strings.Contains(err.Error(), "tools.json (version 1) selects every tool of acer, lights, and version 3 cannot name a whole provider; select those providers' tools one by one") {
		t.Fatalf("Save with whole providers and tools = %v", err)
	}
	d.WholeProviders = nil // converted by an editor with a registry
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if b, err := Load(dir); err != nil || b.Tools.Version != 3 || !cmp.Equal(b.Tools.Names, []string{"acer.battery_get"}) {
		t.Fatalf("after converting: %+v, %v", b, err)
	}
}

// TestValidate: the same messages as Load, one problem per field, each
// with its field.
func TestValidate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "helper")
	good := Draft{ID: "helper", Name: "Helper", Instructions: "You help.", Tools: []string{"example.web_search"}, Policy: map[string]string{"example.web_search": "allow"}}
	if ps := Validate(dir, good); ps != nil {
		t.Fatalf("Validate(good) = %v", ps)
	}
	type want struct{ field, frag string }
	tests := []struct {
		name string
		edit func(*Draft)
		want []want
	}{
		{"id", func(d *Draft) { d.ID = "Helper" }, []want{{FieldID, `id "Helper" is not valid; use 1 to 64 lowercase letters`}}},
		{"id not the folder", func(d *Draft) { d.ID = "other" }, []want{{FieldID, `id "other" differs from its folder name "helper"; rename the folder or change the id so they match`}}},
		{"no name", func(d *Draft) { d.Name = "" }, []want{{FieldName, `front matter has no name; add a line like "name: Research assistant"`}}},
		{"name and tool", func(d *Draft) { d.Name = "a\u202eb"; d.Tools = []string{"web_search"}; d.Policy = nil },
			[]want{{FieldName, "name holds the bidirectional formatting character U+202E"}, {FieldTools, `tool name "web_search" is not qualified`}}},
		{"no instructions", func(d *Draft) { d.Instructions = "  " }, []want{{FieldInstructions, "manifest.md has no instructions after the front matter; write what the coworker does"}}},
		{"policy", func(d *Draft) { d.Policy["example.web_search"] = "maybe" }, []want{{FieldPolicy, `policy for "example.web_search" is "maybe"; use ask, allow or deny`}}},
		{"policy unselected", func(d *Draft) { d.Policy["example.fetch"] = "deny" },
			[]want{{FieldPolicy, `policy names "example.fetch", which tools.json does not select; a policy applies only to selected tools`}}},
		{"duplicate tool", func(d *Draft) { d.Tools = append(d.Tools, "example.web_search") }, []want{{FieldTools, `"example.web_search" is listed twice (first at line 4, column 5)`}}},
		{"alias", func(d *Draft) { d.Tools = append(d.Tools, "device__battery_get") }, []want{{FieldTools, `"device__battery_get" is a model alias, not a tool name; write the qualified name "device.battery_get"`}}},
		{"sampling", func(d *Draft) { d.Sampling = []string{"memory"} }, []want{{FieldSampling, `sampling names provider "memory", but tools.json selects none of its tools`}}},
		{"skill", func(d *Draft) { d.Skills = []string{"citations"} }, []want{{FieldSkills, `skill "citations" has no coworker/skills/citations/SKILL.md`}}},
		{"folder", func(d *Draft) { d.Folder = "notes" }, []want{{FieldFolder, `folder "notes" is not an absolute path`}}},
		{"model", func(d *Draft) { d.Model = "gpt\x00" }, []want{{FieldModel, "model holds the control character U+0000"}}},
		{"version", func(d *Draft) { d.Version = strings.Repeat("9", 65) }, []want{{FieldVersion, "version is 65 characters long; the limit is 64"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d := good
			d.Policy = map[string]string{"example.web_search": "allow"}
			tc.edit(&d)
			ps := Validate(dir, d)
			if len(ps) != len(tc.want) {
				t.Fatalf("Validate = %v; want %d problems", ps, len(tc.want))
			}
			for i, w := range tc.want {
				if ps[i].Field != w.field || !strings.Contains(ps[i].Error(), w.frag) {
					t.Errorf("problem %d = %q (field %q); want field %q and %q", i, ps[i], ps[i].Field, w.field, w.frag)
				}
			}
			if _, err := Create(filepath.Dir(dir), d); err == nil && d.ID == "helper" {
				t.Errorf("Create accepted an invalid draft")
				os.RemoveAll(dir)
			}
		})
	}
}

// TestValidateMatchesCheck: a bundle broken on disk gives the same message
// from Load (what check prints) and from ReadDraft, at the same place, and
// the field it is in.
func TestValidateMatchesCheck(t *testing.T) {
	tests := map[string]string{
		"bad-policy": FieldPolicy, "bad-policy-name": FieldPolicy, "policy-unselected": FieldPolicy, "nul-name": FieldName,
		"rtl-override": FieldName, "Bad_ID": FieldID, "id-mismatch": FieldID, "empty-body": FieldInstructions,
		"float-version": FieldVersion, "missing-skill": FieldSkills, "skill-empty": FieldSkills, "dup-name": FieldTools,
		"v3-unqualified": FieldTools, "alias-collide": FieldTools, "bad-json": FieldTools, "unknown-key": FieldOtherKeys, "yaml-syntax": "",
		"no-tools": FieldTools, "folder-relative": FieldFolder, "model-multiline": FieldModel, "unclosed": "", "no-manifest": "", "dup-yaml-key": FieldName,
	}
	for name, field := range tests {
		t.Run(name, func(t *testing.T) {
			dir := copyBundle(t, name)
			_, loadErr := Load(dir)
			d, ps, err := ReadDraft(dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(ps) == 0 {
				t.Fatalf("ReadDraft found no problem; Load: %v", loadErr)
			}
			if ps[0].Error() != loadErr.Error() || ps[0].Field != field {
				t.Errorf("first problem = %q (field %q)\nwant        %q (field %q)", ps[0], ps[0].Field, loadErr, field)
			}
			if d.ID == "" {
				t.Errorf("draft of %s has no id", name)
			}
		})
	}
}

// TestFixBrokenInEditor: a bundle broken on disk opens as a draft, and
// saving the draft with the problem fixed gives a bundle that loads.
func TestFixBrokenInEditor(t *testing.T) {
	for name, fix := range map[string]func(*Draft){
		"bad-policy":  func(d *Draft) { d.Policy["ex.b"] = "deny"; d.Tools = []string{"ex.a", "ex.b"} },
		"unknown-key": func(d *Draft) { d.OtherKeys = nil },
		"dup-yaml-key": func(d *Draft) {
			if d.Name != "X" {
				t.Errorf("the draft's name is %q, want the first one", d.Name)
			}
		}, // the draft holds one name: the duplicate goes
		"yaml-syntax":     func(d *Draft) { d.Name = "Fixed" },
		"unclosed":        func(d *Draft) { d.Name, d.Instructions = "Fixed", "You help." }, // where the body starts is unknown
		"no-tools":        func(d *Draft) {},
		"empty-body":      func(d *Draft) { d.Instructions = "You help." },
		"v3-unqualified":  func(d *Draft) { d.Tools = []string{"example.web_search"} },
		"nul-name":        func(d *Draft) { d.Name = "Fixed" },
		"folder-relative": func(d *Draft) { d.Folder = "/srv/notes" },
		"no-manifest":     func(d *Draft) { d.Name, d.Instructions = "Fixed", "You help." },
	} {
		t.Run(name, func(t *testing.T) {
			dir := copyBundle(t, name)
			d, _, err := ReadDraft(dir)
			if err != nil {
				t.Fatal(err)
			}
			fix(&d)
			if err := Save(dir, d); err != nil {
				t.Fatalf("Save of the fixed draft: %v", err)
			}
			if _, err := Load(dir); err != nil {
				m, _ := os.ReadFile(filepath.Join(dir, "coworker", "manifest.md"))
				t.Fatalf("the fixed bundle does not load: %v\n%s", err, m)
			}
		})
	}
}

func TestReadDraftUnreadable(t *testing.T) {
	if _, _, err := ReadDraft(filepath.Join(t.TempDir(), "gone")); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("ReadDraft(missing) = %v", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	writeFile(t, f, "x")
	if _, _, err := ReadDraft(f); err == nil || !strings.Contains(err.Error(), "is a file") {
		t.Errorf("ReadDraft(file) = %v", err)
	}
	// A manifest that links out of the bundle is not read into the draft.
	secret, text := secretFile(t)
	dir := filepath.Join(t.TempDir(), "cw")
	writeFile(t, filepath.Join(dir, "coworker", "tools.json"), `{"version": 3, "tools": []}`)
	symlink(t, secret, filepath.Join(dir, "coworker", "manifest.md"))
	d, ps, err := ReadDraft(dir)
	if err != nil || len(ps) == 0 || !strings.Contains(ps[0].Msg, "outside the bundle folder") || strings.Contains(d.Instructions+d.Name, text) {
		t.Errorf("ReadDraft(manifest linked out) = %+v, %v, %v", d, ps, err)
	}
	if err := Save(dir, Draft{ID: "cw", Name: "X", Instructions: "You help.", Tools: []string{}}); err == nil || readFile(t, secret) != text {
		t.Errorf("Save wrote through a link out of the bundle: %v", err)
	}
}

func TestCreate(t *testing.T) {
	cws := filepath.Join(t.TempDir(), "coworkers") // created
	d := Draft{ID: "notes", Name: "Notes keeper", Description: "Keeps notes.", Instructions: "You keep notes.",
		Tools: []string{"files.read", "files.write"}, Policy: map[string]string{"files.write": "ask"}, Model: "gpt-4.1-mini", Folder: filepath.Join(t.TempDir(), "Notes")}
	dir, err := Create(cws, d)
	if err != nil {
		t.Fatal(err)
	}
	if dir != filepath.Join(cws, "notes") {
		t.Errorf("Create = %s", dir)
	}
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if b.Name != d.Name || b.Model != d.Model || b.Folder != d.Folder || !cmp.Equal(b.Tools.Names, d.Tools) || b.Policy["files.write"] != "ask" {
		t.Errorf("created bundle = %+v", b)
	}
	m, tj := bundleFiles(t, dir)
	wantM := "---\nid: notes\nname: Notes keeper\ndescription: Keeps notes.\nmodel: gpt-4.1-mini\nfolder: " + yamlString(d.Folder) + "\npolicy:\n  files.write: ask\n---\nYou keep notes.\n"
	if m != wantM {
		t.Errorf("manifest.md = %q\nwant %q", m, wantM)
	}
	if tj != "{\n  \"version\": 3,\n  \"tools\": [\n    \"files.read\",\n    \"files.write\"\n  ]\n}\n" {
		t.Errorf("tools.json = %q", tj)
	}
	if _, err := Create(cws, d); !errors.Is(err, ErrIDTaken) || !strings.Contains(err.Error(), `coworker "notes" exists already at `+dir+"; choose another id") {
		t.Errorf("Create again = %v", err)
	}
	for _, bad := range []string{"", "../x", "Notes"} {
		d := d
		d.ID = bad
		var de *DraftError
		if _, err := Create(cws, d); !errors.As(err, &de) || de.Problems[0].Field != FieldID {
			t.Errorf("Create(id %q) = %v", bad, err)
		}
	}
	entries, _ := os.ReadDir(cws)
	if len(entries) != 1 {
		t.Errorf("coworkers folder holds %v; want only notes (no temporary folders)", entries)
	}
}

func TestNewID(t *testing.T) {
	taken := map[string]bool{"research": true, "research-2": true}
	for name, want := range map[string]string{
		"Research":                 "research-3",
		"Files assistant":          "files-assistant",
		"  Notes -- keeper!! ":     "notes-keeper",
		"助手":                       "coworker",
		"Café Ünïcode":             "cafe-unicode",
		strings.Repeat("ab", 50):   strings.Repeat("ab", 30),
		"device_assistant v2":      "device-assistant-v2",
		"Research assistant (old)": "research-assistant-old",
	} {
		got := NewID(name, func(id string) bool { return taken[id] })
		if got != want || !IDPattern.MatchString(got) {
			t.Errorf("NewID(%q) = %q, want %q", name, got, want)
		}
	}
}
