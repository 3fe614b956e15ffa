//go:build unix

package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// TestToolsAndResumeWhileATurnRuns: the app reads a chat's tools and
// resumes it (an open chat is returned as it is) while its turns run and
// re-list the MCP catalog. Under -race this failed while Tools read the
// selection without the lock turn preparation writes it under.
func TestToolsAndResumeWhileATurnRuns(t *testing.T) {
	const turns = 4
	replies := make([]modeltest.Reply, turns)
	for i := range replies {
		replies[i] = modeltest.Reply{Text: "fine " + strconv.Itoa(i)}
	}
	e := newEnv(t, envOpts{device: true, selected: []string{"device.battery_status_get"}, replies: replies})
	s := e.open()
	ctx := context.Background()
	done := make(chan error, 1)
	go func() {
		for range turns {
			if res, err := s.Send(ctx, "battery?", nil); err != nil || res.Status != harness.TurnCompleted {
				done <- errors.Join(err, errors.New("turn did not complete"))
				return
			}
		}
		done <- nil
	}()
	reads := 0
	for {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			if reads == 0 {
				t.Fatal("no read overlapped the turns")
			}
			t.Logf("%d reads beside %d turns", reads, turns)
			return
		default:
		}
		if tools := s.Tools(); len(tools) != 1 || tools[0].Name != "device.battery_status_get" {
			t.Fatalf("Tools = %+v", tools)
		}
		rs, err := e.rt.ResumeSession(ctx, s.ID(), e.so)
		if err != nil || rs != s {
			t.Fatalf("ResumeSession of the open session = %p, %v; want the session itself", rs, err)
		}
		if got, ok := e.rt.Session(s.ID()); !ok || got != s {
			t.Fatal("Runtime.Session does not hold the open session")
		}
		reads++
	}
}

// gate is a Prompter that holds each prompt until the test answers it.
type gate struct {
	asked  chan consent.Request
	answer chan consent.Decision
}

func newGate() *gate {
	return &gate{asked: make(chan consent.Request, 4), answer: make(chan consent.Decision)}
}

func (g *gate) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	g.asked <- r
	select {
	case d := <-g.answer:
		return d, nil
	case <-ctx.Done():
		return consent.Deny, ctx.Err()
	}
}

