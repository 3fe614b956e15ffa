package app

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestInstanceLockIsExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", lockFileName)
	first, err := acquireInstanceLock(path)
	if err != nil {
		t.Fatal(err)
	}
	// A second acquisition in this process (a second open file) fails.
	if l, err := acquireInstanceLock(path); !errors.Is(err, ErrAlreadyRunning) {
		l.Release()
		t.Fatalf("second acquisition = %v, want ErrAlreadyRunning", err)
	} else if !strings.Contains(err.Error(), "process "+strconv.Itoa(os.Getpid())) {
		t.Errorf("error %q does not name the holder's pid", err)
	}
	// So does one in another process.
	if out, code := lockChild(t, path); code != 3 {
		t.Fatalf("child while held: exit %d, %s; want 3 (already running)", code, out)
	}
	if err := first.Release(); err != nil {
		t.Fatal(err)
	}
	if out, code := lockChild(t, path); code != 0 {
		t.Fatalf("child after release: exit %d, %s; want 0 (acquired)", code, out)
	}
	again, err := acquireInstanceLock(path)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again.Release()
}

// lockChild runs TestInstanceLockChild in a child process on path and
// returns its output and exit code.
func lockChild(t *testing.T, path string) (string, int) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestInstanceLockChild$")
	cmd.Env = append(os.Environ(), "OPENWORKER_TEST_LOCK="+path)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return string(out), ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// TestInstanceLockChild is the child of TestInstanceLockIsExclusive: exit 0
// when it got the lock, 3 when it is held, 1 on another error.
func TestInstanceLockChild(t *testing.T) {
	path := os.Getenv("OPENWORKER_TEST_LOCK")
	if path == "" {
		t.Skip("only run as the child of TestInstanceLockIsExclusive")
	}
	l, err := acquireInstanceLock(path)
	switch {
	case errors.Is(err, ErrAlreadyRunning):
		os.Exit(3)
	case err != nil:
		os.Stderr.WriteString(err.Error())
		os.Exit(1)
	}
	l.Release()
	os.Exit(0)
}
