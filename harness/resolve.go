package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// ProviderNative is the provider of a native tool; MCP tools have
// "mcp:<namespace>", the skills of A2A agents "a2a:<namespace>"
// (ProviderA2APrefix).
const ProviderNative = "native"

// ResolvedTool is one selected tool, resolved exactly (docs/bundles.md).
type ResolvedTool struct {
	Name      string `json:"name"`      // qualified name
	Alias     string `json:"alias"`     // the name the model sees
	Provider  string `json:"provider"`  // "native", "mcp:<namespace>" or "a2a:<namespace>"
	Remote    string `json:"remote"`    // the provider's own tool name (an A2A skill id)
	Placement string `json:"placement"` // where calls go: tool.PlacementLocal (with a sandbox in words) or a host (docs/consent.md#placement)
	// Access says what a call can reach (docs/sandbox.md#in-words): a
	// sandboxed provider's sandbox in words, tool.FullAccess for native
	// tools and unsandboxed stdio providers, "" for a provider reached at
	// a URL.
	Access string `json:"access,omitempty"`
	// ProgramPath is the program a stdio provider runs, as resolved
	// (docs/mcp.md#finding-the-program); "" for native tools and HTTP
	// providers.
	ProgramPath string             `json:"program_path,omitempty"`
	Descriptor  tool.Descriptor    `json:"-"`
	Pin         consent.PinnedDesc `json:"pin"`

	native  tool.Tool
	agent   *a2a.Agent // the A2A agent of a skill (agents.go); nil otherwise
	sandbox string     // the provider's placement as canonical JSON, "" unsandboxed (docs/identity.md)
	missing bool       // the provider no longer lists it (found at turn preparation)
	skills  bool       // skills.load or skills.read, which need no consent (skills.go)
	pinned  []byte     // the JSON of the native descriptor the session pinned
}

// Resolution is a bundle's selection resolved against the registry and the
// providers' catalogs, in selection order.
type Resolution struct {
	Bundle  *bundle.Bundle
	Tools   []ResolvedTool
	LeftOut []LeftOut // whole providers' tools the name rule refuses, not in Tools
	byAlias map[string]int
}

// LeftOut is a tool of a whole-provider selection (tools.json version 1)
// that was left out because its name cannot be given a model alias under
// the name rule in force (docs/bundles.md#names-the-model-cannot-take).
// An explicit selection of such a name is a ResolveError instead.
type LeftOut struct {
	Tool     string `json:"tool"`     // qualified name, as the provider lists it
	Provider string `json:"provider"` // "mcp:<namespace>"
	Reason   string `json:"reason"`   // the rule it breaks, naming the name or alias
	// File, Line and Col say where the provider's namespace stands in
	// tools.json.
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	// Message is the whole warning, as `openworker check` prints it and
	// the journal keeps it.
	Message string `json:"message"`
}

// CodeToolLeftOut is the journal's warning code for a LeftOut tool.
const CodeToolLeftOut = "tool_left_out"

// ByAlias returns the selected tool a model alias names, or false. There is
// no fuzzy matching: an alias is either selected exactly or refused.
func (r *Resolution) ByAlias(alias string) (*ResolvedTool, bool) {
	i, ok := r.byAlias[alias]
	if !ok {
		return nil, false
	}
	return &r.Tools[i], true
}

// Resolve resolves a bundle's tools.json against the newest registry
// generation, discovering the catalogs of the MCP providers it names (in
// parallel, docs/mcp.md). Every alias must fit rule, the tool-name rule
// of the model provider the selection is for (a model.Provider; nil means
// model.SharedToolNames). A missing tool, an unknown namespace, a name the
// rule refuses or a provider that fails to start is an error; nothing
// falls back. The one exception: a tool of a whole provider (version 1)
// whose name cannot be given an alias is left out (Resolution.LeftOut).
func (rt *Runtime) Resolve(ctx context.Context, b *bundle.Bundle, rule model.NameRule) (*Resolution, error) {
	g, err := rt.acquire()
	if err != nil {
		return nil, err
	}
	defer rt.release(g)
	return rt.resolve(ctx, g, b, rule, rt.opts.Workspace, rt.opts.DefaultWorkspace)
}

