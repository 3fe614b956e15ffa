package extensiontest

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// Zip writes a binary extension name@version as an .mcpb with archive/zip,
// the way a hostile author (or a tool other than mcpb) would, in a new
// temporary folder, and returns its path. The manifest is a minimal valid
// 0.3 one (a binary server ${__dirname}/server/run.sh, no user_config)
// with edit applied to it as a JSON object; server/run.sh is an
// executable shell script that reads stdin and answers nothing.
func Zip(t testing.TB, name, version string, edit func(m map[string]any)) string {
	t.Helper()
	m := map[string]any{
		"manifest_version": "0.3", "name": name, "version": version, "description": "a test bundle",
		"author": map[string]any{"name": "Hostile Author"},
		"server": map[string]any{"type": "binary", "entry_point": "server/run.sh",
			"mcp_config": map[string]any{"command": "${__dirname}/server/run.sh", "args": []any{}}},
	}
	if edit != nil {
		edit(m)
	}
	raw, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name+"-"+version+".mcpb")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create("manifest.json")
	if err == nil {
		_, err = w.Write(raw)
	}
	if err != nil {
		t.Fatal(err)
	}
	h := &zip.FileHeader{Name: "server/run.sh", Method: zip.Deflate}
	h.SetMode(0o755)
	w, err = zw.CreateHeader(h)
	if err == nil {
		_, err = w.Write([]byte("#!/bin/sh\nexec cat >/dev/null\n"))
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}
