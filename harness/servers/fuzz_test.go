package servers

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzServersConfig parses the input as a servers file of every dialect
// (and detected from content): entries or a positioned error, never a
// panic (scripts/fuzz.sh).
func FuzzServersConfig(f *testing.F) {
	filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Ext(p) == ".json" {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	env := func(string) (string, bool) { return "value", true }
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, format := range append(ConfigFormats(), "") {
			ParseConfig("servers.json", data, &ConfigOptions{Format: format, LookupEnv: env})
		}
	})
}