// resolve is Resolve in g, for a session whose workspace folder is
// workspace: the providers started for it offer it as their root, unless
// it is a default (defaultWS, rootless). The coworker's own folder, when
// its manifest sets one, replaces workspace and is offered (workspace.go).
func (rt *Runtime) resolve(ctx context.Context, g *generation, b *bundle.Bundle, rule model.NameRule, workspace string, defaultWS bool) (*Resolution, error) {
	if rule == nil {
		rule = model.SharedToolNames
	}
	if e := checkFolder(b); e != nil {
		return nil, e
	}
	workspace, noRoot := workspaceFor(workspace, b), rootless(defaultWS, b)
	reg := g.reg
	names := b.Tools.Explicit()
	whole := b.Tools.WholeProviders()
	if e := sandboxesRequired(reg, b, whole, names); e != nil {
		return nil, e // before any provider starts: none runs unconfined for this coworker
	}
	r := &resolver{b: b, reg: reg, rule: rule,
		cats:  rt.catalogs(ctx, g, providersOf(reg, whole, names), useFor(workspace, noRoot, b)), // all at once
		cards: rt.agentCards(ctx, reg, whole, names),                                             // A2A agents' cards (agents.go)
		res:   &Resolution{Bundle: b, byAlias: map[string]int{}},
	}
	if workspace == "" || noRoot {
		r.withRoot = rt.toolsWithRoot(ctx, g, b)
	}
	explicit := len(names) // the names after these are the tools of whole providers
	for _, ns := range whole {
		listed, e := r.wholeProvider(ns)
		if e != nil {
			return nil, e
		}
		names = append(names, listed...)
	}
	for i, name := range names {
		if e := r.add(name, i >= explicit); e != nil {
			return nil, e
		}
	}
	if e := r.addSkillTools(rt.opts.Limits.ResultBytes); e != nil {
		return nil, e
	}
	if e := r.addResourceTool(rt.resourceReader(g, useFor(workspace, noRoot, b))); e != nil { // resources.go
		return nil, e
	}
	if e := r.policiesSelected(); e != nil {
		return nil, e
	}
	return r.res, nil
}

// resolver resolves one selection: the registry of a generation, the
// catalogs and cards read for the selection, and the Resolution it
// builds, one name at a time (add).
type resolver struct {
	b     *bundle.Bundle
	reg   *tool.Registry
	rule  model.NameRule
	cats  map[string]*catalog   // the MCP providers' catalogs, by namespace
	cards map[string]*agentCard // the A2A agents' cards, by namespace
	res   *Resolution
	// withRoot lists, once per namespace, the tools a provider offers only
	// when the client offers a root; nil when the resolution offers its
	// workspace as a root (workspace_tools.go).
	withRoot func(ns string) map[string]bool
}

// wholeProvider lists the qualified names of every tool of the whole
// provider ns (tools.json version 1): an A2A agent's skills, or an MCP
// provider's tools, sorted.
func (r *resolver) wholeProvider(ns string) ([]string, *ResolveError) {
	if c, ok := r.cards[ns]; ok { // an A2A agent: every skill of its card
		if c.err != nil {
			return nil, startFailed(r.b, ns, ns, c.err)
		}
		return qualified(ns, agentSkills(c.agent)), nil
	}
	if _, ok := r.reg.Server(ns); !ok {
		e := resolveErr(r.b, ns, fmt.Sprintf("tools.json names MCP provider %q, which is not registered; add it to servers.json; known namespaces: %s", ns, knownNamespaces(r.reg)))
		if msg, broken := unavailable(r.reg, ns); broken {
			e = resolveErr(r.b, ns, fmt.Sprintf("tools.json names MCP provider %q, %s", ns, msg))
			e.Provider = ns
		}
		e.Tool = ""
		return nil, e
	}
	c := r.cats[ns]
	if c.err != nil {
		return nil, startFailed(r.b, ns, ns, c.err)
	}
	return qualified(ns, slices.Sorted(maps.Keys(c.tools))), nil
}

// qualified is each of remote as a name of namespace ns.
func qualified(ns string, remote []string) []string {
	out := make([]string, 0, len(remote))
	for _, n := range remote {
		out = append(out, ns+"."+n)
	}
	return out
}

// add resolves one selected name with the resolver of its provider's
// kind (native, A2A, MCP), checks its model alias and pins its
// descriptor. ofWhole says it is a tool of a whole provider, which a name
// the model cannot take leaves out instead of failing (refuseName).
func (r *resolver) add(name string, ofWhole bool) *ResolveError {
	ns, remote, err := tool.SplitName(name)
	if err != nil {
		return resolveErr(r.b, name, err.Error())
	}
	var t ResolvedTool
	var e *ResolveError
	var ok bool
	switch {
	case r.reg.IsNative(ns):
		t, e = r.native(name, ns, remote)
		ok = e == nil
	case r.cards[ns] != nil:
		t, ok, e = r.skill(name, ns, remote, ofWhole)
	default:
		t, ok, e = r.mcpTool(name, ns, remote, ofWhole)
	}
	if !ok {
		return e // nil: left out
	}
	t.Alias = tool.Alias(name)
	if why := r.res.aliasProblem(name, t.Alias, r.rule); why != "" {
		// An A2A skill's alias is left out as an MCP tool's is (its
		// LeftOut names "mcp:<namespace>"), as it always was.
		return r.refuseName(name, why, ofWhole, false)
	}
	pin, err := pinFor(&t, t.Descriptor)
	if err != nil {
		return resolveErr(r.b, name, err.Error())
	}
	t.Pin = pin
	r.res.byAlias[t.Alias] = len(r.res.Tools)
	r.res.Tools = append(r.res.Tools, t)
	return nil
}

