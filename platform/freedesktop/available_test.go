package freedesktop

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/openworker/desktop/internal/testbus"
)

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

	// A bus of its own, on which nothing can be activated: with the
	// standard session configuration an installed daemon (dunst) would be
	// started by the first call and answer.
	addr := testbus.Private(t)
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
