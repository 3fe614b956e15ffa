// Package testbus gives tests a private D-Bus session bus: a dbus-daemon
// of their own with the configuration in session.conf, which lists no
// service directory, so nothing installed on the machine (a notification
// daemon such as dunst, a keyring) can be activated on it. No test reaches
// the desktop bus of the person running it. Only tests import it.
//
// A package whose tests use the bus calls Isolate at the start of its
// TestMain and Stop at its end; a test that needs the bus calls Session.
package testbus

import (
	"bufio"
	_ "embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// Config is session.conf: the bus configuration without service
// directories. scripts/app-e2e.sh starts its bus with the same file.
//
//go:embed session.conf
var Config []byte

// EnvVar is the variable that names the session bus.
const EnvVar = "DBUS_SESSION_BUS_ADDRESS"

// Bus is a running private bus.
type Bus struct {
	Addr string // the address to connect to (unix:path=…)
	cmd  *exec.Cmd
	dir  string
}

// Start starts a private bus in a new temporary folder: dbus-daemon with
// Config, listening on a socket in that folder. It waits up to two minutes
// for the daemon to print its address (a busy machine is slow to start
// programs). ErrNoDaemon when dbus-daemon is not installed.
func Start() (*Bus, error) {
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		return nil, ErrNoDaemon
	}
	dir, err := os.MkdirTemp("", "openworker-testbus-")
	if err != nil {
		return nil, err
	}
	conf := filepath.Join(dir, "session.conf")
	if err := os.WriteFile(conf, Config, 0o600); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd := exec.Command(bin, "--config-file="+conf, "--nofork", "--print-address=1",
		"--address=unix:path="+filepath.Join(dir, "bus"))
	setDeathSignal(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	b := &Bus{cmd: cmd, dir: dir}
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- strings.TrimSpace(s)
	}()
	select {
	case b.Addr = <-line:
	case <-time.After(2 * time.Minute):
	}
	if b.Addr == "" {
		b.Stop()
		return nil, fmt.Errorf("dbus-daemon printed no address within 2 minutes: %s", strings.TrimSpace(stderr.String()))
	}
	return b, nil
}

// Stop ends the daemon and removes its folder. Safe to call twice.
func (b *Bus) Stop() {
	if b == nil || b.cmd == nil {
		return
	}
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
	b.cmd = nil
	os.RemoveAll(b.dir)
}

// ErrNoDaemon is returned by Start when dbus-daemon is not on PATH.
var ErrNoDaemon = fmt.Errorf("dbus-daemon is not installed (Debian: apt-get install dbus)")

// Private starts a bus for t alone, stopped when t ends, and returns its
// address. Without dbus-daemon it skips (or fails: skipOrFail).
func Private(t testing.TB) string {
	t.Helper()
	b, err := Start()
	if err != nil {
		skipOrFail(t, err)
	}
	t.Cleanup(b.Stop)
	return b.Addr
}

var (
	sharedMu  sync.Mutex
	shared    *Bus
	isolated  bool
	sharedErr error
)

// Isolate unsets DBUS_SESSION_BUS_ADDRESS for the whole test process, so
// that no test of the package reaches the desktop's own bus, whatever the
// person running the tests has. Call it first in TestMain.
func Isolate() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	os.Unsetenv(EnvVar)
	isolated = true
}

// Session makes the process's shared private bus the session bus of t
// (DBUS_SESSION_BUS_ADDRESS, with t.Setenv, so t may not be parallel),
// starting it at first use; it lives until Stop. One bus serves the whole
// process because libraries keep a process-wide session connection
// (godbus' dbus.SessionBus, which beeep uses). Without dbus-daemon it
// skips (or fails: skipOrFail). It panics unless TestMain called Isolate.
func Session(t testing.TB) string {
	t.Helper()
	sharedMu.Lock()
	if !isolated {
		sharedMu.Unlock()
		panic("testbus.Session: call testbus.Isolate in TestMain first")
	}
	if shared == nil && sharedErr == nil {
		shared, sharedErr = Start()
	}
	b, err := shared, sharedErr
	sharedMu.Unlock()
	if err != nil {
		skipOrFail(t, err)
	}
	t.Setenv(EnvVar, b.Addr)
	return b.Addr
}

// Stop ends the shared bus, if Session started one. Call it at the end of
// TestMain.
func Stop() {
	sharedMu.Lock()
	defer sharedMu.Unlock()
	shared.Stop()
	shared = nil
}

// skipOrFail skips t saying why, or fails it when CI is set on Linux: CI
// installs dbus there (scripts/test.sh), so a missing daemon is a defect
// of the run, not a reason. macOS and Windows have no session bus.
func skipOrFail(t testing.TB, err error) {
	t.Helper()
	if os.Getenv("CI") != "" && runtime.GOOS == "linux" {
		t.Fatalf("private D-Bus session bus: %v (CI is set, so this test may not skip)", err)
	}
	t.Skipf("private D-Bus session bus: %v", err)
}
