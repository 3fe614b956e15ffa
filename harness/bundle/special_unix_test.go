//go:build unix

package bundle

import (
	"errors"
	"net"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// hangGuard bounds a wait that only catches a hang: a named pipe opened
// for reading blocks until a writer comes, which is never. It is far
// longer than loading a bundle takes on a loaded machine.
const hangGuard = 30 * time.Second

// within runs f and fails the test if it has not returned within hangGuard.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatalf("%s still blocked after %v", what, hangGuard)
	}
}

func TestSpecialFilesDoNotBlock(t *testing.T) {
	bundles := t.TempDir()
	dir := filepath.Join(bundles, "cw")
	writeAt(t, dir, map[string]string{"coworker/tools.json": emptyTools})
	manifest := filepath.Join(dir, "coworker", "manifest.md")
	if err := syscall.Mkfifo(manifest, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	// Entries of the bundles folder and of skills/ that are pipes or
	// sockets are not bundles or skills, and must not be opened.
	if err := syscall.Mkfifo(filepath.Join(bundles, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("unix", filepath.Join(bundles, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var set *Set
	within(t, "LoadDir", func() { set, err = LoadDir(bundles) })
	if err != nil || len(set.Bundles) != 0 || len(set.Errors) != 1 {
		t.Fatalf("LoadDir = %+v, %v; want one error", set, err)
	}
	le := set.Errors[0]
	if le.File != manifest || le.Msg != "manifest.md is not a regular file (it is a named pipe)" || le.Fix == "" {
		t.Errorf("error = %q", le)
	}

	// A pipe as SKILL.md, found by walking skills/.
	dir2 := filepath.Join(t.TempDir(), "cw")
	writeAt(t, dir2, map[string]string{"coworker/manifest.md": goodManifest, "coworker/tools.json": emptyTools, "coworker/skills/s/.keep": ""})
	skill := filepath.Join(dir2, "coworker", "skills", "s", "SKILL.md")
	if err := syscall.Mkfifo(skill, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir2, "coworker", "skills", "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	var b *Bundle
	within(t, "Load", func() { b, err = Load(dir2) })
	var le2 *LoadError
	if !errors.As(err, &le2) || b != nil || le2.File != skill || le2.Msg != "SKILL.md is not a regular file (it is a named pipe)" {
		t.Errorf("Load = %v, %v", b, err)
	}
}