// native resolves the name ns.remote of a native tool.
func (r *resolver) native(name, ns, remote string) (ResolvedTool, *ResolveError) {
	t, d, ok := r.reg.Tool(name)
	if !ok {
		return ResolvedTool{}, shadowedErr(r.reg, resolveErr(r.b, name, fmt.Sprintf("namespace %q is native and has no tool %q (names are exact and case-sensitive); its tools: %s", ns, remote, listNames(nativeTools(r.reg, ns)))), ns)
	}
	rt := ResolvedTool{Name: name, Provider: ProviderNative, Remote: name, Placement: tool.PlacementLocal, Access: tool.FullAccess, Descriptor: d, native: t}
	rt.pinned, _ = json.Marshal(d)
	return rt, nil
}

// skill resolves the name ns.skill of an A2A agent's skill (agents.go).
// ok is false when the name is left out (e nil) or refused (e).
func (r *resolver) skill(name, ns, skill string, ofWhole bool) (t ResolvedTool, ok bool, e *ResolveError) {
	if err := tool.CheckMCPName(name); err != nil {
		return ResolvedTool{}, false, r.refuseName(name, err.Error(), ofWhole, true)
	}
	if t, e = resolveSkill(r.b, r.cards, name, ns, skill); e != nil {
		return ResolvedTool{}, false, e
	}
	return t, true, nil
}

// mcpTool resolves the name ns.remote of an MCP provider's tool: the
// provider must be registered and list the tool now. ok is false when
// the name is left out (e nil) or refused (e).
func (r *resolver) mcpTool(name, ns, remote string, ofWhole bool) (t ResolvedTool, ok bool, e *ResolveError) {
	srv, registered := r.reg.Server(ns)
	if !registered {
		if msg, broken := unavailable(r.reg, ns); broken {
			e := resolveErr(r.b, name, fmt.Sprintf("its MCP provider %q %s", ns, strings.TrimPrefix(msg, "which ")))
			e.Provider = ns
			return ResolvedTool{}, false, e
		}
		return ResolvedTool{}, false, resolveErr(r.b, name, fmt.Sprintf("no native tool or MCP provider has the namespace %q (names are exact and case-sensitive); known namespaces: %s; or add a provider to servers.json", ns, knownNamespaces(r.reg)))
	}
	if err := tool.CheckMCPName(name); err != nil {
		return ResolvedTool{}, false, r.refuseName(name, err.Error(), ofWhole, false)
	}
	c := r.cats[ns]
	if c.err != nil {
		return ResolvedTool{}, false, startFailed(r.b, name, ns, c.err)
	}
	rd, listed := c.tools[remote]
	if !listed && r.withRoot != nil && r.withRoot(ns)[remote] {
		return ResolvedTool{}, false, onlyWithWorkspace(r.b, name, ns, remote)
	}
	if !listed {
		return ResolvedTool{}, false, shadowedErr(r.reg, resolveErr(r.b, name, fmt.Sprintf("MCP provider %q lists no tool %q (names are exact and case-sensitive); it lists: %s", ns, remote, listNames(qualified(ns, slices.Collect(maps.Keys(c.tools)))))), ns)
	}
	t = ResolvedTool{Name: name, Provider: "mcp:" + ns, Remote: remote, Placement: srv.Placement(), Access: srv.Access(),
		Descriptor: rd.Descriptor(ns).WithDefaults(), sandbox: srv.Sandbox.Canonical()}
	if c.p != nil {
		t.ProgramPath = c.p.ProgramPath()
	}
	return t, true, nil
}

// refuseName is the one rule for a selected name the model cannot take,
// why saying which rule it breaks (docs/bundles.md#names-the-model-cannot-take):
// a tool of a whole provider (ofWhole) is left out, with a LeftOut
// naming an MCP provider or, for agent, an A2A agent, and nil lets the
// resolution go on; an explicitly selected name fails, with nameFix.
func (r *resolver) refuseName(name, why string, ofWhole, agent bool) *ResolveError {
	e := resolveErr(r.b, name, why)
	if !ofWhole {
		e.Fix = nameFix
		return e
	}
	l := leftOut(r.b, name, e)
	if agent {
		ns, _, _ := strings.Cut(name, ".")
		l = agentLeftOut(l, ns)
	}
	r.res.LeftOut = append(r.res.LeftOut, l)
	return nil
}

