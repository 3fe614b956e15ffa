package cli_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// countProcs counts the living processes whose environment holds mark
// (the machine is shared: other processes come and go).
func countProcs(t *testing.T, mark string) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil || strings.Contains(string(b[strings.LastIndexByte(string(b), ')'):]), ") Z") {
			continue
		}
		if env, err := os.ReadFile("/proc/" + e.Name() + "/environ"); err == nil && strings.Contains(string(env), mark) {
			n++
		}
	}
	return n
}

// TestNoBusStartsNoDaemon: without a session bus the keychain library
// would run dbus-launch, whose daemon outlives the run. A dbus-launch on
// the PATH that starts such a daemon and marks that it ran is never
// called by `doctor` (which probes the keychain) or `servers logout`
// (which deletes from it), and no process is left behind
// (docs/mcp.md#without-a-keychain).
func TestNoBusStartsNoDaemon(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	os.MkdirAll(bin, 0o755)
	marker := filepath.Join(dir, "dbus-launch-ran")
	write(t, filepath.Join(bin, "dbus-launch"), "#!/bin/sh\ntouch "+marker+"\n(setsid sleep 600 &)\necho DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent\n")
	os.Chmod(filepath.Join(bin, "dbus-launch"), 0o755)
	servers := filepath.Join(dir, "servers.json")
	write(t, servers, `{"servers": {"remote": {"transport": "streamable_http", "url": "http://127.0.0.1:1/mcp"}}}`)
	var env []string
	for _, kv := range binEnv(t) {
		if !strings.HasPrefix(kv, "DBUS_SESSION_BUS_ADDRESS=") && !strings.HasPrefix(kv, "XDG_RUNTIME_DIR=") && !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+bin+":"+os.Getenv("PATH"), "XDG_RUNTIME_DIR="+dir)
	mark := "OW_NOBUS_TEST=" + filepath.Base(dir)
	env = append(env, mark)
	before := countProcs(t, mark)
	for _, args := range [][]string{
		{"doctor", "--servers", servers, "--db", filepath.Join(dir, "journal.db")},
		{"servers", "logout", "remote", "--servers", servers},
	} {
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		out, _ := cmd.CombinedOutput()
		t.Logf("%v:\n%s", args, out)
		if strings.Contains(string(out), "dbus-launch") {
			t.Errorf("%v mentions dbus-launch: it was tried", args)
		}
	}
	t.Logf("%d processes carry the test's mark before and after", before)
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("dbus-launch ran: the keychain library autolaunched a bus")
	}
	if after := countProcs(t, mark); after > before {
		t.Errorf("%d processes before, %d after", before, after)
	}
}
