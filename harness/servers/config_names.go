package servers

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// DeriveNamespace returns the namespace of a server named name in a
// configuration file (docs/servers.md#namespaces): name itself when it is
// a valid namespace (tool.CheckNamespace), else name with each run of
// characters other than letters, digits, '_' and '-' replaced by one '_',
// and such '_' at either end dropped: "awslabs.core-mcp-server" becomes
// "awslabs_core-mcp-server", "My Server (beta)" becomes "My_Server_beta".
// derived reports whether it changed. A name with no ASCII letter, digit,
// '_' or '-', or one that becomes the reserved namespace, is an error.
func DeriveNamespace(name string) (ns string, derived bool, err error) {
	if tool.CheckNamespace(name) == nil {
		return name, false, nil
	}
	ns = namespaceChars(name)
	if ns == "" {
		return "", false, &namespaceError{msg: fmt.Sprintf("server %q has no ASCII letter (a-z, A-Z), digit, '_' or '-' to make a namespace of", name),
			fix: "rename the server with ASCII letters, digits, '_' or '-': a namespace holds only those (docs/servers.md#namespaces)"}
	}
	if ns == tool.ReservedNamespace {
		return "", false, &namespaceError{msg: fmt.Sprintf("server %q would have the namespace %q, which is reserved for OpenWorker itself", name, ns),
			fix: fmt.Sprintf("rename the server: no server may be named %q", ns)}
	}
	if ns == tool.SkillsNamespace {
		return "", false, &namespaceError{msg: fmt.Sprintf("server %q would have the namespace %q, which is reserved for the tools OpenWorker gives a coworker with skills (skills.load, skills.read)", name, ns),
			fix: fmt.Sprintf("rename the server: no server may be named %q", ns)}
	}
	if err := tool.CheckNamespace(ns); err != nil {
		return "", false, &namespaceError{msg: fmt.Sprintf("server %q: %v", name, err), fix: "rename the server: a namespace holds ASCII letters, digits, '_' and '-'"}
	}
	return ns, ns != name, nil
}

// namespaceError is why a server's name gives no namespace, with the fix.
type namespaceError struct{ msg, fix string }

func (e *namespaceError) Error() string { return e.msg }

// maxAliasBytes is the longest tool name every model provider takes
// (model.ToolNamePattern): a tool's alias NAMESPACE__TOOL must fit in it.
const maxAliasBytes = 64

// minToolRoom is the room for a tool's name under maxAliasBytes below
// which a namespace gets a notice.
const minToolRoom = 16

// namespaceChars is name with each run of characters a namespace cannot
// hold (anything but ASCII letters, digits, '_' and '-') between two it
// can made one '_', and dropped at the start and the end.
func namespaceChars(name string) string {
	var b strings.Builder
	gap := false
	for _, r := range name {
		if !namespaceRune(r) {
			gap = true
			continue
		}
		if gap && b.Len() > 0 {
			b.WriteByte('_')
		}
		gap = false
		b.WriteRune(r)
	}
	return b.String()
}

// namespaceRune reports whether a namespace may hold r.
func namespaceRune(r rune) bool {
	return r < 0x80 && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
}
