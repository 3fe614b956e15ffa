package harness

import (
	"fmt"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/tool"
)

// A tool that does not resolve: the error naming the bundle, the tool and
// the fix (docs/bundles.md), and the words it is made of.

// ResolveError reports a selection that cannot be resolved. File, Line and
// Col say where the name stands in tools.json (0 when unknown).
type ResolveError struct {
	Coworker  string
	Tool      string
	Msg       string
	File      string
	Line, Col int
	// Provider is the MCP namespace whose provider did not start or list
	// its tools, when that is the problem (the selection itself may be
	// right); "" otherwise.
	Provider string
	// Fix is what to change, when the resolver knows better than the
	// generic advice (a name the model cannot take); "" otherwise.
	Fix string
	// StartFailed is set when Provider is registered but did not start or
	// list its tools: a runtime failure (`openworker run` exits 1), not a
	// bad bundle or servers-file entry (docs/cli.md#exit-codes).
	StartFailed bool
	// SandboxRequired is set when the coworker's requires_sandbox refused
	// Provider, an unsandboxed stdio provider (docs/bundles.md#requires-sandbox).
	SandboxRequired bool

	cause error // the provider's start error (StartFailed), for errors.As
	// folder is set when the coworker's folder is missing or not a
	// folder (workspace.go): Check does not cache it, as the folder may
	// be made at any time.
	folder bool
}

// Unwrap is the provider's start error when StartFailed (a
// *launch.NotFoundError for a program found nowhere), else nil.
func (e *ResolveError) Unwrap() error { return e.cause }

// nameFix is the advice for an explicitly selected name that cannot be
// given a model alias under the rule.
const nameFix = "remove the name from tools.json (a model cannot be offered a tool under it), or have the tool renamed in its provider"

func (e *ResolveError) Error() string {
	where := ""
	if e.File != "" && e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d: ", e.File, e.Line, e.Col)
	}
	if e.Tool == "" {
		return fmt.Sprintf("%scoworker %q: %s", where, e.Coworker, e.Msg)
	}
	return fmt.Sprintf("%scoworker %q selects %q: %s", where, e.Coworker, e.Tool, e.Msg)
}

// resolveErr builds a ResolveError positioned at name in tools.json.
func resolveErr(b *bundle.Bundle, name, msg string) *ResolveError {
	p := b.Tools.At(name)
	if p.Line == 0 { // a tool of a v1 provider: point at the provider
		if ns, _, err := tool.SplitName(name); err == nil {
			p = b.Tools.At(ns)
		}
	}
	return &ResolveError{Coworker: b.ID, Tool: name, Msg: msg, File: b.Tools.File, Line: p.Line, Col: p.Col}
}

// leftOut builds the LeftOut of a whole-provider tool from the error that
// rules out its name.
func leftOut(b *bundle.Bundle, name string, e *ResolveError) LeftOut {
	ns, _, _ := strings.Cut(name, ".")
	where := ""
	if e.File != "" && e.Line > 0 {
		where = fmt.Sprintf("%s:%d:%d: ", e.File, e.Line, e.Col)
	}
	return LeftOut{Tool: name, Provider: "mcp:" + ns, Reason: e.Msg, File: e.File, Line: e.Line, Col: e.Col,
		Message: fmt.Sprintf("%scoworker %q leaves out %q of MCP provider %q: %s; the other tools of the provider are selected", where, b.ID, name, ns, e.Msg)}
}

// listNames renders up to 12 names for an error message.
func listNames(names []string) string {
	sort.Strings(names)
	if len(names) > 12 {
		return strings.Join(names[:12], ", ") + fmt.Sprintf(", … (%d in all)", len(names))
	}
	return strings.Join(names, ", ")
}

// knownNamespaces lists the native and MCP namespaces of a registry.
func knownNamespaces(reg *tool.Registry) string {
	seen := map[string]bool{}
	var out []string
	for _, d := range reg.Descriptors() {
		if ns, _, err := tool.SplitName(d.Name); err == nil && !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	for _, s := range reg.Servers() {
		out = append(out, s.Namespace)
	}
	for _, a := range reg.Agents() {
		out = append(out, a.Namespace)
	}
	if len(out) == 0 {
		return "none"
	}
	return listNames(out)
}

// nativeTools lists the native tools of one namespace.
func nativeTools(reg *tool.Registry, ns string) []string {
	var out []string
	for _, d := range reg.Descriptors() {
		if strings.HasPrefix(d.Name, ns+".") {
			out = append(out, d.Name)
		}
	}
	return out
}
