package bundle

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLoadSkillSpec: a SKILL.md with every field of the Agent Skills
// specification loads with them; a key the specification does not define
// and a metadata value that is not text are notices at their lines.
func TestLoadSkillSpec(t *testing.T) {
	dir := filepath.Join(testBundles, "skill-spec")
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "coworker", "skills", "pdf-processing", "SKILL.md")
	want := []Skill{{
		Name:          "pdf-processing",
		Description:   "Extract PDF text, fill forms, merge files. Use when handling PDFs.",
		Body:          "Read references/REFERENCE.md before filling a form.",
		Path:          path,
		License:       "Apache-2.0",
		Compatibility: "Requires Python 3.14+ and uv",
		AllowedTools:  []string{"Bash(git add:*)", "Read", "Grep"},
		Metadata:      map[string]string{"author": "example-org", "version": "1.0"},
	}}
	if d := cmp.Diff(want, b.Skills); d != "" {
		t.Errorf("skills (-want +got):\n%s", d)
	}
	if got := b.Skills[0].Dir(); got != filepath.Dir(path) {
		t.Errorf("Dir() = %q", got)
	}
	var got []string
	for _, n := range b.Notices {
		if n.File != path {
			t.Errorf("notice about %s, want %s", n.File, path)
		}
		got = append(got, n.String())
	}
	wantNotices := []string{
		path + `:10:9: metadata "tags" is sequence, not text; it is ignored; write the value as text`,
		path + `:11:1: SKILL.md front matter has the key "version", which the Agent Skills specification does not define; it is ignored (the keys are name, description, license, compatibility, allowed-tools, metadata); remove it, or move it under "metadata:"`,
	}
	if d := cmp.Diff(wantNotices, got); d != "" {
		t.Errorf("notices (-want +got):\n%s", d)
	}
}

// writeSkillBundle writes a coworker "cw" with one skill, folder, whose
// SKILL.md is text, and returns the coworker folder.
func writeSkillBundle(t *testing.T, folder, text string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "cw")
	writeFile(t, filepath.Join(dir, "coworker", "manifest.md"), "---\nid: cw\nname: Coworker\n---\nYou help.\n")
	writeFile(t, filepath.Join(dir, "coworker", "tools.json"), `{"version": 3, "tools": []}`)
	writeFile(t, filepath.Join(dir, "coworker", "skills", folder, "SKILL.md"), text)
	return dir
}