// startFailed is the error for the selected name (or whole provider) of
// provider ns, which did not start, list its tools or (an A2A agent)
// serve its card: a runtime failure, not a bad selection
// (ResolveError.StartFailed), whose cause errors.As finds.
func startFailed(b *bundle.Bundle, name, ns string, cause error) *ResolveError {
	e := resolveErr(b, name, cause.Error())
	e.Provider, e.StartFailed, e.cause = ns, true, cause
	return e
}

// policiesSelected checks that each policy of the manifest names a
// selected tool. The bundle loader checks this for explicit selections;
// a v1 selection (whole providers) is known only now, after discovery.
func (r *resolver) policiesSelected() *ResolveError {
	selected := make(map[string]bool, len(r.res.Tools))
	for _, t := range r.res.Tools {
		selected[t.Name] = true
	}
	for name := range r.b.Policy {
		if name == "*" || selected[name] {
			continue
		}
		msg := "the manifest's policy names it, but the selection does not contain it; fix the name (names are exact and case-sensitive) or remove the entry"
		for _, l := range r.res.LeftOut {
			if l.Tool == name {
				msg = "the manifest's policy names it, but it was left out of the selection (" + l.Reason + "); remove the entry"
			}
		}
		return &ResolveError{Coworker: r.b.ID, Tool: name, File: filepath.Join(r.b.Dir, "coworker", "manifest.md"), Msg: msg}
	}
	return nil
}

// aliasProblem says why the selected name, with model alias alias, cannot
// be offered to a model under rule, or "": a name or alias over
// tool.MaxNameBytes, an alias the rule refuses, or an alias another
// selected tool already has.
func (res *Resolution) aliasProblem(name, alias string, rule model.NameRule) string {
	if len(name) > tool.MaxNameBytes {
		return fmt.Sprintf("the name is %d bytes; at most %d", len(name), tool.MaxNameBytes)
	}
	if len(alias) > tool.MaxNameBytes {
		return fmt.Sprintf("the alias %q is %d bytes; at most %d", alias, len(alias), tool.MaxNameBytes)
	}
	if err := rule.CheckToolName(alias); err != nil {
		return err.Error()
	}
	if i, dup := res.byAlias[alias]; dup {
		return fmt.Sprintf("its model alias %q collides with %q; rename one of them", alias, res.Tools[i].Name)
	}
	return ""
}

// unavailable explains why the MCP namespace ns, which no working provider
// has, is not there when the configuration says why: its entry is broken,
// or the whole servers file could not be read (docs/servers.md). The text
// starts with "which" and names the file, line and column and the fix.
func unavailable(reg *tool.Registry, ns string) (string, bool) {
	if b, ok := reg.BrokenMCP(ns); ok {
		if b.Extension {
			return fmt.Sprintf("which is disabled: the installed extension cannot be used: %v", b.Err), true
		}
		return fmt.Sprintf("which is disabled: its entry in the servers file is broken: %v", b.Err), true
	}
	for _, b := range reg.Broken() {
		if b.WholeFile() {
			return fmt.Sprintf("which is not registered: the servers file could not be read, so none of its providers are: %v", b.Err), true
		}
	}
	return "", false
}

// shadowedErr adds the real cause to e, an error about a tool missing from
// the working namespace ns, when an entry of the servers file wanted ns
// too and was refused (it is the binary's own: docs/servers.md#namespaces):
// the tool is most likely that entry's.
func shadowedErr(reg *tool.Registry, e *ResolveError, ns string) *ResolveError {
	for _, b := range reg.Broken() {
		if b.Namespace != ns || b.WholeFile() {
			continue
		}
		e.Msg += fmt.Sprintf("; the servers file's entry %q, which may hold that tool, could not take the namespace: %v", nameOf(b), b.Err)
		if je, ok := jsonfile.AsError(b.Err); ok && je.Fix != "" {
			e.Fix = je.Fix
		}
		return e
	}
	return e
}

// nameOf is the name of a broken entry as written.
func nameOf(b tool.BrokenMCP) string {
	if b.Name != "" {
		return b.Name
	}
	return b.Namespace
}

// providersOf lists the registered MCP namespaces a selection names: its
// whole providers and the namespaces of its explicit names.
func providersOf(reg *tool.Registry, whole, names []string) []string {
	var out []string
	for _, ns := range whole {
		if _, ok := reg.Server(ns); ok {
			out = append(out, ns)
		}
	}
	for _, name := range names {
		if ns, _, err := tool.SplitName(name); err == nil && !reg.IsNative(ns) {
			if _, ok := reg.Server(ns); ok {
				out = append(out, ns)
			}
		}
	}
	return out
}