// TestServersEditWhileATurnRuns: servers.json changes while a session's
// turn waits for approval. The running session keeps its provider process
// and finishes on it; a new session uses the new configuration's process;
// the old process ends when the old session closes; an unchanged
// configuration keeps its process in the next generation.
func TestServersEditWhileATurnRuns(t *testing.T) {
	g := newGate()
	call := modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "dev__battery_status_get", `{}`)}}
	e := newEnv(t, envOpts{mode: consent.Ask, prompter: g, selected: []string{"dev.battery_status_get"},
		replies: []modeltest.Reply{call, {Text: "old done"}, call, {Text: "new done"}}})
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "servers.json")
	pidFile := func(tag string) string { return filepath.Join(dir, "pid-"+tag) }
	write := func(tag string) {
		t.Helper()
		cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"dev": map[string]any{
			"transport": "stdio", "command": exe, "env": map[string]string{serveDeviceEnv: "1", pidFileEnv: pidFile(tag)}}}})
		if err := os.WriteFile(path, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
		servers, err := servers.ReadServersFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.rt.SetServers(servers); err != nil {
			t.Fatal(err)
		}
	}
	pid := func(tag string) int {
		t.Helper()
		b, err := os.ReadFile(pidFile(tag))
		if err != nil {
			t.Fatalf("provider %s never started: %v", tag, err)
		}
		n, _ := strconv.Atoi(string(b))
		return n
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	write("old")
	g0 := e.rt.Generation()
	old := e.open()
	type result struct {
		res *harness.TurnResult
		err error
	}
	first := make(chan result, 1)
	go func() {
		res, err := old.Send(ctx, "battery?", nil)
		first <- result{res, err}
	}()
	<-g.asked // the turn runs, its call waits for approval
	oldPID := pid("old")

	write("new") // the edit
	if e.rt.Generation() != g0+1 || old.Generation() != g0 {
		t.Fatalf("generations: runtime %d, running session %d; want %d and %d", e.rt.Generation(), old.Generation(), g0+1, g0)
	}
	if !alive(oldPID) {
		t.Fatal("the running session's provider ended at the edit")
	}
	g.answer <- consent.AllowOnce
	r := <-first
	if r.err != nil || r.res.Status != harness.TurnCompleted || r.res.Text != "old done" {
		t.Fatalf("the running turn = %+v, %v; want it completed", r.res, r.err)
	}
	if invs := e.invocations(old.ID()); len(invs) != 1 || invs[0].Status != journal.InvSucceeded {
		t.Fatalf("old session invocations = %+v", invs)
	}
	if _, err := os.Stat(pidFile("new")); err == nil {
		t.Fatal("the running session's call started the new configuration")
	}

	fresh := e.open()
	if fresh.Generation() != g0+1 {
		t.Fatalf("new session generation = %d, want %d", fresh.Generation(), g0+1)
	}
	newPID := pid("new")
	if newPID == oldPID {
		t.Fatal("the new session shares the old process")
	}
	if got := e.rt.RunningProviders(); strings.Join(got, ",") != "dev,dev" {
		t.Fatalf("running providers = %v; want the old and the new dev", got)
	}
	go func() {
		res, err := fresh.Send(ctx, "battery?", nil)
		first <- result{res, err}
	}()
	<-g.asked
	g.answer <- consent.AllowOnce
	if r := <-first; r.err != nil || r.res.Text != "new done" {
		t.Fatalf("the new session's turn = %+v, %v", r.res, r.err)
	}

	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if alive(oldPID) {
		t.Error("the old provider process outlived its last session")
	}
	if !alive(newPID) {
		t.Error("closing the old session ended the new provider")
	}
	if got := e.rt.RunningProviders(); len(got) != 1 {
		t.Errorf("running providers after the old session closed = %v; want one", got)
	}

	// The same configuration again: a new generation, the same process.
	write("new")
	third := e.open()
	if third.Generation() != g0+2 || pid("new") != newPID || !alive(newPID) || len(e.rt.RunningProviders()) != 1 {
		t.Errorf("an unchanged configuration: generation %d, pid %d (was %d), running %v; want generation %d on the same process",
			third.Generation(), pid("new"), newPID, e.rt.RunningProviders(), g0+2)
	}
	fresh.Close()
	third.Close()
	if !alive(newPID) {
		t.Error("the newest generation's provider ended with its sessions; it serves new sessions")
	}
}

// alive reports whether process pid exists (and is not a zombie).
func alive(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true // no /proc: the signal answered
	}
	f := strings.Fields(string(b))
	return len(f) < 3 || f[2] != "Z"
}

// TestResumeWhileClosing: a resume that comes after a close has begun (the
// stdio protocol's session.close then session.open, a chat closed and
// continued at once) waits for the close and reopens the session from the
// journal, instead of returning the session that is going away.
func TestResumeWhileClosing(t *testing.T) {
	g := newGate()
	e := newEnv(t, envOpts{mode: consent.Ask, prompter: g, tools: []tool.Tool{&testTool{name: "test.echo", risk: tool.ReadOnly}},
		selected: []string{"test.echo"}, replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{}`)}}, {Text: "after resume"}}})
	s := e.open()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	turn := make(chan error, 1)
	go func() { _, err := s.Send(ctx, "echo", nil); turn <- err }()
	<-g.asked // the turn runs
	closed := s.CloseAsync()
	rs, err := e.rt.ResumeSession(ctx, s.ID(), e.so)
	if err != nil {
		t.Fatal(err)
	}
	if rs == s {
		t.Fatal("ResumeSession returned the session that was being closed")
	}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	<-turn
	if got, ok := e.rt.Session(s.ID()); !ok || got != rs {
		t.Fatal("the reopened session is not the open one")
	}
	res, err := rs.TrySend(ctx, "again", nil)
	if err != nil || res.Text != "after resume" {
		t.Fatalf("a turn in the reopened session = %+v, %v", res, err)
	}
}
