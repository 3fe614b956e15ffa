package bundle

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBundle writes a bundle folder named folder under a temp dir.
func writeBundle(t *testing.T, folder string, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), folder)
	writeAt(t, dir, files)
	return dir
}

// writeAt writes files (slash paths relative to dir) under dir.
func writeAt(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

const emptyTools = `{"version": 3, "tools": []}`

func TestHostileStrings(t *testing.T) {
	tests := []struct {
		name      string
		frontID   string // YAML scalar for id
		frontName string // YAML scalar for name
		wantName  string // kept verbatim when ok
		frag      string // error fragment when not ok
	}{
		{"emoji name kept", `ok`, `"Helper 🤖👩‍💻"`, "Helper 🤖👩‍💻", ""},
		{"RTL letters kept", `ok`, `"مساعد עוזר"`, "مساعد עוזר", ""},
		{"NUL in id", `"o\0k"`, `X`, "", `id "o\x00k" is not valid`},
		{"control in id", `"o\x07k"`, `X`, "", `id "o\ak" is not valid`},
		{"RTL override in id", `"ok\u202E"`, `X`, "", `id "ok\u202e" is not valid`},
		{"emoji in id", `"ok🤖"`, `X`, "", `id "ok\U0001f916" is not valid`},
		{"uppercase id", `OK`, `X`, "", `id "OK" is not valid`},
		{"id too long", strings.Repeat("a", 65), `X`, "", "is not valid"},
		{"escape in name", `"a\eb"`, "", "", "name holds the control character U+001B"},
		{"newline in name", `"a\nb"`, "", "", "name holds the control character U+000A"},
		{"LRI in name", `"a\u2066b"`, "", "", "bidirectional formatting character U+2066"},
		{"blank name", `ok`, `"   "`, "", "front matter has no name"},
		{"long name", `ok`, strings.Repeat("é", MaxNameChars+1), "", "name is 129 characters long; the limit is 128"},
		{"number name", `ok`, `42`, "", "name must be text, not integer"},
		{"bool name", `ok`, `true`, "", "name must be text, not bool"},
		{"map id", `{a: b}`, `X`, "", "id must be text"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := tc.frontName
			if name == "" {
				// the case is about the name: take the id field's value for it
				name, tc.frontID = tc.frontID, "ok"
			}
			manifest := "---\nid: " + tc.frontID + "\nname: " + name + "\n---\nYou help.\n"
			folder := "ok"
			if tc.frag != "" && strings.Contains(tc.frag, "id ") {
				folder = "folder"
			}
			dir := writeBundle(t, folder, map[string]string{"coworker/manifest.md": manifest, "coworker/tools.json": emptyTools})
			b, err := Load(dir)
			if tc.frag == "" {
				if err != nil {
					t.Fatalf("Load = %v", err)
				}
				if b.Name != tc.wantName {
					t.Errorf("Name = %q, want %q", b.Name, tc.wantName)
				}
				return
			}
			var le *LoadError
			if !errors.As(err, &le) || !strings.Contains(le.Error(), tc.frag) || le.Line == 0 {
				t.Fatalf("Load = %v, want a positioned error containing %q", err, tc.frag)
			}
			// The message must be printable: no raw control or bidi characters.
			if err := checkText("error", le.Error(), false, 1<<20); err != nil {
				t.Errorf("error message is not safe to print: %v: %q", err, le.Error())
			}
		})
	}
}

func TestOversizeFiles(t *testing.T) {
	manifest := "---\nid: big\nname: Big\n---\nYou help.\n"
	tests := []struct {
		name, file string
		files      map[string]string
		frag       string
	}{
		{"manifest", "coworker/manifest.md", map[string]string{
			"coworker/manifest.md": manifest + strings.Repeat("x", MaxMarkdownBytes), "coworker/tools.json": emptyTools},
			"the limit is 262144 bytes"},
		{"tools.json", "coworker/tools.json", map[string]string{
			"coworker/manifest.md": manifest, "coworker/tools.json": `{"version": 3, "tools": []}` + strings.Repeat(" ", MaxToolsFileBytes)},
			"the limit is 1048576 bytes"},
		{"SKILL.md", "coworker/skills/s/SKILL.md", map[string]string{
			"coworker/manifest.md": manifest, "coworker/tools.json": emptyTools,
			"coworker/skills/s/SKILL.md": strings.Repeat("y", MaxMarkdownBytes+1)},
			"the limit is 262144 bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeBundle(t, "big", tc.files)
			_, err := Load(dir)
			var le *LoadError
			if !errors.As(err, &le) || le.File != filepath.Join(dir, filepath.FromSlash(tc.file)) || !strings.Contains(le.Msg, tc.frag) {
				t.Errorf("Load = %v, want an error on %s containing %q", err, tc.file, tc.frag)
			}
		})
	}
	// Exactly at the limit is fine.
	body := strings.Repeat("x", MaxMarkdownBytes-len(manifest)+len("You help.\n"))
	dir := writeBundle(t, "big", map[string]string{
		"coworker/manifest.md": strings.TrimSuffix(manifest, "You help.\n") + body, "coworker/tools.json": emptyTools})
	if _, err := Load(dir); err != nil {
		t.Errorf("manifest of exactly %d bytes: %v", MaxMarkdownBytes, err)
	}
}

