package app

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
)

// committedBindings is the generated TypeScript the frontend builds with
// (scripts/app-bindings.sh writes it).
const committedBindings = "../frontend/src/wailsjs"

// TestBindingsInSync builds the bindings generator (app/internal/bindgen,
// the bindings tag), runs it in a temporary folder and compares every
// file it writes with the committed frontend/src/wailsjs: a bound method
// added, removed or changed without running scripts/app-bindings.sh
// fails here, naming the file. Line ends are compared as LF (a Windows
// checkout may have CRLF).
func TestBindingsInSync(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH (a cross-built test binary, as under Wine): the Linux run compares the bindings")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bindgen")
	if runtime.GOOS == "windows" {
		bin += ".exe"
	}
	build := exec.CommandContext(t.Context(), goBin, "build", "-tags", "bindings", "-o", bin, "./internal/bindgen")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build -tags bindings ./app/internal/bindgen: %v\n%s", err, out)
	}
	// The generator writes to the wailsjsdir of the wails.json in its
	// working folder: the project's, pointed at the temporary folder.
	project, err := os.ReadFile("../wails.json")
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(project, &cfg); err != nil {
		t.Fatalf("wails.json: %v", err)
	}
	cfg["wailsjsdir"] = "."
	b, _ := json.Marshal(cfg)
	if err := os.WriteFile(filepath.Join(dir, "wails.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	gen := exec.CommandContext(t.Context(), bin)
	gen.Dir = dir
	if out, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("the bindings generator: %v\n%s", err, lastLines(out, 20))
	}

	want, got := readTree(t, filepath.Join(dir, "wailsjs")), readTree(t, committedBindings)
	if len(want) < 10 {
		t.Fatalf("the generator wrote only %d files", len(want))
	}
	for _, name := range sortedKeys(want) {
		c, ok := got[name]
		switch {
		case !ok:
			t.Errorf("frontend/src/wailsjs/%s is missing: run scripts/app-bindings.sh", name)
		case !bytes.Equal(c, want[name]):
			t.Errorf("frontend/src/wailsjs/%s differs from what the generator writes: run scripts/app-bindings.sh", name)
		}
	}
	for _, name := range sortedKeys(got) {
		if _, ok := want[name]; !ok {
			t.Errorf("frontend/src/wailsjs/%s is not generated any more: run scripts/app-bindings.sh (it removes it)", name)
		}
	}
}

// readTree returns the files under root by slash path, their line ends
// as LF.
func readTree(t *testing.T, root string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// lastLines is the end of a long output (the generator prints every type
// it converts).
func lastLines(b []byte, n int) []byte {
	lines := bytes.Split(bytes.TrimRight(b, "\n"), []byte("\n"))
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return bytes.Join(lines, []byte("\n"))
}
