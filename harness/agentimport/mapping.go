package agentimport

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// Mapping tool names (docs/import-agents.md#mapping): a source names
// tools in its own host's words; each becomes the qualified names of the
// registry's tools that do the same, or is left unmapped with why.
// Nothing unmapped is granted.

// FilesNamespace is the namespace of the built-in files provider
// (docs/files.md), which Claude Code's file tools map to.
const FilesNamespace = "files"

// The files provider's tools, by qualified name.
const (
	filesRead   = FilesNamespace + ".file_read"
	filesWrite  = FilesNamespace + ".file_write"
	filesEdit   = FilesNamespace + ".file_edit"
	filesList   = FilesNamespace + ".files_list"
	filesSearch = FilesNamespace + ".files_search"
	filesMkdir  = FilesNamespace + ".folder_make"
)

// RegistryCatalog is the Catalog of a registry: its native tools (each
// namespace with its tools) and its MCP providers (known, their tools
// listed when they start). A provider broken in reg is not known.
func RegistryCatalog(reg *tool.Registry) Catalog {
	c := registryCatalog{native: map[string][]string{}, mcp: map[string]bool{}}
	for _, d := range reg.Descriptors() {
		if ns, _, err := tool.SplitName(d.Name); err == nil {
			c.native[ns] = append(c.native[ns], d.Name)
		}
	}
	for _, s := range reg.Servers() {
		c.mcp[s.Namespace] = true
	}
	return c
}

type registryCatalog struct {
	native map[string][]string
	mcp    map[string]bool
}

func (c registryCatalog) Provider(ns string) ([]string, bool) {
	if ts, ok := c.native[ns]; ok {
		return slices.Clone(ts), true
	}
	return nil, c.mcp[ns]
}

// mapper maps tool names against the catalog and the servers file the
// import leaves.
type mapper struct {
	cat Catalog
	// servers are the namespaces of the servers file after the import
	// (kept and added entries).
	servers map[string]bool
	// byName maps a server's name as sources write it to its namespace.
	byName map[string]string
	// notAdded says why a server a source brings is not added, by name
	// and by namespace.
	notAdded map[string]string
	// plugins are the names of the Claude Code plugins imported, whose
	// servers' tools are "mcp__plugin_<plugin>_<server>__<tool>".
	plugins []string
}

func newMapper(cat Catalog) *mapper {
	return &mapper{cat: cat, servers: map[string]bool{}, byName: map[string]string{}, notAdded: map[string]string{}}
}

// result is where one tool name goes: names (mapped), or reason (not).
type result struct {
	names    []string
	verified bool
	note     string
	reason   string
}

func unmapped(format string, args ...any) result { return result{reason: fmt.Sprintf(format, args...)} }

// provider reports what is known of namespace ns: from the servers file
// (an MCP provider, tools listed when it starts) or the catalog.
func (m *mapper) provider(ns string) (tools []string, known bool) {
	if m.servers[ns] {
		return nil, true
	}
	if m.cat == nil {
		return nil, false
	}
	return m.cat.Provider(ns)
}

// qualified maps a qualified name q.
func (m *mapper) qualified(q string) result {
	ns, name, err := tool.SplitName(q)
	if err != nil {
		return unmapped("%q is not a tool name OpenWorker can hold: %v", q, err)
	}
	tools, known := m.provider(ns)
	switch {
	case known && tools != nil:
		if slices.Contains(tools, q) {
			return result{names: []string{q}, verified: true}
		}
		return unmapped("provider %q has no tool %q (its tools: %s)", ns, name, strings.Join(tools, ", "))
	case known:
		return result{names: []string{q}, note: fmt.Sprintf("MCP provider %q lists its tools when it starts: checking the coworker resolves %s", ns, q)}
	case m.cat == nil:
		return result{names: []string{q}, note: "not verified: no registry was given to check it against"}
	}
	if why := m.notAdded[ns]; why != "" {
		return unmapped("its server %q is not added to the servers file: %s", ns, why)
	}
	return unmapped("there is no provider %q in this OpenWorker or its servers file; add the server to the servers file, then the tool to the coworker", ns)
}

// files maps to tools of the files provider.
func (m *mapper) files(names ...string) result {
	r := result{verified: true}
	for _, q := range names {
		one := m.qualified(q)
		if one.reason != "" {
			if _, known := m.provider(FilesNamespace); !known {
				return unmapped("its counterpart is the files provider (%s), which this OpenWorker does not have", strings.Join(names, ", "))
			}
			return one
		}
		r.names = append(r.names, one.names...)
		r.verified = r.verified && one.verified
		if r.note == "" {
			r.note = one.note
		}
	}
	return r
}

// namespaceOf finds the namespace of a server as a source names it:
// the servers file's entry of that name, or a provider of that
// namespace. "" when there is none.
func (m *mapper) namespaceOf(server string) string {
	if ns, ok := m.byName[server]; ok {
		return ns
	}
	if _, known := m.provider(server); known {
		return server
	}
	if ns, _, err := servers.DeriveNamespace(server); err == nil {
		if _, known := m.provider(ns); known {
			return ns
		}
	}
	return ""
}

// serverTool maps a tool of a server as a source names it (tool "" or
// "*" for every tool of the server).
func (m *mapper) serverTool(server, name string) result {
	ns := m.namespaceOf(server)
	if ns == "" {
		if why := m.notAdded[server]; why != "" {
			return unmapped("its server %q is not added to the servers file: %s", server, why)
		}
		if m.cat == nil && tool.CheckNamespace(server) == nil {
			ns = server
		} else {
			return unmapped("there is no server %q in this OpenWorker or its servers file; add it to the servers file, then its tools to the coworker", server)
		}
	}
	if name == "" || name == "*" {
		return m.wholeServer(ns)
	}
	return m.qualified(ns + "." + name)
}

// wholeServer maps "every tool of ns": each when the catalog lists them,
// else unmapped (tools.json names tools one by one, and which tools an
// MCP provider has is known only once it starts).
func (m *mapper) wholeServer(ns string) result {
	tools, known := m.provider(ns)
	if known && tools != nil {
		sort.Strings(tools)
		return result{names: tools, verified: true, note: fmt.Sprintf("every tool of %q", ns)}
	}
	return unmapped("it grants every tool of provider %q, and tools.json names tools one by one: once a check of the coworker lists the provider's tools, add those it needs (%s.TOOL)", ns, ns)
}

// add records where from went.
func (c *Coworker) add(from string, r result) {
	if r.reason != "" {
		c.Unmapped = append(c.Unmapped, Unmapped{Tool: from, Reason: r.reason})
		return
	}
	c.Mapped = append(c.Mapped, Mapping{From: from, To: r.names, Verified: r.verified, Note: r.note})
	for _, n := range r.names {
		if !slices.Contains(c.Tools, n) {
			c.Tools = append(c.Tools, n)
		}
	}
}

// everyTool is the Unmapped entry of a source that names no tools, which
// in its host means every tool.
func everyTool(host string) Unmapped {
	return Unmapped{Tool: "*", Reason: fmt.Sprintf("it names no tools, which in %s means every tool; OpenWorker grants none unless named: add the ones it needs to the coworker", host)}
}
