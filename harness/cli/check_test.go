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

// checkCommand writes a bundle "user" selecting tool into dir/coworkers and
// returns `openworker check` of that folder with servers.
func checkCommand(dir, tool, servers string) *exec.Cmd {
	cw := filepath.Join(dir, "coworkers", "user", "coworker")
	os.MkdirAll(cw, 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: user\nname: User\nversion: 1.0.0\n---\nUse it.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version": 3, "tools": ["`+tool+`"]}`), 0o644)
	return exec.Command(binary, "check", "--coworkers", filepath.Join(dir, "coworkers"), "--servers", servers)
}

// TestCheckInterrupted: Ctrl-C while a provider starts ends `check` with
// exit 1 and says it was interrupted; it does not report the bundles it
// did not finish as broken (exit 2 means bad input).
func TestCheckInterrupted(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started") // a FIFO: reading it waits for the provider's start
	if err := syscall.Mkfifo(started, 0o600); err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(dir, "servers.json")
	os.WriteFile(servers, []byte(`{"servers": {"slow": {"transport": "stdio", "command": "sh", "args": ["-c", "echo x > `+started+`; exec sleep 60"]}}}`), 0o644)
	cmd := checkCommand(dir, "slow.anything", servers)
	cmd.Env = binEnv(t)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	read := make(chan struct{})
	go func() { os.ReadFile(started); close(read) }()
	select {
	case <-read:
	case <-time.After(hangGuard):
		cmd.Process.Kill()
		t.Fatalf("the provider never started; stderr: %s", stderr.String())
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

// TestCheckPrintsTheFix: the text report of a bundle whose provider does
// not start names where servers.json defines it and prints the fix, as
// --json does.
func TestCheckPrintsTheFix(t *testing.T) {
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	os.WriteFile(servers, []byte("{\"servers\": {\n  \"gone\": {\"transport\": \"stdio\", \"command\": \"sh\", \"args\": [\"-c\", \"echo no config >&2; exit 3\"]}}}"), 0o644)
	cmd := checkCommand(dir, "gone.anything", servers)
	cmd.Env = binEnv(t)
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("check = %v; want exit 2 for a broken bundle", err)
	}
	for _, want := range []string{"broken  user", `(from ` + servers + `:2) exited during start`, "no config",
		`fix: MCP provider "gone" did not start or list its tools: check its command, arguments and environment at ` + servers + ":2"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("check printed:\n%s\nwant it to contain %q", out, want)
		}
	}
}

// TestCheckWarnsOfFiles: a file in the bundles folder (a zipped bundle, a
// note) is not silently ignored: check says it was skipped and why.
func TestCheckWarnsOfFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "coworkers")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "helper.zip"), []byte("PK"), 0o644)
	os.WriteFile(filepath.Join(dir, ".DS_Store"), []byte("x"), 0o644)
	cmd := exec.Command(binary, "check", "--coworkers", dir)
	cmd.Env = binEnv(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("check = %v", err)
	}
	if !strings.Contains(string(out), "skipped "+filepath.Join(dir, "helper.zip")) || !strings.Contains(string(out), "a file, not a coworker folder") ||
		strings.Contains(string(out), ".DS_Store") {
		t.Errorf("check printed:\n%s\nwant helper.zip named as skipped, and nothing of .DS_Store", out)
	}
}
