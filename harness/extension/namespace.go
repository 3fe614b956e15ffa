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
// made and what to do: a *NamespaceError, to which a host adds where a
// namespace is chosen.
func Namespace(name string, taken func(ns string) bool) (string, error) {
	ns, _, err := servers.DeriveNamespace(name)
	if err != nil {
		return "", &NamespaceError{Err: fmt.Errorf("extension %q: %w; install it with a namespace of your choice", name, err)}
	}
	if taken == nil || !taken(ns) {
		return ns, nil
	}
	for i := 2; i <= maxNamespaceTries; i++ {
		if c := fmt.Sprintf("%s_%d", ns, i); !taken(c) {
			return c, nil
		}
	}
	return "", &NamespaceError{Err: fmt.Errorf("extension %q: the namespaces %s and %s_2 … %s_%d are all taken; install it with a namespace of your choice", name, ns, ns, ns, maxNamespaceTries)}
}

// NamespaceError is an error about an extension's namespace: the one
// asked for (Asked, InspectOptions.Namespace) is invalid or another
// provider's, or (Asked "") none can be derived from the name and one
// must be chosen. A host adds where it is chosen (harness/cli: its
// --namespace flag).
type NamespaceError struct {
	Asked string
	Err   error
}

func (e *NamespaceError) Error() string {
	if e.Asked != "" {
		return "the namespace asked for: " + e.Err.Error()
	}
	return e.Err.Error()
}

func (e *NamespaceError) Unwrap() error { return e.Err }
