package manifest

import (
	"os"
	"path/filepath"
	"testing"
)

// The manifests in testdata/valid pass `mcpb validate` of
// @anthropic-ai/mcpb 2.1.2 (init-0.2.json is what `mcpb init -y` writes);
// Parse must accept every one of them.
func TestParseValidManifests(t *testing.T) {
	files, err := filepath.Glob("testdata/valid/*.json")
	if err != nil || len(files) < 6 {
		t.Fatalf("testdata/valid: %v files, %v", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Parse(data, "manifest.json")
			if err != nil {
				t.Fatalf("Parse:\n%v", err)
			}
			if m.Name == "" || m.Version == "" || m.Server.MCPConfig == nil || m.ManifestVersion == "" {
				t.Fatalf("incomplete: %+v", m)
			}
		})
	}
}
