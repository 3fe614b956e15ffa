package tool

import (
	"strings"
	"testing"
)

const card = "http://127.0.0.1:9000/.well-known/agent-card.json"

// An agent's namespace belongs to it alone: native tools, MCP providers
// and other agents are refused either way round, naming both sides, and
// the error is kept so the runtime does not open.
func TestRegisterA2ACollisions(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterA2A(A2AAgent{Namespace: "helper", Card: card, Source: "servers.json:3"}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		err  error
		want []string
	}{
		{"agent twice", r.RegisterA2A(A2AAgent{Namespace: "helper", Card: card}), []string{`two A2A agents`, `servers.json:3`}},
		{"mcp after agent", r.RegisterMCP(MCPServer{Namespace: "helper", Program: "x"}), []string{`MCP provider "helper"`, `A2A agent "helper" from servers.json:3`}},
		{"native after agent", r.Register(namedTool{"helper.echo"}), []string{`native tool "helper.echo"`, `A2A agent "helper" from servers.json:3`}},
		{"no card", r.RegisterA2A(A2AAgent{Namespace: "other"}), []string{`needs the URL of its agent card`}},
		{"reserved", r.RegisterA2A(A2AAgent{Namespace: "openworker", Card: card}), []string{`reserved`}},
		{"timeout", r.RegisterA2A(A2AAgent{Namespace: "slowpoke", Card: card, Timeout: 2 * DefaultCallTimeout}), []string{`outside 0 to 1m15s`}},
	} {
		for _, w := range c.want {
			if c.err == nil || !strings.Contains(c.err.Error(), w) {
				t.Errorf("%s: %v; want %q", c.name, c.err, w)
			}
		}
	}
	if err := r.Freeze(); err == nil || !strings.Contains(err.Error(), "two A2A agents") {
		t.Errorf("Freeze = %v; want the kept errors", err)
	}

	r = NewRegistry()
	r.Register(namedTool{"helper.echo"})
	r.RegisterMCP(MCPServer{Namespace: "lights", Program: "x"})
	if err := r.RegisterA2A(A2AAgent{Namespace: "helper", Card: card}); err == nil || !strings.Contains(err.Error(), `native tool "helper.echo"`) {
		t.Errorf("agent after native: %v", err)
	}
	if err := r.RegisterA2A(A2AAgent{Namespace: "lights", Card: card}); err == nil || !strings.Contains(err.Error(), `MCP provider "lights"`) {
		t.Errorf("agent after MCP: %v", err)
	}
}

// A servers-file entry of transport a2a (an MCPServer) becomes an agent,
// through RegisterMCPEntry and through a new generation (WithServers),
// never an MCP provider; a bad one is a broken entry.
func TestA2AEntriesAndGenerations(t *testing.T) {
	r := NewRegistry()
	if err := r.RegisterMCPEntry(MCPServer{Namespace: "helper", Transport: TransportA2A, URL: card, Source: "s.json:2", Headers: map[string]string{"A": "b"}}); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.Server("helper"); ok {
		t.Error("an a2a entry is an MCP provider")
	}
	if a, ok := r.Agent("helper"); !ok || a.Card != card || a.Headers["A"] != "b" || a.Source != "s.json:2" || a.Placement() != PlacementLocal {
		t.Errorf("agent %+v %v", a, ok)
	}
	if err := r.RegisterMCPEntry(MCPServer{Namespace: "bad", Transport: TransportA2A, Source: "s.json:3"}); err == nil {
		t.Error("an a2a entry without a card registered")
	}
	if b, ok := r.BrokenMCP("bad"); !ok || !strings.Contains(b.Err.Error(), "agent card") {
		t.Errorf("broken %+v %v", b, ok)
	}
	r.Freeze()
	g, err := r.WithServers([]MCPServer{{Namespace: "remote", Transport: TransportA2A, URL: "https://agents.example.com/card"}, {Namespace: "helper", Program: "x"}})
	if err == nil || !strings.Contains(err.Error(), `A2A agent "helper"`) {
		t.Errorf("WithServers = %v; want the clash with the agent", err)
	}
	if _, ok := g.Agent("helper"); !ok {
		t.Error("the new generation lost the agent")
	}
	if a, ok := g.Agent("remote"); !ok || a.Placement() != "agents.example.com" {
		t.Errorf("remote %+v %v", a, ok)
	}
	if names := len(g.Agents()); names != 2 {
		t.Errorf("%d agents", names)
	}
}
