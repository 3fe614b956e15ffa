package bundle

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// newCoworker creates a coworker in a temp folder and returns its folder.
func newCoworker(t *testing.T) string {
	t.Helper()
	dir, err := Create(t.TempDir(), Draft{ID: "cw", Name: "Coworker", Instructions: "You help.", Tools: []string{}})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

type zipEntry struct {
	name string
	body string
	mode fs.FileMode // 0: a regular file
	size int64       // >0: that many zero bytes instead of body
}

func writeZip(t *testing.T, entries ...zipEntry) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "skill.zip")
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate}
		if e.mode != 0 {
			h.SetMode(e.mode)
		}
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		if e.size > 0 {
			io.CopyN(w, zeros{}, e.size)
		} else {
			io.WriteString(w, e.body)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p, buf.String())
	return p
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) { clear(p); return len(p), nil }

const skillMD = "---\nname: %s\ndescription: How to cite.\n---\nCite every source.\n"

func TestAttachSkillFolder(t *testing.T) {
	dir := newCoworker(t)
	src := filepath.Join(t.TempDir(), "citations")
	writeFile(t, filepath.Join(src, "SKILL.md"), fmt.Sprintf(skillMD, "citations"))
	writeFile(t, filepath.Join(src, "reference", "styles.md"), "APA, MLA.")
	name, err := AttachSkill(dir, src)
	if err != nil || name != "citations" {
		t.Fatalf("AttachSkill = %q, %v", name, err)
	}
	if got := readFile(t, filepath.Join(dir, "coworker", "skills", "citations", "reference", "styles.md")); got != "APA, MLA." {
		t.Errorf("copied resource = %q", got)
	}
	b, err := Load(dir) // no skills key: every folder loads
	if err != nil || len(b.Skills) != 1 || b.Skills[0].Name != "citations" {
		t.Fatalf("Load after attaching = %+v, %v", b, err)
	}
	linked := filepath.Join(t.TempDir(), "cite-link")
	symlink(t, src, linked)
	if name, err := AttachSkill(newCoworker(t), linked); err != nil || name != "citations" {
		t.Errorf("AttachSkill(a link to a skill folder) = %q, %v", name, err)
	}
	if _, err := AttachSkill(dir, src); err == nil || !strings.Contains(err.Error(), `skill "citations" is attached already`) {
		t.Errorf("attaching twice = %v", err)
	}
	// Listed in the manifest, detached, removed.
	d := mustDraft(t, dir)
	d.Skills = []string{"citations"}
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	d.Skills = []string{}
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if err := RemoveSkill(dir, "citations"); err != nil {
		t.Fatal(err)
	}
	if b, err := Load(dir); err != nil || len(b.Skills) != 0 {
		t.Errorf("after detaching: %+v, %v", b, err)
	}
	if err := RemoveSkill(dir, "../cw"); err == nil {
		t.Errorf("RemoveSkill(../cw) succeeded")
	}
}

func TestAttachSkillFolderRefused(t *testing.T) {
	secret, text := secretFile(t)
	for name, setup := range map[string]func(src string){
		"no SKILL.md": func(src string) { writeFile(t, filepath.Join(src, "README.md"), "x") },
		"link inside": func(src string) {
			writeFile(t, filepath.Join(src, "SKILL.md"), "Cite.")
			symlink(t, secret, filepath.Join(src, "key.txt"))
		},
		"empty SKILL": func(src string) { writeFile(t, filepath.Join(src, "SKILL.md"), "---\nname: skill\n---\n") },
		"too many": func(src string) {
			writeFile(t, filepath.Join(src, "SKILL.md"), "Cite.")
			manyFiles(t, src, MaxSkillFiles)
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := newCoworker(t)
			src := filepath.Join(t.TempDir(), "skill")
			os.MkdirAll(src, 0o755)
			writeFile(t, filepath.Join(src, "SKILL.md"), "Cite.")
			setup(src)
			if name == "no SKILL.md" {
				os.Remove(filepath.Join(src, "SKILL.md"))
			}
			_, err := AttachSkill(dir, src)
			if err == nil {
				t.Fatal("AttachSkill succeeded")
			}
			t.Logf("error: %v", err)
			if strings.Contains(err.Error(), text) {
				t.Errorf("the error holds the secret")
			}
			if _, err := os.Lstat(filepath.Join(dir, "coworker", "skills")); err == nil {
				t.Errorf("the refused skill left coworker/skills")
			}
		})
	}
}

func manyFiles(t *testing.T, dir string, n int) {
	for i := range n {
		writeFile(t, filepath.Join(dir, fmt.Sprintf("f%d.txt", i)), "x")
	}
}

