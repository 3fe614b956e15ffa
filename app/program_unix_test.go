//go:build unix

package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/mcp/launch"
)

// TestCoworkerCardProgramPath: a stdio provider named by a bare command is
// found on the app's search PATH (deps.SearchPath, not the process PATH),
// and the coworker card's tools carry the program it runs; a command
// found nowhere breaks the coworker with the PATH searched.
func TestCoworkerCardProgramPath(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	prog := filepath.Join(bin, "ow-app-device")
	if err := os.Symlink(exe, prog); err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(servers, []byte(`{"servers": {
  "device": {"command": "ow-app-device", "env": {"`+serveDeviceEnv+`": "1", "GORACE": "atexit_sleep_ms=0"}},
  "gone": {"command": "ow-app-no-such-server"}
}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	sp := func(context.Context) launch.SearchPath {
		return launch.SearchPath{Path: bin, Source: launch.FromLoginShell, Shell: "/bin/zsh"}
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}, searchPath: sp})
	writeTools(t, e.bundles, "sysinfo", `{"version": 3, "tools": ["device.system_info_get"]}`)
	writeTools(t, e.bundles, "lost", `{"version": 3, "tools": ["gone.anything"]}`)
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, c := range l.Coworkers {
		if c.ID == "sysinfo" {
			found = true
			if len(c.Tools) != 1 || c.Tools[0].ProgramPath != prog {
				t.Errorf("sysinfo tools = %+v; want program_path %s", c.Tools, prog)
			}
		}
	}
	if !found {
		t.Fatalf("sysinfo is not listed: %+v", l)
	}
	var lost *BrokenBundle
	for i := range l.Broken {
		if l.Broken[i].ID == "lost" {
			lost = &l.Broken[i]
		}
	}
	if lost == nil || !strings.Contains(lost.Message, `program "ow-app-no-such-server" cannot be found`) ||
		!strings.Contains(lost.Message, "(from the login shell /bin/zsh): "+bin) {
		t.Errorf("lost = %+v; want the PATH searched in its message", lost)
	}
}
