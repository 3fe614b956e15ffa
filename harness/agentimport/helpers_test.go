package agentimport_test

import (
	"archive/zip"
	"os"
	"testing"
)

// zipSkill writes a zip at path holding the skill folder name with
// SKILL.md text.
func zipSkill(t *testing.T, path, name, text string) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	w, err := zw.Create(name + "/SKILL.md")
	if err == nil {
		_, err = w.Write([]byte(text))
	}
	if err == nil {
		err = zw.Close()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return path
}
