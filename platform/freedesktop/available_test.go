package freedesktop

import (
	"bufio"
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// privateBus starts a dbus-daemon of its own (session config) and returns
// its address; it is stopped when the test ends.
func privateBus(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("dbus-daemon is not installed (apt package dbus): cannot check against a real bus")
	}
	cmd := exec.Command(bin, "--session", "--nofork", "--print-address=1", "--address=unix:path="+filepath.Join(t.TempDir(), "bus"))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	return strings.TrimSpace(addr)
}

func TestAvailableNamesTheCause(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := Available(ctx, ""); !errors.Is(err, ErrNoSessionBus) || !strings.Contains(err.Error(), "DBUS_SESSION_BUS_ADDRESS is unset") {
		t.Errorf("no address: %v", err)
	}
	gone := "unix:path=" + filepath.Join(t.TempDir(), "no-bus-here")
	if err := Available(ctx, gone); !errors.Is(err, ErrNoSessionBus) || !strings.Contains(err.Error(), gone) {
		t.Errorf("nothing at the address: %v", err)
	}

	addr := privateBus(t)
	err := Available(ctx, addr)
	if !errors.Is(err, ErrNoDaemon) || !strings.Contains(err.Error(), BusName) {
		t.Fatalf("bus without a notification server: %v, want ErrNoDaemon naming %s", err, BusName)
	}
	// A process takes the name: now they are available.
	conn, err := dbus.Connect(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if r, err := conn.RequestName(BusName, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("request %s: %v %v", BusName, r, err)
	}
	if err := Available(ctx, addr); err != nil {
		t.Errorf("with an owner of %s: %v", BusName, err)
	}
}
