package agentimport

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzNames are the file names each imported format is recognised by: a
// Copilot agent and chat mode, a Claude Code subagent (in agents/), a
// Goose recipe and a skill.
var fuzzNames = []string{"x.agent.md", "x.chatmode.md", "agents/x.md", "recipe.yaml", "s/SKILL.md"}

// FuzzImport previews the input as a file of every imported format: a
// plan (with problems) or an error, never a panic (scripts/fuzz.sh).
func FuzzImport(f *testing.F) {
	filepath.WalkDir("testdata/published", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".md") || strings.HasSuffix(p, ".yaml")) {
			if b, err := os.ReadFile(p); err == nil && len(b) < 16<<10 {
				f.Add(b)
			}
		}
		return nil
	})
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		for i, name := range fuzzNames {
			src := filepath.Join(root, "src", name)
			os.MkdirAll(filepath.Dir(src), 0o755)
			if err := os.WriteFile(src, data, 0o644); err != nil {
				t.Fatal(err)
			}
			Preview([]string{src}, &Options{Coworkers: filepath.Join(root, "cw")})
			os.Remove(src)
			_ = i
		}
	})
}
