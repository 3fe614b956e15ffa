//go:build unix

package cli_test

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestCheckInterrupted: Ctrl-C while a provider starts ends `check` with
// exit 1 and says it was interrupted; it does not report the bundles it
// did not finish as broken (exit 2 means bad input).
func TestCheckInterrupted(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	servers := filepath.Join(dir, "servers.json")
	os.WriteFile(servers, []byte(`{"servers": {"slow": {"transport": "stdio", "command": "sh", "args": ["-c", "echo x > `+started+`; exec sleep 60"]}}}`), 0o644)
	cw := filepath.Join(dir, "coworkers", "waiter", "coworker")
	os.MkdirAll(cw, 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: waiter\nname: Waiter\nversion: 1.0.0\n---\nWait.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version": 3, "tools": ["slow.anything"]}`), 0o644)
	cmd := exec.Command(binary, "check", "--coworkers", filepath.Join(dir, "coworkers"), "--servers", servers)
	cmd.Env = binEnv(t)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(started); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatalf("the provider never started; stderr: %s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	var err error
	select {
	case err = <-exited:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatal("check did not stop after SIGINT")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("exit = %v; want exit status 1", err)
	}
	if !strings.Contains(stderr.String(), "check was interrupted") || strings.Contains(stdout.String()+stderr.String(), "broken") {
		t.Errorf("stdout %q, stderr %q; want the interruption said and no bundle called broken", stdout.String(), stderr.String())
	}
}
