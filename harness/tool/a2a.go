package tool

import (
	"fmt"
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