// TestSkillRules: what the Agent Skills specification refuses is an
// error at file, line and column with the fix when it never loaded
// before; a name or description that loaded before, an unknown key, a
// missing name or description are notices (and the skill loads).
func TestSkillRules(t *testing.T) {
	long := func(n int) string { return strings.Repeat("a", n) }
	tests := []struct {
		name, folder, text string
		// an error: line, col and fragments of the message
		line, col int
		err       []string
		// or the skill loads with notices holding these fragments, in order
		notices []string
		check   func(t *testing.T, s Skill)
	}{
		{name: "valid", folder: "pdf", text: "---\nname: pdf\ndescription: PDFs.\n---\nDo it.\n"},
		{name: "name with capitals and a space reads as its folder", folder: "pdf-processing", text: "---\nname: PDF Processing\ndescription: PDFs.\n---\nDo it.\n",
			notices: []string{`:2:7: skill name "PDF Processing" is not a valid Agent Skills name (lowercase letters, digits and single hyphens); it is read as its folder's name "pdf-processing"; write "name: pdf-processing"`},
			check: func(t *testing.T, s Skill) {
				if s.Name != "pdf-processing" {
					t.Errorf("Name = %q", s.Name)
				}
			}},
		{name: "name differs from the folder", folder: "pdf", text: "---\nname: docx\ndescription: x\n---\nDo it.\n",
			line: 2, col: 7, err: []string{`skill name "docx" differs from its folder name "pdf"; make them equal: rename the folder to "docx", or write "name: pdf"`}},
		{name: "legacy folder name", folder: "Citations_v2", text: "---\nname: Citations_v2\ndescription: x\n---\nDo it.\n",
			notices: []string{`Citations_v2: skill folder name "Citations_v2" is not a valid Agent Skills name: lowercase letters, digits and single hyphens, at most 64 characters; rename the folder to "citations-v2" (and its name: in SKILL.md)`}},
		{name: "consecutive hyphens", folder: "a--b", text: "---\ndescription: x\n---\nDo it.\n",
			notices: []string{`skill folder name "a--b" is not a valid Agent Skills name`}},
		{name: "no name", folder: "tidy", text: "---\ndescription: Keep it tidy.\n---\nDo it.\n",
			notices: []string{`:2:1: SKILL.md front matter has no name; the Agent Skills specification asks for one, equal to the folder's name; add a line "name: tidy"`}},
		{name: "no description", folder: "tidy", text: "---\nname: tidy\n---\nDo it.\n",
			notices: []string{`:2:1: skill "tidy" has no description; the model is shown only its name`}},
		{name: "description over the specification's limit", folder: "tidy", text: "---\nname: tidy\ndescription: " + long(1500) + "\n---\nDo it.\n",
			notices: []string{`:3:14: the description of skill "tidy" is 1500 characters; the Agent Skills specification allows at most 1024; shorten it to at most 1024 characters`}},
		{name: "description over the loader's limit", folder: "tidy", text: "---\nname: tidy\ndescription: " + long(2049) + "\n---\nDo it.\n",
			line: 3, col: 14, err: []string{"description is 2049 characters long; the limit is 2048", "shorten it to at most 1024 characters (the Agent Skills specification's limit)"}},
		{name: "compatibility too long", folder: "tidy", text: "---\nname: tidy\ndescription: x\ncompatibility: " + long(501) + "\n---\nDo it.\n",
			line: 4, col: 16, err: []string{"compatibility is 501 characters long; the limit is 500"}},
		{name: "compatibility with a bidi override", folder: "tidy", text: "---\nname: tidy\ndescription: x\ncompatibility: \"git \u202e\"\n---\nDo it.\n",
			line: 4, col: 16, err: []string{"compatibility holds the bidirectional formatting character U+202E"}},
		{name: "license a number", folder: "tidy", text: "---\nname: tidy\ndescription: x\nlicense: 2\n---\nDo it.\n",
			line: 4, col: 10, err: []string{"front matter: license must be text, not integer", `quote it: license: "2"`}},
		{name: "allowed-tools as a list", folder: "tidy", text: "---\nname: tidy\ndescription: x\nallowed-tools:\n  - Bash(git:*)\n  - Read\n---\nDo it.\n",
			check: func(t *testing.T, s Skill) {
				if !cmp.Equal(s.AllowedTools, []string{"Bash(git:*)", "Read"}) {
					t.Errorf("AllowedTools = %q", s.AllowedTools)
				}
			}},
		{name: "allowed-tools a mapping", folder: "tidy", text: "---\nname: tidy\ndescription: x\nallowed-tools:\n  read: yes\n---\nDo it.\n",
			line: 5, col: 7, err: []string{"allowed-tools must be text or a list of texts, not mapping"}},
		{name: "allowed-tools a list holding a number", folder: "tidy", text: "---\nname: tidy\ndescription: x\nallowed-tools: [Read, 3]\n---\nDo it.\n",
			line: 4, col: 23, err: []string{"allowed-tools must be text or a list of texts, not integer"}},
		{name: "metadata a list", folder: "tidy", text: "---\nname: tidy\ndescription: x\nmetadata: [a, b]\n---\nDo it.\n",
			line: 4, col: 11, err: []string{"metadata must be a mapping of names to texts, not sequence"}},
		{name: "metadata empty", folder: "tidy", text: "---\nname: tidy\ndescription: x\nmetadata:\n---\nDo it.\n",
			check: func(t *testing.T, s Skill) {
				if s.Metadata != nil {
					t.Errorf("Metadata = %v", s.Metadata)
				}
			}},
		{name: "unknown keys", folder: "tidy", text: "---\nname: tidy\ndescription: x\nversion: 1.0\nuser-invocable: true\n---\nDo it.\n",
			notices: []string{`:4:1: SKILL.md front matter has the key "version"`, `:5:1: SKILL.md front matter has the key "user-invocable"`}},
		{name: "a duplicate key is still an error", folder: "tidy", text: "---\nname: tidy\nname: tidy\n---\nDo it.\n",
			line: 3, col: 1, err: []string{`mapping key "name" already defined`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeSkillBundle(t, tc.folder, tc.text)
			b, err := Load(dir)
			path := filepath.Join(dir, "coworker", "skills", tc.folder, "SKILL.md")
			if tc.err != nil {
				var le *LoadError
				if !errors.As(err, &le) {
					t.Fatalf("Load = %v; want a *LoadError", err)
				}
				if le.File != path || le.Line != tc.line || le.Col != tc.col {
					t.Errorf("error at %s:%d:%d, want %s:%d:%d (%v)", le.File, le.Line, le.Col, path, tc.line, tc.col, le)
				}
				for _, f := range tc.err {
					if !strings.Contains(le.Error(), f) {
						t.Errorf("error %q lacks %q", le, f)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(b.Notices) != len(tc.notices) {
				t.Fatalf("notices = %q, want %d", b.Notices, len(tc.notices))
			}
			for i, f := range tc.notices {
				if s := b.Notices[i].String(); !strings.Contains(s, f) {
					t.Errorf("notice %d = %q, want it to hold %q", i, s, f)
				}
			}
			if tc.check != nil {
				tc.check(t, b.Skills[0])
			}
		})
	}
}

func TestSplitTools(t *testing.T) {
	for in, want := range map[string][]string{
		"Read Grep":                       {"Read", "Grep"},
		"Read, Grep,Glob":                 {"Read", "Grep", "Glob"},
		"Bash(git add:*) Bash(jq:*) Read": {"Bash(git add:*)", "Bash(jq:*)", "Read"},
		"  ":                              nil,
		"Bash(unclosed x":                 {"Bash(unclosed x"},
	} {
		if got := splitTools(in); !cmp.Equal(got, want) {
			t.Errorf("splitTools(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSkillNameFor(t *testing.T) {
	for in, want := range map[string]string{
		"PDF Processing":          "pdf-processing",
		"Café_notes":              "cafe-notes",
		"a--b":                    "a-b",
		"-x-":                     "x",
		"数据":                      "",
		strings.Repeat("ab-", 30): strings.TrimRight(strings.Repeat("ab-", 30)[:64], "-"),
	} {
		got := skillNameFor(in)
		if got != want {
			t.Errorf("skillNameFor(%q) = %q, want %q", in, got, want)
		}
		if got != "" && !specName(got) {
			t.Errorf("skillNameFor(%q) = %q, which is not a valid name", in, got)
		}
	}
}
