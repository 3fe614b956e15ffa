package testbus

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	Isolate()
	code := m.Run()
	Stop()
	os.Exit(code)
}

// TestNothingActivatable: the private bus can activate no service, so a
// daemon installed on the machine (dunst, gnome-keyring) never starts on
// it; the standard session configuration would list theirs.
func TestNothingActivatable(t *testing.T) {
	if _, err := exec.LookPath("dbus-send"); err != nil {
		skipOrFail(t, err)
	}
	addr := Private(t)
	cmd := exec.Command("dbus-send", "--bus="+addr, "--dest=org.freedesktop.DBus", "--type=method_call", "--print-reply",
		"/org/freedesktop/DBus", "org.freedesktop.DBus.ListActivatableNames")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("ListActivatableNames: %v\n%s", err, out)
	}
	var names []string
	for _, l := range strings.Split(string(out), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "string ") {
			names = append(names, strings.Trim(strings.TrimPrefix(l, "string "), `"`))
		}
	}
	if len(names) != 1 || names[0] != "org.freedesktop.DBus" {
		t.Errorf("activatable names on the private bus = %q, want only org.freedesktop.DBus", names)
	}
}

// TestSessionIsShared: Session sets the variable for the test and hands
// every test the same bus; Isolate unset the desktop's.
func TestSessionIsShared(t *testing.T) {
	if os.Getenv(EnvVar) != "" {
		t.Fatalf("%s = %q after Isolate", EnvVar, os.Getenv(EnvVar))
	}
	var first string
	t.Run("first", func(t *testing.T) { first = Session(t) })
	t.Run("second", func(t *testing.T) {
		if got := Session(t); got != first || os.Getenv(EnvVar) != first {
			t.Errorf("second Session = %q (env %q), want %q", got, os.Getenv(EnvVar), first)
		}
	})
	if os.Getenv(EnvVar) != "" {
		t.Errorf("%s still set after the subtests", EnvVar)
	}
}
