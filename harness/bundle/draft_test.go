package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// copyBundle copies testdata bundle name into a temp coworkers folder and
// returns the copy's folder.
func copyBundle(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.CopyFS(dst, os.DirFS(filepath.Join(testBundles, name))); err != nil {
		t.Fatal(err)
	}
	return dst
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadDraftSaveUnchanged(t *testing.T) {
	dir := copyBundle(t, "research")
	m0 := readFile(t, filepath.Join(dir, "coworker", "manifest.md"))
	t0 := readFile(t, filepath.Join(dir, "coworker", "tools.json"))
	d, problems, err := ReadDraft(dir)
	if err != nil || len(problems) > 0 {
		t.Fatalf("ReadDraft = %v, %v", problems, err)
	}
	want := Draft{ID: "research", Name: "Research assistant", Description: "Finds sources and summarizes them.\n", Version: "1.2.0",
		Instructions: "# Research\n\nYou help the user research a topic. Cite every source.",
		Tools:        []string{"example.web_search", "acer.battery_get", "files.dir.list"},
		Policy:       map[string]string{"example.web_search": "allow", "acer.battery_get": "deny", "*": "ask"},
		Skills:       []string{"citations", "outline"}}
	if diff := cmp.Diff(want, d); diff != "" {
		t.Fatalf("ReadDraft (-want +got):\n%s", diff)
	}
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "coworker", "manifest.md")); got != m0 {
		t.Errorf("manifest changed by an unchanged save:\n%s", got)
	}
	if got := readFile(t, filepath.Join(dir, "coworker", "tools.json")); got != t0 {
		t.Errorf("tools.json changed by an unchanged save:\n%s", got)
	}
	d.Name = "Research: helper"
	d.Tools = d.Tools[:2]
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	got := readFile(t, filepath.Join(dir, "coworker", "manifest.md"))
	if wantM := strings.Replace(m0, "name: Research assistant", `name: "Research: helper"`, 1); got != wantM {
		t.Errorf("manifest after renaming:\n%s\nwant\n%s", got, wantM)
	}
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
}
