package cli_test

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testbin"
)

// TestKilledRunLeavesNoProvider SIGKILLs `openworker run` while its stdio
// MCP provider runs (the model, on 127.0.0.1, never answers, so the turn
// waits) and expects the provider gone too: on Linux every stdio provider
// gets PR_SET_PDEATHSIG (docs/mcp.md), so init does not adopt it.
func TestKilledRunLeavesNoProvider(t *testing.T) {
	const guard = 30 * time.Second
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "provider.pid")
	providerPID := testbin.PIDFromFIFO(t, pidFile, guard)
	// The provider writes its pid, serves the built-in device tools and,
	// when its stdin closes, lingers (as wrappers such as npx can): only
	// PR_SET_PDEATHSIG ends it when run dies.
	entry, _ := json.Marshal(map[string]any{"command": "sh", "args": []string{"-c",
		fmt.Sprintf("echo $$ > %s; %s mcp serve device; exec sleep 3600", pidFile, binary)}})
	servers := filepath.Join(dir, "servers.json")
	if err := os.WriteFile(servers, []byte(`{"servers": {"orphan": `+string(entry)+`}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	cw := filepath.Join(dir, "coworkers", "sysinfo", "coworker")
	os.MkdirAll(cw, 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: sysinfo\nname: System Info\nversion: 1.0.0\n---\nAnswer.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version":3,"tools":["orphan.system_info_get"]}`), 0o644)

	// A model server that takes the request and never answers.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	run := exec.Command(binary, "run", "--db", filepath.Join(dir, "journal.db"), "--servers", servers,
		"--coworkers", filepath.Join(dir, "coworkers"), "--coworker", "sysinfo",
		"--base-url", "http://"+ln.Addr().String()+"/v1", "--model", "m", "--approve", "bypass", "hello")
	run.Env = binEnv(t)
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer run.Process.Kill()
	pid := providerPID()
	exited, err := testbin.ExitWatch(pid, guard)
	if err != nil {
		t.Fatal(err)
	}
	if err := run.Process.Kill(); err != nil { // SIGKILL: run gets no chance to stop its providers
		t.Fatal(err)
	}
	run.Wait()
	if err := exited(); err != nil {
		t.Fatalf("the provider (pid %d) outlived the killed run: %v", pid, err)
	}
}
