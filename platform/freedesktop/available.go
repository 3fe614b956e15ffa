package freedesktop

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/godbus/dbus/v5"
)

// Why native notifications are unavailable (Available).
var (
	// ErrNoSessionBus: DBUS_SESSION_BUS_ADDRESS is unset, or nothing
	// answers at it.
	ErrNoSessionBus = errors.New("no D-Bus session bus")
	// ErrNoDaemon: the bus has no notification server: nothing owns
	// org.freedesktop.Notifications and none is D-Bus-activatable.
	ErrNoDaemon = errors.New("no notification daemon")
)

// Available reports whether Notify can reach a notification server on the
// session bus at address (the value of DBUS_SESSION_BUS_ADDRESS, "" when
// unset; never autolaunched): nil when a process owns BusName or the bus
// can start one, else an error wrapping ErrNoSessionBus or ErrNoDaemon
// that says which address or name was tried. It makes two or three
// D-Bus calls (NameHasOwner, ListActivatableNames); ctx bounds them.
func Available(ctx context.Context, address string) error {
	if address == "" {
		return fmt.Errorf("%w (DBUS_SESSION_BUS_ADDRESS is unset)", ErrNoSessionBus)
	}
	conn, err := dbus.Connect(address, dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("%w: nothing answers at DBUS_SESSION_BUS_ADDRESS=%s (%v)", ErrNoSessionBus, address, err)
	}
	defer conn.Close()
	bus := conn.BusObject()
	var owned bool
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, BusName).Store(&owned); err != nil {
		return fmt.Errorf("%w: the session bus did not answer NameHasOwner (%v)", ErrNoSessionBus, err)
	}
	if owned {
		return nil
	}
	var activatable []string
	if err := bus.CallWithContext(ctx, "org.freedesktop.DBus.ListActivatableNames", 0).Store(&activatable); err == nil && slices.Contains(activatable, BusName) {
		return nil
	}
	return fmt.Errorf("%w: nothing on the session bus provides %s", ErrNoDaemon, BusName)
}
