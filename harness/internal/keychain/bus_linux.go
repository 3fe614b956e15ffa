package keychain

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"

	"github.com/zalando/go-keyring"
)

// ErrNoSessionBus is the OS keychain's failure on Linux without a D-Bus
// session bus: it is treated as absent (docs/mcp.md#without-a-keychain).
var ErrNoSessionBus = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset and there is no $XDG_RUNTIME_DIR/bus), so the OS keychain is treated as absent rather than starting a bus")

// NoAutolaunch makes the OS keychain absent for this process when there
// is no session bus to reach it through: the keychain library would
// otherwise autolaunch a dbus-daemon (and through it a keyring daemon)
// that outlives the process, one pair per CLI run. Every user of the
// keychain library then gets ErrNoSessionBus; the encrypted file takes
// over where there is one. cli.MainWithRegistry (the binary's main, app
// included) calls it first.
func NoAutolaunch() {
	if SessionBus() != nil {
		keyring.MockInitWithError(ErrNoSessionBus)
	}
}

// SessionBus reports whether a session bus can be found without
// launching one: the address in DBUS_SESSION_BUS_ADDRESS, or the socket
// systemd and dbus-broker keep in the runtime folder.
func SessionBus() error {
	if a := os.Getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return nil
	}
	dirs := []string{os.Getenv("XDG_RUNTIME_DIR"), filepath.Join("/run/user", strconv.Itoa(os.Getuid()))}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		for _, name := range []string{"bus", "dbus-session"} {
			if _, err := os.Stat(filepath.Join(d, name)); err == nil {
				return nil
			}
		}
	}
	return ErrNoSessionBus
}
