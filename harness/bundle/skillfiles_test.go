package bundle

import (
	"archive/zip"
	"bytes"
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
		"name differs": func(src string) { writeFile(t, filepath.Join(src, "SKILL.md"), fmt.Sprintf(skillMD, "other")) },
		"empty SKILL":  func(src string) { writeFile(t, filepath.Join(src, "SKILL.md"), "---\nname: skill\n---\n") },
		"too many": func(src string) {
			writeFile(t, filepath.Join(src, "SKILL.md"), "Cite.")
			manyFiles(t, src, MaxSkillFiles)
		},
		"bad name here": func(src string) {},
	} {
		t.Run(name, func(t *testing.T) {
			dir := newCoworker(t)
			base := "skill"
			if name == "bad name here" {
				base = "bad name"
			}
			src := filepath.Join(t.TempDir(), base)
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
			if entries, _ := os.ReadDir(filepath.Join(dir, "coworker", "skills")); len(entries) != 0 {
				t.Errorf("left in skills/: %v", entries)
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
		"dot-dot":       {[]zipEntry{skill, {name: "s/../../evil.txt", body: "x"}}, "would land outside the skill folder"},
		"dot-dot deep":  {[]zipEntry{skill, {name: "s/a/../../../evil.txt", body: "x"}}, "would land outside the skill folder"},
		"absolute":      {[]zipEntry{{name: "SKILL.md", body: "Do it."}, {name: "/tmp/evil.txt", body: "x"}}, "would land outside the skill folder"},
		"backslash":     {[]zipEntry{skill, {name: `s/..\..\evil.txt`, body: "x"}}, "would land outside the skill folder"},
		"drive":         {[]zipEntry{skill, {name: "s/C:evil.txt", body: "x"}}, "would land outside the skill folder"},
		"symlink":       {[]zipEntry{skill, {name: "s/key", body: "/etc/passwd", mode: fs.ModeSymlink | 0o777}}, "is a link; links in a skill zip are refused"},
		"bomb":          {[]zipEntry{skill, {name: "s/zeros.bin", size: MaxSkillBytes + 1}}, "is larger than 64 MiB"},
		"no SKILL.md":   {[]zipEntry{{name: "s/README.md", body: "x"}}, "has no SKILL.md at its top or in its one folder"},
		"two folders":   {[]zipEntry{skill, {name: "t/SKILL.md", body: "x"}}, "has no SKILL.md at its top or in its one folder"},
		"empty SKILL":   {[]zipEntry{{name: "s/SKILL.md", body: "---\nname: s\n---\n"}}, "SKILL.md has no instructions"},
		"too many":      {append([]zipEntry{skill}, floodEntries(MaxSkillFiles)...), "holds more than 1000 files and folders"},
		"device":        {[]zipEntry{skill, {name: "s/pipe", mode: fs.ModeNamedPipe | 0o644}}, "is not a regular file"},
		"bad zip":       {nil, "not a readable zip"},
		"invalid name!": {[]zipEntry{{name: "bad name/SKILL.md", body: "x"}}, `skill name "bad name"`},
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
