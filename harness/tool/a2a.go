package tool

import (
	"fmt"
	"sort"
	"time"
)

// TransportA2A is the servers.json "transport" of a remote A2A agent
// (docs/a2a.md): its skills are tools beside native and MCP tools.
const TransportA2A = "a2a"

// A2AAgent describes a remote agent of the Agent2Agent protocol whose
// skills appear as tools "Namespace.SKILL_ID" (docs/a2a.md).
//
// Card is the URL of its agent card (usually
// ".../.well-known/agent-card.json"): https:// on any host, http:// only
// on this computer, as for streamable HTTP (docs/servers.md). Headers are
// sent with every request, the card's and the calls'. Source says where
// the entry came from (a servers.json "PATH:LINE", or "" when registered
// from code) and appears in errors.
type A2AAgent struct {
	Namespace string
	Card      string
	Headers   map[string]string
	Source    string
	// Timeout bounds one call of this agent (a config file's "timeout");
	// 0 means the Limits' CallTimeout. It never exceeds
	// DefaultCallTimeout (docs/limits.md).
	Timeout time.Duration
	// Secrets are values that must never appear in errors, logs, results
	// or the journal: header values and what was substituted into them.
	Secrets []string
	// Name is the agent's name as written in its config file when
	// Namespace had to be derived from it; "" when they are the same.
	Name string
}

func (a A2AAgent) where() string {
	if a.Source != "" {
		return fmt.Sprintf("A2A agent %q from %s", a.Namespace, a.Source)
	}
	return fmt.Sprintf("A2A agent %q (%s)", a.Namespace, a.Card)
}

// Placement is where the agent's card is served: PlacementLocal for a
// loopback host, otherwise its host name (docs/consent.md#placement). A
// call goes to the endpoint its card names, whose placement
// harness/a2a.Agent.Placement gives once the card is read.
func (a A2AAgent) Placement() string { return URLPlacement(a.Card) }

// A2A is the agent a servers-file entry of transport "a2a" describes: its
// URL is the card's (harness/mcp reads such entries like streamable HTTP
// ones, with "card" for "url").
func (s MCPServer) A2A() A2AAgent {
	return A2AAgent{Namespace: s.Namespace, Card: s.URL, Headers: s.Headers, Source: s.Source, Timeout: s.Timeout, Secrets: s.Secrets, Name: s.Name}
}

// RegisterA2A adds a remote A2A agent whose skills become the tools
// "Namespace.SKILL_ID" (docs/a2a.md); its card is read when a bundle
// that selects them resolves. It fails, naming both sides, when the
// namespace is reserved or invalid, or already native, MCP or another
// agent's; the error is also kept, so the runtime refuses to open (as
// Register and RegisterMCP). A skill's name is checked like an MCP tool's
// (CheckMCPName, the 80-byte bound, alias collisions) when it is
// resolved.
func (r *Registry) RegisterA2A(a A2AAgent) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keep(r.registerA2A(a))
}

func (r *Registry) registerA2A(a A2AAgent) error {
	if r.frozen {
		return ErrFrozen
	}
	if err := r.checkA2A(a); err != nil {
		return err
	}
	r.agents[a.Namespace] = a
	return nil
}

// CheckA2A returns the error RegisterA2A would return for a, registering
// nothing.
func (r *Registry) CheckA2A(a A2AAgent) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.checkA2A(a)
}

func (r *Registry) checkA2A(a A2AAgent) error {
	if err := CheckNamespace(a.Namespace); err != nil {
		return fmt.Errorf("%s: %w", a.where(), err)
	}
	if a.Card == "" {
		return fmt.Errorf("%s: an A2A agent needs the URL of its agent card (\"card\")", a.where())
	}
	if a.Timeout < 0 || a.Timeout > DefaultCallTimeout {
		return fmt.Errorf("%s: timeout %s is outside 0 to %s (docs/limits.md)", a.where(), a.Timeout, DefaultCallTimeout)
	}
	if prev, ok := r.agents[a.Namespace]; ok {
		return fmt.Errorf("namespace %q has two A2A agents: %s and %s; a namespace has one provider: rename one of them", a.Namespace, prev.where(), a.where())
	}
	if s, ok := r.servers[a.Namespace]; ok {
		return fmt.Errorf("namespace %q of %s is already the namespace of %s; a namespace belongs to one provider: rename one of them", a.Namespace, a.where(), s.where())
	}
	if name, ok := r.nsTool[a.Namespace]; ok {
		return fmt.Errorf("namespace %q of %s is already the namespace of native tool %q; a skill %s.SKILL would collide with the native tools: rename one of them", a.Namespace, a.where(), name, a.Namespace)
	}
	return nil
}

// Agent returns the A2A agent of a namespace.
func (r *Registry) Agent(namespace string) (A2AAgent, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	a, ok := r.agents[namespace]
	return a, ok
}

// Agents returns the A2A agents sorted by namespace.
func (r *Registry) Agents() []A2AAgent {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]A2AAgent, 0, len(r.agents))
	for _, a := range r.agents {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Namespace < out[j].Namespace })
	return out
}
