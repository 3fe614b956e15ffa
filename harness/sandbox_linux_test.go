package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// deviceIn is the device provider of this test binary, which writes its
// pid to pidFile when it starts (TestMain), with placement p.
func deviceIn(t *testing.T, pidFile string, p *tool.Sandbox) tool.MCPServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return tool.MCPServer{Namespace: "device", Program: exe, Env: map[string]string{serveDeviceEnv: "1", pidFileEnv: pidFile}, Sandbox: p}
}

// TestRequiresSandboxRefusesAnUnsandboxedProvider: a coworker whose
// manifest says requires_sandbox does not resolve with an unsandboxed
// stdio provider, naming it and the fix, and that provider is never
// started; with the provider sandboxed it resolves.
func TestRequiresSandboxRefusesAnUnsandboxedProvider(t *testing.T) {
	pid := filepath.Join(t.TempDir(), "pid")
	e := newEnv(t, envOpts{servers: []tool.MCPServer{deviceIn(t, pid, nil)}, selected: []string{"device.system_info_get"}, policy: "requires_sandbox: true\n"})
	_, err := e.rt.NewSession(context.Background(), "tester", e.so)
	var re *harness.ResolveError
	if !errors.As(err, &re) || re.Provider != "device" || !strings.Contains(err.Error(), `MCP provider "device" runs with your full access`) || !strings.Contains(re.Fix, "registered by this program") || !re.SandboxRequired {
		t.Fatalf("NewSession = %v (%+v); want a ResolveError naming provider device and the fix", err, re)
	}
	if _, err := os.Stat(pid); err == nil {
		t.Errorf("the unsandboxed provider was started (%s exists)", pid)
	}

	e = newEnv(t, envOpts{servers: []tool.MCPServer{deviceIn(t, pid, tool.DefaultSandbox())}, selected: []string{"device.system_info_get"}, policy: "requires_sandbox: true\n"})
	s := e.open()
	defer s.Close()
	if got := s.Tools()[0].Access; !strings.HasPrefix(got, "sandboxed: ") {
		t.Errorf("resolved access = %q; want the sandbox in words", got)
	}
}

// TestSandboxPlacementPromptedJournaledAndPinned: a call of a sandboxed
// provider is prompted and journaled with the sandbox in its placement,
// the prompt says what the provider can reach, and a changed sandbox
// is a changed execution identity: the session is not resumed.
func TestSandboxPlacementPromptedJournaledAndPinned(t *testing.T) {
	ctx := context.Background()
	pid := filepath.Join(t.TempDir(), "pid")
	p := &recordingPrompter{}
	e := newEnv(t, envOpts{
		servers:  []tool.MCPServer{deviceIn(t, pid, tool.DefaultSandbox())},
		selected: []string{"device.system_info_get"}, mode: consent.Ask, prompter: p,
		replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "device__system_info_get", `{}`)}}, {Text: "done"}},
	})
	s, res, err := e.send("go")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	want := tool.PlacementLocal + " (" + tool.DefaultSandbox().Words() + ")"
	if len(p.reqs) != 1 || p.reqs[0].Placement != want || p.reqs[0].Access != tool.DefaultSandbox().Words() {
		t.Fatalf("prompts = %+v; want one with placement %q", p.reqs, want)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 1 || invs[0].Placement != want {
		t.Fatalf("invocations = %+v; want one journaled with placement %q", invs, want)
	}
	if _, err := os.Stat(pid); err == nil {
		t.Errorf("the sandboxed provider wrote %s outside its sandbox", pid)
	}
	s.Close()

	open := func(p *tool.Sandbox) *harness.Runtime {
		reg := tool.NewRegistry()
		if err := reg.RegisterMCP(deviceIn(t, pid, p)); err != nil {
			t.Fatal(err)
		}
		rt, err := harness.Open(ctx, reg, harness.Options{Coworkers: e.bundles, Journal: e.rt.Journal()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { rt.Close() })
		return rt
	}
	so := harness.SessionOptions{Model: e.provider, Approve: consent.Bypass}
	same, err := open(tool.DefaultSandbox()).ResumeSession(ctx, s.ID(), so)
	if err != nil {
		t.Fatalf("ResumeSession with the same sandbox = %v", err)
	}
	same.Close()
	wider := tool.DefaultSandbox()
	wider.Preset, wider.Network.Mode = "", tool.NetAny
	_, err = open(wider).ResumeSession(ctx, s.ID(), so)
	var ic *harness.IdentityChangedError
	if !errors.As(err, &ic) || !strings.Contains(err.Error(), "selection") {
		t.Fatalf("ResumeSession with a wider sandbox = %v; want IdentityChangedError (selection)", err)
	}
}
