package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzManifest: an .mcpb manifest.json parses or gives an error, never a
// panic (scripts/fuzz.sh).
func FuzzManifest(f *testing.F) {
	filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".json" {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse(data, "manifest.json")
	})
}
