package bundle

import (
	"strconv"

	"github.com/openworker/desktop/harness/tool"
)

// MaxSamplingProviders bounds the "sampling" list of a manifest.
const MaxSamplingProviders = 64

// checkSampling validates the front matter's "sampling" list: the
// namespaces of the MCP providers allowed to ask the session's model for a
// completion (docs/bundles.md#sampling, docs/mcp.md#sampling). Each entry
// is a namespace (tool.CheckNamespace), listed once, of a provider
// tools.json selects a tool of; anything else is an error at its line and
// column.
func (l *loader) checkSampling(mpath string, m *yamlMap, listed []string, b *Bundle) *LoadError {
	if len(listed) > MaxSamplingProviders {
		line, col := m.at("sampling")
		return l.errf(mpath, line, col, "list only the providers that need it", "sampling lists %d providers; at most %d are allowed", len(listed), MaxSamplingProviders)
	}
	used := map[string]bool{}
	for _, n := range b.Tools.Explicit() {
		if ns, _, err := tool.SplitName(n); err == nil {
			used[ns] = true
		}
	}
	for _, ns := range b.Tools.WholeProviders() {
		used[ns] = true
	}
	seen := map[string]int{}
	for i, ns := range listed {
		line, col := m.item("sampling", i)
		if err := tool.CheckNamespace(ns); err != nil {
			return l.errf(mpath, line, col, "write the namespace of an MCP provider, as in servers.json (e.g. \"everything\")", "sampling: %s: %v", strconv.QuoteToASCII(ns), err)
		}
		if j, dup := seen[ns]; dup {
			fl, fc := m.item("sampling", j)
			return l.errf(mpath, line, col, "list it once", "sampling lists %q twice (first at line %d, column %d)", ns, fl, fc)
		}
		seen[ns] = i
		if !used[ns] {
			return l.errf(mpath, line, col, "select a tool of that provider in tools.json, or remove the entry",
				"sampling names provider %q, but tools.json selects none of its tools", ns)
		}
		b.Sampling = append(b.Sampling, ns)
	}
	return nil
}

// AllowsSampling reports whether the manifest's "sampling" list names the
// provider namespace ns (docs/mcp.md#sampling).
func (b *Bundle) AllowsSampling(ns string) bool {
	if b == nil {
		return false
	}
	for _, s := range b.Sampling {
		if s == ns {
			return true
		}
	}
	return false
}