func TestDigestChangesWithEveryFile(t *testing.T) {
	files := map[string]string{
		"coworker/manifest.md":        "---\nid: d\nname: D\n---\nYou help.\n",
		"coworker/tools.json":         emptyTools,
		"coworker/skills/s/SKILL.md":  "Skill.\n",
		"coworker/skills/s/notes.txt": "not part of the bundle",
	}
	base := digestOf(t, files)
	if base != digestOf(t, files) {
		t.Fatal("digest is not stable")
	}
	for rel, text := range files {
		changed := map[string]string{}
		for k, v := range files {
			changed[k] = v
		}
		changed[rel] = text + "\n" // same meaning, other bytes
		d := digestOf(t, changed)
		if rel == "coworker/skills/s/notes.txt" {
			if d != base {
				t.Errorf("digest changed with %s, which is not loaded", rel)
			}
		} else if d == base {
			t.Errorf("digest did not change with %s", rel)
		}
	}
}

func digestOf(t *testing.T, files map[string]string) string {
	t.Helper()
	b, err := Load(writeBundle(t, "d", files))
	if err != nil {
		t.Fatal(err)
	}
	return b.Digest
}

// FuzzManifest feeds arbitrary manifest.md bytes to Load: it must return a
// bundle or a positioned *LoadError, and never panic.
func FuzzManifest(f *testing.F) {
	for _, s := range []string{
		"---\nid: f\nname: F\n---\nBody\n",
		"---\nid: f\nname: F\npolicy: {a.b: allow}\nskills: []\n---\nBody\n",
		"---\nid: &a f\n---\n",
		"---\n- [\n---\n",
		"---\nid: f\nname: F\n",
		"---\r\nid: f\r\nname: \"\\u202e\"\r\n---\r\nx",
		"no front matter",
	} {
		f.Add([]byte(s))
	}
	dir := filepath.Join(f.TempDir(), "f")
	if err := os.MkdirAll(filepath.Join(dir, "coworker"), 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "coworker", "tools.json"), []byte(emptyTools), 0o600); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "coworker", "manifest.md"), data, 0o600); err != nil {
			t.Fatal(err)
		}
		b, err := Load(dir)
		if err == nil {
			if b.ID != "f" || b.Instructions == "" {
				t.Fatalf("loaded %+v", b)
			}
			return
		}
		if _, ok := err.(*LoadError); !ok {
			t.Fatalf("error %T: %v", err, err)
		}
	})
}

// Deep YAML would make the recursive YAML parser slow or overflow its stack;
// it is refused up front, with a position. "Up front" is what the error
// shows: its message and position come from the depth (or size) check
// that runs before go-yaml, which reports neither; no clock is read.
func TestDeepFrontMatter(t *testing.T) {
	deep := fmt.Sprintf("front matter is nested more than %d levels deep", maxYAMLDepth)
	tests := []struct {
		name, fm  string
		line, col int
		msg       string
	}{
		{"flow sequences", "id: " + strings.Repeat("[", 60000), 2, 4 + maxYAMLDepth + 1, deep},
		{"flow maps", "id: ok\nname: " + strings.Repeat("{a: ", 200), 3, 6 + 4*maxYAMLDepth + 1, deep},
		{"block sequences", "skills:\n" + strings.Repeat("- ", 30000) + "x", 3, 2*maxYAMLDepth + 1, deep},
		{"too large", "description: " + strings.Repeat("x", MaxFrontMatterBytes), 2, 1, fmt.Sprintf("the limit is %d", MaxFrontMatterBytes)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeBundle(t, "ok", map[string]string{"coworker/manifest.md": "---\n" + tc.fm + "\n---\nYou help.\n", "coworker/tools.json": emptyTools})
			_, err := Load(dir)
			var le *LoadError
			if !errors.As(err, &le) || le.Line != tc.line || le.Col != tc.col || !strings.Contains(le.Msg, tc.msg) {
				t.Fatalf("Load = %v, want an error at %d:%d saying %q", err, tc.line, tc.col, tc.msg)
			}
		})
	}
	// Nesting at the limit still parses (and fails only on meaning).
	dir := writeBundle(t, "ok", map[string]string{"coworker/manifest.md": "---\nid: ok\nname: X\nskills: " + strings.Repeat("[", maxYAMLDepth) + strings.Repeat("]", maxYAMLDepth) + "\n---\nYou help.\n", "coworker/tools.json": emptyTools})
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "skills must be a list of skill folder names") {
		t.Errorf("Load(depth %d) = %v", maxYAMLDepth, err)
	}
}
