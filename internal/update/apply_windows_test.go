package update_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testwait"

	"github.com/openworker/desktop/internal/update"
)

// installerEnv names the file the stand-in installer writes its arguments
// to. The stand-in is this test binary itself, staged as the update's
// -setup.exe: started with installerEnv set, it records its arguments
// and exits before any test runs (init below).
const installerEnv = "OPENWORKER_UPDATE_TEST_INSTALLER"

func init() {
	marker := os.Getenv(installerEnv)
	if marker == "" {
		return
	}
	args := ""
	for i, a := range os.Args[1:] {
		if i > 0 {
			args += " "
		}
		args += a
	}
	if err := os.WriteFile(marker+".tmp", []byte(args), 0o644); err == nil {
		os.Rename(marker+".tmp", marker)
	}
	os.Exit(0)
}

// On Windows the staged installer is started silently (/S) and detached,
// told to start the app again (/START) when the app applies it,
// the installed exe is left to it, the stage's record is forgotten at
// once, and the installer's file is removed at a later start once it has
// exited (docs/update.md#apply). Runs under Wine in CI
// (scripts/wine/unit-steps.sh).
func TestApplyStagedStartsTheInstaller(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	setup, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(t.TempDir(), "installer-ran")
	t.Setenv(installerEnv, marker)
	r := newRelease(t, "1.4.0", map[string]string{"windows-amd64": string(setup)})
	stage := stageFor(t, r, "windows-amd64")
	exe := filepath.Join(t.TempDir(), "openworker.exe")
	os.WriteFile(exe, []byte("old"), 0o755)

	a, ok, err := update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "windows-amd64", Restart: true})
	if err != nil || !ok || !a.Installer || a.Version != "1.4.0" {
		t.Fatalf("ApplyStaged = %+v %v %v", a, ok, err)
	}
	if _, ok, _ := update.ReadStaged(stage); ok {
		t.Error("the staged record is still there after the installer started")
	}
	var args []byte
	waitFor(t, "the installer to run", func() bool {
		args, err = os.ReadFile(marker)
		return err == nil
	})
	if string(args) != "/S /START" {
		t.Errorf("the installer's arguments = %q; want /S /START", args)
	}
	if b, _ := os.ReadFile(exe); string(b) != "old" {
		t.Errorf("the installed exe = %q; the installer, not ApplyStaged, replaces it", b)
	}
	// The next start removes the installer's file once it has exited.
	waitFor(t, "the installer's file to be removed at a later start", func() bool {
		_, ok, err := update.ApplyStaged(stage, update.Target{Exe: exe, Platform: "windows-amd64"})
		left, _ := os.ReadDir(stage)
		return !ok && err == nil && len(left) == 0
	})
}

// waitFor polls cond for up to 120 s (a busy machine, Wine starting a
// process), failing the test with what it waited for.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, 120*time.Second, what, cond)
}
