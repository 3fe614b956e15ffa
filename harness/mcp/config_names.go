package mcp

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
// derived reports whether it changed. A name with no letter, digit, '_' or
// '-', or one that becomes the reserved namespace, is an error.
func DeriveNamespace(name string) (ns string, derived bool, err error) {
	if tool.CheckNamespace(name) == nil {
		return name, false, nil
	}
	var b strings.Builder
	gap := false
	for _, r := range name {
		if r < 0x80 && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			if gap && b.Len() > 0 {
				b.WriteByte('_')
			}
			gap = false
			b.WriteRune(r)
			continue
		}
		gap = true
	}
	ns = b.String()
	if ns == "" {
		return "", false, fmt.Errorf("server %q has no letter, digit, '_' or '-' to make a namespace of", name)
	}
	if err := tool.CheckNamespace(ns); err != nil {
		return "", false, fmt.Errorf("server %q: %w", name, err)
	}
	return ns, ns != name, nil
}
