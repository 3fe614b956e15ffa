package cli_test

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// runThenKill starts the openworker binary with args, waits until the
// remote side reports its task started (the task's ID on started) and the
// run's stderr shows a line containing shown, then kills the run with
// SIGKILL and returns the task's ID. The tests of durable handles (MCP
// tasks, A2A tasks) use it to leave a call unknown mid-task.
func runThenKill(t *testing.T, started <-chan string, shown string, args ...string) string {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(binEnv(t), "ANTHROPIC_API_KEY=", "ANTHROPIC_BASE_URL=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	progress := make(chan struct{})
	go func() {
		sc := bufio.NewScanner(stderr)
		closed := false
		for sc.Scan() {
			if strings.Contains(sc.Text(), shown) && !closed {
				close(progress)
				closed = true
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	var task string
	select {
	case task = <-started:
	case <-time.After(hangGuard):
		t.Fatal("the task never started")
	}
	select {
	case <-progress:
	case <-time.After(hangGuard):
		t.Fatalf("run never showed %q", shown)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	return task
}
