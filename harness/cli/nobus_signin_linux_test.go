package cli_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testwait"

	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestSignInRunWithoutBusLeavesNoProcess: `openworker run` signs in to a
// remote MCP server (OAuth on 127.0.0.1) with no D-Bus session bus. The
// keychain counts as absent, so nothing autolaunches a bus (a dbus-launch
// on the PATH that would leave a daemon marks that it ran), the tokens go
// to the encrypted file, the call succeeds, and no process the run
// started outlives it (docs/mcp.md#without-a-keychain).
func TestSignInRunWithoutBusLeavesNoProcess(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(dir, "dbus-launch-ran")
	write(t, filepath.Join(bin, "dbus-launch"), "#!/bin/sh\ntouch "+marker+"\n(setsid sleep 600 &)\necho DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent\n")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(bin, "xdg-open"), "#!/bin/sh\n"+browserEnv+"=1 exec '"+self+"' \"$1\"\n")
	for _, f := range []string{"dbus-launch", "xdg-open"} {
		if err := os.Chmod(filepath.Join(bin, f), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	as := oauthtest.NewAuthServer(t, oauthtest.Options{})
	ms := oauthtest.NewMCPServer(t, as)
	coworkers, servers := signInSetup(t, ms)
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "remote__whoami", Arguments: `{}`}}},
		modeltest.Reply{Text: "Done."},
	)
	var env []string
	for _, kv := range binEnv(t) {
		if !strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") && !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") &&
			!strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "BROWSER=") && !strings.HasPrefix(kv, "DISPLAY=") {
			env = append(env, kv)
		}
	}
	mark := "OW_NOBUS_SIGNIN=" + filepath.Base(dir)
	env = append(env, "PATH="+bin+":"+os.Getenv("PATH"), "XDG_RUNTIME_DIR="+dir, mark)
	before := countProcs(t, mark)

	cmd := exec.Command(binary, "run", "--coworkers", coworkers, "--coworker", "helper", "--servers", servers,
		"--db", filepath.Join(dir, "journal.db"), "--base-url", m.URL, "--model", "test", "who am I?")
	cmd.Env = env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(3 * time.Minute):
		cmd.Process.Kill()
		<-done
		t.Fatalf("run did not end within 3 minutes:\n%s", out.String())
	}
	if err != nil || ms.Calls() != 1 || as.Count("code") != 1 {
		t.Fatalf("run = %v, calls %d, code exchanges %d:\n%s", err, ms.Calls(), as.Count("code"), out.String())
	}
	if !strings.Contains(out.String(), "the OS keychain is not available") {
		t.Errorf("run did not say the keychain is absent:\n%s", out.String())
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("dbus-launch ran: the keychain library autolaunched a bus")
	}
	// What the run started has ended when it did; give the kernel a
	// generous moment to reap on a busy machine.
	var after int
	testwait.For(30*time.Second, func() bool { after = countProcs(t, mark); return after <= before })
	t.Logf("%d processes carried the test's mark before the run, %d after", before, after)
	if after > before {
		t.Errorf("%d processes before the run, %d after: the run left some behind", before, after)
	}
}
