package extension

import (
	"fmt"

	"github.com/openworker/desktop/harness/servers"
)

// maxNamespaceTries bounds the suffixes tried for a free namespace.
const maxNamespaceTries = 99

// Namespace returns the provider namespace for an extension named name
// (docs/extensions.md#namespace): servers.DeriveNamespace of the name (the
// rule of servers.json names: "io.github.acme.notes" becomes
// "io_github_acme_notes"), or, when taken(ns) says another provider (a
// native tool, a servers.json entry, another extension) has it, the first
// of ns_2 … ns_99 that is free. The error says why no namespace can be
// made and what to do (`--namespace` on the command line).
func Namespace(name string, taken func(ns string) bool) (string, error) {
	ns, _, err := servers.DeriveNamespace(name)
	if err != nil {
		return "", fmt.Errorf("extension %q: %w; install it with --namespace NAME", name, err)
	}
	if taken == nil || !taken(ns) {
		return ns, nil
	}
	for i := 2; i <= maxNamespaceTries; i++ {
		if c := fmt.Sprintf("%s_%d", ns, i); !taken(c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("extension %q: the namespaces %s and %s_2 … %s_%d are all taken; install it with --namespace NAME", name, ns, ns, ns, maxNamespaceTries)
}
