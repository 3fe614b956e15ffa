package bundle

import (
	"os"
	"path/filepath"
	"testing"
)

// seeds adds every file named name under testdata as a seed.
func seeds(f *testing.F, name string) {
	filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
}

// FuzzToolsJSON: tools.json of every version parses to a selection or a
// positioned error, never a panic (scripts/fuzz.sh).
func FuzzToolsJSON(f *testing.F) {
	seeds(f, "tools.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		parseSelection("tools.json", data)
	})
}

// FuzzSkillFrontMatter loads a bundle whose one skill's SKILL.md is the
// input (its front matter, YAML and body); the manifest is
// FuzzManifest's (hostile_test.go).
func FuzzSkillFrontMatter(f *testing.F) {
	seeds(f, "SKILL.md")
	dir := filepath.Join(f.TempDir(), "f")
	cw := filepath.Join(dir, "coworker")
	skill := filepath.Join(cw, "skills", "s")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		f.Fatal(err)
	}
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: f\nname: F\n---\nBody\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version": 3, "tools": []}`), 0o644)
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		Load(dir)
	})
}
