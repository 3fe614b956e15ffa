// Package consent decides whether a tool call may run (docs/consent.md): policies
// from the manifest and the user's saved choices, grants given during a
// session, the human prompt, and the execution identity approvals are bound
// to.
//
// The harness knows no window: it asks through a Prompter, which the CLI
// implements with the terminal and the desktop app with a modal dialog.
package consent

import (
	"context"
	"encoding/json"
	"errors"
)

// Mode is the approval mode of a session (`--approve`).
type Mode string

const (
	// Ask prompts the person for every call no policy or grant decides.
	Ask Mode = "ask"
	// Bypass skips the human prompt only: deny policies, limits, validation,
	// selection and journaling still apply.
	Bypass Mode = "bypass"
)

// Decision is the answer to a prompt.
type Decision string

const (
	AllowOnce    Decision = "allow_once"    // this call only
	AllowSession Decision = "allow_session" // this tool for the rest of the session
	AllowAlways  Decision = "allow_always"  // saved as a user policy for this coworker and descriptor digest
	Deny         Decision = "deny"
	// DenyAlways ("Never") refuses this call and saves a deny policy for
	// this coworker and descriptor digest: later calls are refused without
	// asking, until the person revokes it (docs/consent.md#never). The
	// call's approval is journaled as Deny; the saved policy is the
	// journal's user_policies row.
	DenyAlways Decision = "deny_always"
)

// Allows reports whether d lets the call run.
func (d Decision) Allows() bool { return d == AllowOnce || d == AllowSession || d == AllowAlways }

// Valid reports whether d is one of the five answers.
func (d Decision) Valid() bool { return d.Allows() || d == Deny || d == DenyAlways }

// Request is what the person is asked about: who wants to run what, where,
// with which arguments.
type Request struct {
	SessionID    string `json:"session_id"`
	TurnID       string `json:"turn_id"`
	CallID       string `json:"call_id"`
	Coworker     string `json:"coworker"`
	CoworkerName string `json:"coworker_name"`
	Tool         string `json:"tool"` // qualified name
	Description  string `json:"description"`
	Provider     string `json:"provider"` // "native", "mcp:<namespace>" or "a2a:<namespace>" (docs/a2a.md)
	// Placement says where the call goes: "on this computer"
	// (tool.PlacementLocal) or the remote host name, e.g.
	// "mcp.example.com" (docs/consent.md#placement). Every prompt shows it.
	Placement string `json:"placement"`
	// Access says what the call can reach (docs/sandbox.md#in-words):
	// "sandboxed: …" for a sandboxed provider, "runs with your full
	// access" for native tools and unsandboxed stdio providers, "" for a
	// remote one. Every prompt shows it.
	Access         string          `json:"access,omitempty"`
	Classification string          `json:"classification"`
	Risk           string          `json:"risk"`
	Arguments      json.RawMessage `json:"arguments"`
	// Sampling is set when the prompt is a sampling request, not a call
	// (sampling.go, docs/consent.md#sampling).
	Sampling *SamplingRequest `json:"sampling,omitempty"`
	// Origin says who asks when it is not the model: "the app view of
	// kit.show" for a call asked by a tool's app view
	// (docs/mcp-apps.md#view-calls); "" for the model. Every prompt shows it.
	Origin string `json:"origin,omitempty"`
}

// Prompter asks a person. Prompt blocks until an answer, ctx is done, or the
// prompter gives up; a non-nil error is treated as Deny and journaled with
// its message. Implementations must be safe for concurrent use.
type Prompter interface {
	Prompt(ctx context.Context, req Request) (Decision, error)
}

// ErrParked is returned (wrapped) by a prompter of an unattended run that
// does not wait: it put the question in the inbox for later
// (docs/inbox.md#unattended). The engine reports it with SourceParked;
// the call is neither run nor refused, and the run parks.
var ErrParked = errors.New("waiting on you")

// ErrNoTerminal is returned by a terminal prompter that has no terminal to
// ask on; the call is denied.
var ErrNoTerminal = errors.New("no terminal to ask for approval; the call is denied")
