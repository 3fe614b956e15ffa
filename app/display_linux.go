package app

import (
	"net"
	"os"
	"path/filepath"
	"strings"
)

// x11SocketDir is where a local X server listens (a variable for tests).
var x11SocketDir = "/tmp/.X11-unix"

// displayMissing reports whether there is surely no display to open the
// window on: no Wayland socket and no local X server for $DISPLAY (GTK
// would panic in Wails with a stack trace). A remote or TCP display (an
// ssh forward) cannot be told cheaply, so it counts as present.
func displayMissing(getenv func(string) string) bool {
	if w := getenv("WAYLAND_DISPLAY"); w != "" {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(getenv("XDG_RUNTIME_DIR"), w)
		}
		if _, err := os.Stat(p); err == nil {
			return false
		}
	}
	d := getenv("DISPLAY")
	if d == "" {
		return true
	}
	host, rest, ok := strings.Cut(d, ":")
	if !ok || (host != "" && host != "unix") {
		return false // host:N: not ours to judge
	}
	num, _, _ := strings.Cut(rest, ".")
	if num == "" {
		return true
	}
	sock := filepath.Join(x11SocketDir, "X"+num)
	if _, err := os.Stat(sock); err == nil {
		return false
	}
	// Linux's abstract socket of the same name (an X server in another
	// mount namespace, a container).
	if c, err := net.Dial("unix", "@"+sock); err == nil {
		c.Close()
		return false
	}
	return true
}
