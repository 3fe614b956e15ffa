package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// slowServers writes a servers file with one stdio provider "slow", the
// test binary as the device-tools server with env, and startup_timeout
// (seconds, 0: none).
func slowServers(t *testing.T, env map[string]string, startupTimeout int) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env[serveDeviceEnv] = "1"
	entry := map[string]any{"transport": "stdio", "command": exe, "env": env}
	if startupTimeout > 0 {
		entry["startup_timeout"] = startupTimeout
	}
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{"slow": entry}})
	path := filepath.Join(t.TempDir(), "servers.json")
	if err := os.WriteFile(path, body, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func coworkerByID(l CoworkerList, id string) (CoworkerInfo, bool) {
	for _, c := range l.Coworkers {
		if c.ID == id {
			return c, true
		}
	}
	return CoworkerInfo{}, false
}

// devFolder is a coworkers folder with one coworker "dev" that uses
// the provider "slow": made before the app watches it, so that only the
// list the test asks for starts the provider (no live reload).
func devFolder(t *testing.T) string {
	dir := t.TempDir()
	writeBundle(t, dir, "dev", "slow.battery_status_get")
	return dir
}

func startsIn(t *testing.T, log string) int {
	t.Helper()
	b, _ := os.ReadFile(log)
	return strings.Count(string(b), "start\n")
}

// A coworker whose provider takes 4 s to start is listed as starting (with
// its provider's own start bound), not as broken, and the resolved list
// follows as coworkers:changed (docs/app.md#starting).
func TestCoworkersStartingThenReady(t *testing.T) {
	servers := slowServers(t, map[string]string{startDelayEnv: "4s"}, 90)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}, listWait: 200 * time.Millisecond})
	writeBundle(t, e.bundles, "dev", "slow.battery_status_get")

	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	c, ok := coworkerByID(l, "dev")
	if !ok || !c.Starting || c.StartBound != 90 || len(c.Tools) != 0 {
		t.Fatalf("first list: dev = %+v (found %v), want starting with bound 90 s; broken %+v", c, ok, l.Broken)
	}
	if len(l.Broken) != 0 {
		t.Errorf("a provider within its start bound is listed broken: %+v", l.Broken)
	}
	if h, ok := coworkerByID(l, "helper"); !ok || !h.Starting || h.StartBound != 0 {
		t.Errorf("helper (native tools only) = %+v, want starting with no bound while the check runs", h)
	}

	deadline := time.Now().Add(120 * time.Second)
	for {
		for _, p := range e.rec.all(EventCoworkersChanged) {
			l := p.(CoworkerList)
			if c, ok := coworkerByID(l, "dev"); ok && !c.Starting && len(c.Tools) == 1 && c.Tools[0].Name == "slow.battery_status_get" {
				return
			}
			if len(l.Broken) > 0 {
				t.Fatalf("the slow provider was listed broken: %+v", l.Broken)
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no resolved list within 120 s: %+v", e.rec.all(EventCoworkersChanged))
		}
		select {
		case <-e.rec.wake:
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// A provider whose first start fails is started once more before its
// coworker is listed broken, and the second start's tools are listed.
func TestCoworkersRetryAFailedStart(t *testing.T) {
	log := filepath.Join(t.TempDir(), "starts.log")
	servers := slowServers(t, map[string]string{startLogEnv: log, failFirstEnv: "1"}, 0)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}})
	l, err := e.app.Coworkers.SetCoworkersDir(devFolder(t))
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := coworkerByID(l, "dev"); !ok || c.Starting || len(c.Tools) != 1 {
		t.Fatalf("dev = %+v (found %v), want resolved after one retry; broken %+v", c, ok, l.Broken)
	}
	if n := startsIn(t, log); n != 2 {
		t.Errorf("the provider started %d times, want 2 (a failure, one retry)", n)
	}
}

// A provider that does not answer within its start bound is listed broken
// after one retry, with a fix that names the bound and "startup_timeout",
// not one that blames its command or environment.
func TestCoworkersStartTimeoutFix(t *testing.T) {
	log := filepath.Join(t.TempDir(), "starts.log")
	servers := slowServers(t, map[string]string{startLogEnv: log, startDelayEnv: "10m"}, 1)
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}})
	l, err := e.app.Coworkers.SetCoworkersDir(devFolder(t))
	if err != nil {
		t.Fatal(err)
	}
	b, ok := brokenByDir(l)["dev"]
	if !ok {
		t.Fatalf("dev is not broken: %+v", l)
	}
	if b.Provider != "slow" || !strings.Contains(b.Message, "within 1s (the start timeout") {
		t.Errorf("broken = %+v, want provider slow and the start timeout in the message", b)
	}
	for _, want := range []string{`MCP provider "slow" did not start within 1 s`, `"startup_timeout" (seconds) in its entry at ` + servers, "Reload"} {
		if !strings.Contains(b.Fix, want) {
			t.Errorf("fix %q lacks %q", b.Fix, want)
		}
	}
	if strings.Contains(b.Fix, "check its command") {
		t.Errorf("fix blames the configuration: %q", b.Fix)
	}
	if n := startsIn(t, log); n != 2 {
		t.Errorf("the provider started %d times, want 2 (a timeout, one retry)", n)
	}
}
