package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/openworker/desktop/internal/testbin"
)

// TestProviderDiesWithOpenWorker SIGKILLs a process that has started a
// stdio provider and checks that the provider is gone too, not adopted by
// init (PR_SET_PDEATHSIG, proc_deathsig_linux.go).
func TestProviderDiesWithOpenWorker(t *testing.T) { diesWithOpenWorker(t, "parent") }

// TestSandboxedProviderDiesWithOpenWorker: so does a provider in the
// default sandbox, whose launcher starts in a user namespace of its own
// and changes its capabilities (either could clear the parent-death
// signal).
func TestSandboxedProviderDiesWithOpenWorker(t *testing.T) { diesWithOpenWorker(t, "sandboxparent") }

func diesWithOpenWorker(t *testing.T, role string) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(t.TempDir(), "provider.pid")
	providerPID := testbin.PIDFromFIFO(t, pidFile, hangGuard)
	parent := exec.Command(exe, "-test.run=^$")
	parent.Env = append(os.Environ(), serverEnv+"="+role, "OW_ORPHAN_PIDFILE="+pidFile, "GORACE=atexit_sleep_ms=0")
	if err := parent.Start(); err != nil {
		t.Fatal(err)
	}
	defer parent.Process.Kill()
	pid := providerPID()
	exited, err := testbin.ExitWatch(pid, hangGuard)
	if err != nil {
		t.Fatal(err)
	}
	parent.Process.Kill()
	parent.Wait()
	if err := exited(); err != nil {
		t.Fatalf("the provider outlived its killed parent: %v", err)
	}
}
