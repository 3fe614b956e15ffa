//go:build unix

package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
)

// TestCheckCachesByDigest: Check reports every bundle, caches what it
// found by bundle digest (a provider that fails to start is not started
// again), does not cache a bundle cut short by CheckTimeout, and resolves
// afresh after ForgetChecks or an edit of the bundle.
func TestCheckCachesByDigest(t *testing.T) {
	dir := t.TempDir()
	starts := func(name string) int {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		return strings.Count(string(b), "start\n")
	}
	reg := tool.NewRegistry()
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	for _, err := range []error{
		reg.Register(echo),
		reg.RegisterMCP(tool.MCPServer{Namespace: "flaky", Program: "sh", Args: []string{"-c", "echo start >> " + filepath.Join(dir, "flaky") + "; echo fatal: no config >&2; exit 3"}, Source: "servers.json:3"}),
		reg.RegisterMCP(tool.MCPServer{Namespace: "hang", Program: "sh", Args: []string{"-c", "echo start >> " + filepath.Join(dir, "hang") + "; exec sleep 30"}}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	bundles := filepath.Join(dir, "coworkers")
	writeBundle(t, bundles, "good", []string{"test.echo"}, "")
	writeBundle(t, bundles, "flaky", []string{"flaky.anything"}, "")
	writeBundle(t, bundles, "hangs", []string{"hang.anything"}, "")
	// CheckTimeout cuts "hang" short on purpose, but "flaky" must start,
	// fail and exit within it: 5 s leaves a loaded machine room for that
	// (each check of "hangs" costs it).
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: bundles, CheckTimeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	check := func(broken int) *harness.CheckReport {
		t.Helper()
		rep, err := rt.Check(context.Background(), bundles, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.OK) != 1 || rep.OK[0].ID != "good" || len(rep.Broken) != broken {
			t.Fatalf("report = %+v; want good ok and %d broken", rep, broken)
		}
		for _, b := range rep.Broken {
			want := map[string]string{"flaky": "fatal: no config", "hangs": `mcp provider "hang" did not start`}[b.ID]
			if want == "" || !strings.Contains(b.Message, want) || b.Line != 1 || b.Fix == "" || strings.HasPrefix(b.Reason, b.File) {
				t.Errorf("broken %s = %+v; want a message with %q at line 1, a fix, and a reason without the position", b.ID, b, want)
			}
		}
		for _, b := range rep.Broken {
			if b.ID == "flaky" && (!strings.Contains(b.Fix, `MCP provider "flaky" did not start`) || !strings.Contains(b.Fix, "servers.json:3") ||
				!strings.Contains(b.Message, `(from servers.json:3)`)) {
				t.Errorf("flaky: fix %q, message %q; want the provider named with where it is defined", b.Fix, b.Message)
			}
		}
		return rep
	}
	check(2)
	check(2)
	if f, h := starts("flaky"), starts("hang"); f != 1 || h != 2 {
		t.Errorf("after two checks: flaky started %d times (want 1: cached), hang %d (want 2: a timeout is not cached)", f, h)
	}
	if err := os.RemoveAll(filepath.Join(bundles, "hangs")); err != nil { // each check of it costs the timeout
		t.Fatal(err)
	}
	rt.ForgetChecks()
	check(1)
	if f := starts("flaky"); f != 2 {
		t.Errorf("after ForgetChecks flaky started %d times in all, want 2", f)
	}
	// An edited bundle has a new digest: resolved afresh.
	writeBundle(t, bundles, "flaky", []string{"flaky.other"}, "")
	check(1)
	if f := starts("flaky"); f != 3 {
		t.Errorf("after editing the bundle flaky started %d times in all, want 3", f)
	}
}

// TestCheckSkills: Check lists the skills tools of a coworker with skills
// and the bundle's notices.
func TestCheckSkills(t *testing.T) {
	e := newEnv(t, envOpts{selected: []string{}})
	md := writeSkill(t, e, "tidy", "SKILL.md", "---\nname: tidy\ndescription: Keep notes tidy.\nversion: 2\n---\nTidy up.\n")
	rep, err := e.rt.Check(context.Background(), e.bundles, nil)
	if err != nil || len(rep.OK) != 1 {
		t.Fatalf("Check = %+v, %v", rep, err)
	}
	cw := rep.OK[0]
	var names []string
	for _, rt := range cw.Tools {
		names = append(names, rt.Name)
	}
	if !slices.Equal(names, []string{harness.SkillsLoad, harness.SkillsRead}) {
		t.Errorf("tools = %v", names)
	}
	if len(cw.Notices) != 1 || cw.Notices[0].File != md || cw.Notices[0].Line != 4 || !strings.Contains(cw.Notices[0].Msg, `the key "version", which the Agent Skills specification does not define`) {
		t.Errorf("notices = %+v", cw.Notices)
	}
}
