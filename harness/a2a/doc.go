// Package a2a reaches remote agents of the Agent2Agent protocol (A2A) and
// offers their skills as tools beside native tools and MCP providers in
// one registry (docs/a2a.md).
//
// Fetch reads an agent card (bounded to MaxCardBytes and
// DefaultCardTimeout) and checks it; Agent.Skills gives its skills as
// tool descriptors "NAMESPACE.SKILL_ID" and Agent.Digest the card's
// digest (canonical JSON, SHA-256), which is every skill's descriptor
// digest. Agent.Call sends one message and follows the task to a final
// state; Agent.Poll asks for a task's state with tasks/get, for
// reconciling an invocation whose outcome is unknown.
//
// It speaks A2A over JSON-RPC with the official SDK,
// github.com/a2aproject/a2a-go.
package a2a
