package extension

import (
	"archive/zip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/extension/manifest"
)

// zipBundle writes a binary extension name@version as an .mcpb with
// archive/zip (the hostile author's tool): its manifest is the base one
// with edit applied, and server/run.sh an executable script.
func zipBundle(t *testing.T, name, version string, edit func(m map[string]any)) string {
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
	w, _ := zw.Create("manifest.json")
	w.Write(raw)
	h := &zip.FileHeader{Name: "server/run.sh", Method: zip.Deflate}
	h.SetMode(0o755)
	w, _ = zw.CreateHeader(h)
	w.Write([]byte("#!/bin/sh\nexec cat >/dev/null\n"))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

func testHost(t *testing.T) manifest.Host {
	home := t.TempDir()
	return manifest.Host{GOOS: "", Home: home, Desktop: home, Documents: home, Downloads: home}
}

// Installs of one file by several processes at once (here Stores of the
// same folder, each with its own lock handle) take turns: every one
// succeeds, and the record names a complete version folder. Without the
// folder's lock they shared one staging folder and one could remove the
// folder another had just put in place.
func TestHostileConcurrentInstalls(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "extensions")
	file := zipBundle(t, "race", "1.0.0", nil)
	host := testHost(t)
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &Store{Dir: dir, Secrets: &MemorySecrets{}}
			in, err := s.Inspect(file, InspectOptions{})
			if err == nil {
				_, err = s.Install(in, nil, host)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("install %d: %v", i, err)
		}
	}
	s := &Store{Dir: dir}
	r, err := s.Get("race")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "server", "run.sh")); err != nil {
		t.Fatalf("the record names %s, which is not complete: %v", r.Dir, err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "race"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "1.0.0 installed.json" {
		t.Errorf("the extension's folder holds %q, want the version and its record only", names)
	}
}
