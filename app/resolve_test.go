package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeTools writes a bundle whose tools.json is body.
func writeTools(t *testing.T, dir, id, body string) {
	t.Helper()
	writeBundle(t, dir, id)
	if err := os.WriteFile(filepath.Join(dir, id, "coworker", "tools.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func brokenByDir(l CoworkerList) map[string]BrokenBundle {
	m := map[string]BrokenBundle{}
	for _, b := range l.Broken {
		m[filepath.Base(b.Dir)] = b
	}
	return m
}

func TestCoworkersListsUnresolvableBundlesAsBroken(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep command")
	}
	// "slow" is an MCP provider that never answers initialize (it sleeps
	// 60 s and exits).
	servers := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(servers, []byte(`{"servers": {"slow": {"transport": "stdio", "command": "`+sleep+`", "args": ["60"]}}}`), 0o644)
	defer func(d time.Duration) { checkTimeout = d }(checkTimeout)
	// Cuts "hangs" short on purpose; the other bundles resolve within it,
	// which 3 s leaves a loaded machine room for.
	checkTimeout = 3 * time.Second

	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}})
	writeTools(t, e.bundles, "missing-tool", `{"version": 3, "tools": ["test.echo", "test.nope"]}`)
	writeTools(t, e.bundles, "unknown-ns", `{"version": 3, "tools": ["acme.widget_get"]}`)
	writeTools(t, e.bundles, "bad-v2-name", `{"version": 2, "mcp": {"slow": ["bad name!"]}}`)
	writeTools(t, e.bundles, "hangs", `{"version": 3, "tools": ["slow.anything"]}`)

	start := time.Now()
	l, err := e.app.Coworkers.Coworkers()
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	t.Logf("listing with a hanging provider took %v", took)
	if took > 45*time.Second { // far over the timeout, short of the provider's 60 s
		t.Errorf("listing took %v; the resolve timeout is %v: it waited for the hanging provider", took, checkTimeout)
	}
	if len(l.Coworkers) != 1 || l.Coworkers[0].ID != "helper" {
		t.Fatalf("coworkers = %+v, want only helper", l.Coworkers)
	}
	if tools := l.Coworkers[0].Tools; len(tools) != 1 || tools[0] != (ResolvedToolInfo{Name: "test.echo", Provider: "native", Placement: "on this computer", Access: "runs with your full access"}) {
		t.Errorf("helper tools = %+v, want test.echo → native", tools)
	}
	broken := brokenByDir(l)
	for id, want := range map[string]struct {
		msg      string
		resolved bool // found by the resolver, not the loader
		line     int
	}{
		"missing-tool": {`selects "test.nope": namespace "test" is native and has no tool "nope"`, true, 1},
		"unknown-ns":   {`no native tool or MCP provider has the namespace "acme"`, true, 1},
		"bad-v2-name":  {`"slow.bad name!"`, false, 1},
		"hangs":        {`mcp provider "slow" (from ` + servers + `:1) did not start`, true, 1},
	} {
		b, ok := broken[id]
		if !ok {
			t.Errorf("%s is not listed as broken: %+v", id, l.Broken)
			continue
		}
		if !strings.Contains(b.Message, want.msg) || b.Line != want.line || !strings.HasSuffix(b.File, filepath.Join(id, "coworker", "tools.json")) {
			t.Errorf("%s = %+v, want %s line %d and a message containing %q", id, b, b.File, want.line, want.msg)
		}
		if want.resolved && (b.ID != id || b.Name != "Test "+id || strings.HasPrefix(b.Message, b.File)) {
			t.Errorf("%s = %+v, want its id and name, and the message without the location", id, b)
		}
	}

	// (Caching by digest is harness.Runtime.Check's, tested there.)
	// Fixing a bundle on disk re-lists it as a coworker (live reload).
	writeTools(t, e.bundles, "missing-tool", `{"version": 3, "tools": ["test.echo"]}`)
	e.rec.waitFor(t, EventCoworkersChanged, func(p any) bool {
		for _, c := range p.(CoworkerList).Coworkers {
			if c.ID == "missing-tool" && len(c.Tools) == 1 {
				return true
			}
		}
		return false
	})
	if _, err := e.app.Chats.OpenChat("missing-tool"); err != nil {
		t.Fatalf("the fixed coworker does not open: %v", err)
	}
}
