package app

import (
	"net"
	"os"
	"path/filepath"
	"testing"
)

// TestDisplayMissing: no DISPLAY, a DISPLAY whose X socket is not there
// and a dead Wayland socket name are missing; a local X socket, a live
// Wayland socket and a remote display are not.
func TestDisplayMissing(t *testing.T) {
	dir := t.TempDir()
	old := x11SocketDir
	x11SocketDir = dir
	t.Cleanup(func() { x11SocketDir = old })
	ln, err := net.Listen("unix", filepath.Join(dir, "X7"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	runtime := t.TempDir()
	if err := os.WriteFile(filepath.Join(runtime, "wayland-0"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, true},
		{map[string]string{"DISPLAY": ":7"}, false},
		{map[string]string{"DISPLAY": ":7.0"}, false},
		{map[string]string{"DISPLAY": "unix:7"}, false},
		{map[string]string{"DISPLAY": ":8"}, true},
		{map[string]string{"DISPLAY": "localhost:10.0"}, false},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": runtime}, false},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-1", "XDG_RUNTIME_DIR": runtime}, true},
	} {
		if got := displayMissing(func(k string) string { return c.env[k] }); got != c.want {
			t.Errorf("displayMissing(%v) = %v, want %v", c.env, got, c.want)
		}
	}
}
