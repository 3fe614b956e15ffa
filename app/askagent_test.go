package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/a2a/a2atest"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

// TestAskAgentReconcilesAnUnknownCall: Activity's "Ask the agent" asks
// the real A2A agent of the servers file what became of the task whose
// ID the unknown call journaled, and records the agent's answer
// (applied, by a2a:poll, with its artifacts); a call of another provider
// is refused without asking anyone.
func TestAskAgentReconcilesAnUnknownCall(t *testing.T) {
	ctx := context.Background()
	ag := a2atest.New(t, a2atest.Options{})
	servers := filepath.Join(t.TempDir(), "servers.json")
	cfg, _ := json.Marshal(map[string]any{"servers": map[string]any{"helper": map[string]any{"transport": "a2a", "card": ag.CardURL}}})
	if err := os.WriteFile(servers, cfg, 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}})
	// A task the agent really ran: the call that journaled it is lost.
	client, err := a2a.Fetch(ctx, tool.A2AAgent{Namespace: "helper", Card: ag.CardURL}, a2a.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var task string
	if _, err := client.Call(ctx, "echo", json.RawMessage(`{"text":"ping"}`), a2a.Hooks{Task: func(id string) { task = id }}); err != nil || task == "" {
		t.Fatalf("call = %v (task %q)", err, task)
	}
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	j := e.app.engine.journal
	unknown := func(id, provider string) {
		inv := journal.Invocation{ID: id, SessionID: chat.SessionID, CallID: "c-" + id, Tool: "helper.echo", Provider: provider, RemoteName: "echo",
			Risk: string(tool.NonIdempotentWrite), Arguments: json.RawMessage(`{"text":"ping"}`)}
		if err := j.BeginInvocation(ctx, inv, nil); err != nil {
			t.Fatal(err)
		}
		if err := j.SetHandle(ctx, id, task); err != nil {
			t.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, id, journal.Finish{Status: journal.InvUnknown, ErrorCode: "interrupted", Error: "the process stopped"}); err != nil {
			t.Fatal(err)
		}
	}
	unknown("inv_agent", "a2a:helper")
	unknown("inv_other", "mcp:helper")
	inv, err := e.app.Activity.AskAgent("inv_agent")
	if err != nil {
		t.Fatalf("AskAgent = %v", err)
	}
	if inv.Reconciled != journal.EffectApplied || inv.ReconciledBy != "a2a:poll" || !strings.Contains(string(inv.Result), "echo: ping") {
		t.Errorf("reconciled = %+v", inv)
	}
	if _, err := e.app.Activity.AskAgent("inv_other"); err == nil || !strings.Contains(err.Error(), `MCP provider "helper" is not registered`) {
		t.Errorf("AskAgent of an MCP call = %v", err)
	}
	if _, err := e.app.Activity.AskAgent("inv_agent"); err == nil || !strings.Contains(err.Error(), "already reconciled") {
		t.Errorf("AskAgent again = %v", err)
	}
}