func TestAttachSkillZip(t *testing.T) {
	dir := newCoworker(t)
	// One top folder: its name.
	z := writeZip(t, zipEntry{name: "pdf-tools/"}, zipEntry{name: "pdf-tools/SKILL.md", body: fmt.Sprintf(skillMD, "pdf-tools")},
		zipEntry{name: "pdf-tools/scripts/split.py", body: "print()"}, zipEntry{name: "__MACOSX/pdf-tools/._SKILL.md", body: "junk"})
	if name, err := AttachSkill(dir, z); err != nil || name != "pdf-tools" {
		t.Fatalf("AttachSkill(zip with a folder) = %q, %v", name, err)
	}
	if got := readFile(t, filepath.Join(dir, "coworker", "skills", "pdf-tools", "scripts", "split.py")); got != "print()" {
		t.Errorf("extracted script = %q", got)
	}
	// SKILL.md at the top: the zip's name.
	top := filepath.Join(t.TempDir(), "writing.zip")
	if err := os.Rename(writeZip(t, zipEntry{name: "SKILL.md", body: "Write plainly."}), top); err != nil {
		t.Fatal(err)
	}
	if name, err := AttachSkill(dir, top); err != nil || name != "writing" {
		t.Fatalf("AttachSkill(zip with SKILL.md on top) = %q, %v", name, err)
	}
	b, err := Load(dir)
	if err != nil || len(b.Skills) != 2 {
		t.Fatalf("Load = %+v, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "coworker", "skills", "pdf-tools", "__MACOSX")); err == nil {
		t.Errorf("__MACOSX was extracted")
	}
}

// TestAttachSkillZipAttacks: entries that would land outside the skill
// folder, links, bombs and floods are refused and leave nothing behind.
func TestAttachSkillZipAttacks(t *testing.T) {
	skill := zipEntry{name: "s/SKILL.md", body: "Do it."}
	tests := map[string]struct {
		entries []zipEntry
		want    string
	}{
		"dot-dot":      {[]zipEntry{skill, {name: "s/../../evil.txt", body: "x"}}, "would land outside the skill folder"},
		"dot-dot deep": {[]zipEntry{skill, {name: "s/a/../../../evil.txt", body: "x"}}, "would land outside the skill folder"},
		"absolute":     {[]zipEntry{{name: "SKILL.md", body: "Do it."}, {name: "/tmp/evil.txt", body: "x"}}, "would land outside the skill folder"},
		"backslash":    {[]zipEntry{skill, {name: `s/..\..\evil.txt`, body: "x"}}, "would land outside the skill folder"},
		"drive":        {[]zipEntry{skill, {name: "s/C:evil.txt", body: "x"}}, "would land outside the skill folder"},
		"symlink":      {[]zipEntry{skill, {name: "s/key", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, "is a link; links in a skill zip are refused"},
		"bomb":         {[]zipEntry{skill, {name: "s/zeros.bin", size: MaxSkillBytes + 1}}, "is larger than 64 MiB"},
		"no SKILL.md":  {[]zipEntry{{name: "s/README.md", body: "x"}}, "has no SKILL.md at its top or in its one folder"},
		"two folders":  {[]zipEntry{skill, {name: "t/SKILL.md", body: "x"}}, "has no SKILL.md at its top or in its one folder"},
		"empty SKILL":  {[]zipEntry{{name: "s/SKILL.md", body: "---\nname: s\n---\n"}}, "SKILL.md has no instructions"},
		"too many":     {append([]zipEntry{skill}, floodEntries(MaxSkillFiles)...), "holds more than 1000 files and folders"},
		"device":       {[]zipEntry{skill, {name: "s/pipe", mode: fs.ModeNamedPipe | 0o644}}, "is not a regular file"},
		"bad zip":      {nil, "not a readable zip"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			dir := newCoworker(t)
			var z string
			if tc.entries == nil {
				z = filepath.Join(t.TempDir(), "bad.zip")
				writeFile(t, z, "not a zip")
			} else {
				z = writeZip(t, tc.entries...)
			}
			_, err := AttachSkill(dir, z)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("AttachSkill = %v; want %q", err, tc.want)
			}
			entries, _ := os.ReadDir(filepath.Join(dir, "coworker", "skills"))
			if len(entries) != 0 {
				t.Errorf("left in skills/: %v", entries)
			}
			for _, p := range []string{filepath.Join(dir, "evil.txt"), filepath.Join(dir, "coworker", "evil.txt"), "/tmp/evil.txt"} {
				if _, err := os.Lstat(p); err == nil {
					t.Errorf("%s was written", p)
				}
			}
		})
	}
}

func floodEntries(n int) []zipEntry {
	var es []zipEntry
	for i := range n {
		es = append(es, zipEntry{name: fmt.Sprintf("s/f%d", i), body: "x"})
	}
	return slices.Clip(es)
}

// TestAttachSkillMends: a skill whose name is not a valid Agent Skills
// name, or whose folder is named otherwise than the skill, is attached
// under the mended name, with a notice saying so; SKILL.md is copied as
// it is, and the attached skill loads.
func TestAttachSkillMends(t *testing.T) {
	tests := []struct {
		name   string
		folder string // "" for a zip holding "bad name/SKILL.md"
		text   string
		want   string
		// notices of the attach, in order
		notices []string
	}{
		{"name differs from the folder", "skill", fmt.Sprintf(skillMD, "other"), "other",
			[]string{`skill/SKILL.md:2:7: SKILL.md names the skill "other", its folder is "skill"; the skill is attached as coworker/skills/other, as the Agent Skills specification names a skill's folder after it; rename the folder "skill" to "other" where the skill comes from`}},
		{"folder name with a space, no front matter", "bad name", "Cite.", "bad-name",
			[]string{`bad name/SKILL.md: skill name "bad name" (from the skill's folder) is not a valid Agent Skills name (lowercase letters, digits and single hyphens); the skill is attached as coworker/skills/bad-name`,
				`bad-name/SKILL.md:1:1: SKILL.md has no front matter`}},
		{"zip folder name with a space", "", "Cite.", "bad-name",
			[]string{`skill name "bad name" (from the skill's folder) is not a valid Agent Skills name`, `SKILL.md has no front matter`}},
		{"name with capitals and a space", "pdf", "---\nname: PDF Processing\ndescription: PDFs.\n---\nDo it.\n", "pdf-processing",
			[]string{`pdf/SKILL.md:2:7: skill name "PDF Processing" (from its SKILL.md) is not a valid Agent Skills name (lowercase letters, digits and single hyphens); the skill is attached as coworker/skills/pdf-processing; write "name: pdf-processing" in SKILL.md`,
				`pdf-processing/SKILL.md:2:7: skill name "PDF Processing" is not a valid Agent Skills name (lowercase letters, digits and single hyphens); it is read as its folder's name "pdf-processing"`}},
		{"legacy name", "Citations_v2", "---\ndescription: x\n---\nDo it.\n", "citations-v2",
			[]string{`skill name "Citations_v2" (from the skill's folder) is not a valid Agent Skills name`, `SKILL.md front matter has no name`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newCoworker(t)
			var src string
			if tc.folder == "" {
				src = writeZip(t, zipEntry{name: "bad name/SKILL.md", body: tc.text})
			} else {
				src = filepath.Join(t.TempDir(), tc.folder)
				writeFile(t, filepath.Join(src, "SKILL.md"), tc.text)
			}
			name, notices, err := AttachSkillWithNotices(dir, src)
			if err != nil || name != tc.want {
				t.Fatalf("AttachSkillWithNotices = %q, %v; want %q", name, err, tc.want)
			}
			if len(notices) != len(tc.notices) {
				t.Fatalf("notices = %q; want %d", notices, len(tc.notices))
			}
			for i, f := range tc.notices {
				if !strings.Contains(notices[i].String(), f) {
					t.Errorf("notice %d = %q\nwant it to hold %q", i, notices[i], f)
				}
			}
			md := filepath.Join(dir, "coworker", "skills", tc.want, "SKILL.md")
			if got := readFile(t, md); got != tc.text {
				t.Errorf("SKILL.md was changed: %q", got)
			}
			if tc.folder != "" && readFile(t, filepath.Join(src, "SKILL.md")) != tc.text {
				t.Errorf("the source was changed")
			}
			b, err := Load(dir)
			if err != nil || len(b.Skills) != 1 || b.Skills[0].Name != tc.want {
				t.Fatalf("Load after attaching = %+v, %v", b, err)
			}
			if _, err := AttachSkill(dir, src); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("skill %q is attached already", tc.want)) {
				t.Errorf("attaching again = %v", err)
			}
		})
	}
}

// TestAttachSkillRefusesUnmendable: what cannot be mended is refused with
// the file, line and fix, and leaves nothing.
func TestAttachSkillRefusesUnmendable(t *testing.T) {
	tests := []struct {
		name, text string
		line, col  int
		want       []string
	}{
		{"a name of no ASCII letter", "---\nname: 数据\ndescription: x\n---\nDo it.\n", 2, 7,
			[]string{`skill name "\u6570\u636e" (from its SKILL.md) has no ASCII letter or digit to make a skill folder name of`, "name the skill with lowercase ASCII letters, digits and hyphens in SKILL.md (name: skill)"}},
		{"a description over the limit", "---\nname: skill\ndescription: " + strings.Repeat("x", 3000) + "\n---\nDo it.\n", 3, 14,
			[]string{"description is 3000 characters long; the limit is 2048", "shorten it to at most 1024 characters"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := newCoworker(t)
			src := filepath.Join(t.TempDir(), "skill")
			writeFile(t, filepath.Join(src, "SKILL.md"), tc.text)
			_, _, err := AttachSkillWithNotices(dir, src)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("AttachSkillWithNotices = %v; want a *LoadError", err)
			}
			if le.File != filepath.Join(src, "SKILL.md") || le.Line != tc.line || le.Col != tc.col {
				t.Errorf("error at %s:%d:%d; want %s:%d:%d", le.File, le.Line, le.Col, filepath.Join(src, "SKILL.md"), tc.line, tc.col)
			}
			for _, w := range tc.want {
				if !strings.Contains(le.Error(), w) {
					t.Errorf("error %q lacks %q", le, w)
				}
			}
			if _, err := os.Lstat(filepath.Join(dir, "coworker", "skills")); err == nil {
				t.Errorf("the refused skill left coworker/skills")
			}
		})
	}
}
