package harness

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Effects of a CatalogTool, from its declarations: a native tool's Risk,
// an MCP tool's annotations (hints only, never permissions,
// docs/consent.md), none for an A2A skill.
const (
	EffectReadOnly    = "read_only"    // declared read-only
	EffectChangesData = "changes_data" // changes data, declared not destructive
	EffectDestructive = "destructive"  // may destroy data (MCP: destructiveHint, true by default for a tool that is not read-only)
	EffectUnknown     = "unknown"      // declares nothing (an MCP tool without annotations, an A2A skill)
)

// ProviderTools is one provider of the newest registry generation with
// the tools it offers now: what a person picks a coworker's tools from
// (the app's coworker editor, docs/app.md#coworker-editor).
type ProviderTools struct {
	Namespace string `json:"namespace"`
	// Provider is as ResolvedTool.Provider: "native", "mcp:<namespace>"
	// or "a2a:<namespace>".
	Provider string `json:"provider"`
	// Source is where an MCP provider or A2A agent is configured (a
	// servers file, an extension's record), "" for one registered in code.
	Source string `json:"source,omitempty"`
	// Name is the server's or agent's name as written when it is not
	// the namespace.
	Name  string        `json:"name,omitempty"`
	Tools []CatalogTool `json:"tools"` // sorted by name
	// Error says why its tools could not be listed: the provider did not
	// start or list them, its agent card could not be read, or its
	// configuration is broken ("" when listed).
	Error string `json:"error,omitempty"`
}

// CatalogTool is one tool a provider offers now.
type CatalogTool struct {
	Name        string `json:"name"` // qualified
	Title       string `json:"title,omitempty"`
	Description string `json:"description"`
	// Effect is EffectReadOnly, EffectChangesData, EffectDestructive or
	// EffectUnknown.
	Effect string `json:"effect"`
	// Idempotent and OpenWorld are an MCP tool's idempotentHint and
	// openWorldHint when it sent them.
	Idempotent *bool `json:"idempotent,omitempty"`
	OpenWorld  *bool `json:"open_world,omitempty"`
	// Refused says why a coworker cannot select it: its name breaks the
	// naming rules (docs/registry.md#names) or its alias the model
	// provider's tool-name rule (docs/bundles.md#names-the-model-cannot-take);
	// "" when it can.
	Refused string `json:"refused,omitempty"`
}

// ToolCatalog lists every provider of the newest registry generation
// with its tools: native namespaces from the registry, MCP providers
// started (or reused) as Check starts them, with the runtime's workspace
// as their root, and A2A agents from their cards, at most
// Options.Parallel at once, each within Options.CheckTimeout. A provider
// that fails has its Error set and no tools; a broken entry of the
// servers file is listed with its error. rule is the tool-name rule of
// the model provider sessions would use (nil: model.SharedToolNames).
// With namespaces, only those providers are listed (and started); one the
// registry does not have is left out. Sorted by namespace. It never asks
// for a sign-in.
func (rt *Runtime) ToolCatalog(ctx context.Context, rule model.NameRule, namespaces ...string) ([]ProviderTools, error) {
	if rule == nil {
		rule = model.SharedToolNames
	}
	g, err := rt.acquire()
	if err != nil {
		return nil, err
	}
	defer rt.release(g)
	ctx = oauth.NoAsk(ctx)
	if rt.opts.CheckTimeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, rt.opts.CheckTimeout)
		defer cancel()
	}
	c := &catalogBuild{rule: rule, namespaces: namespaces, byNS: map[string]*ProviderTools{}}
	c.native(g.reg)
	c.mcp(rt.catalogs(ctx, g, c.servers(g.reg), useFor(rt.opts.Workspace, rt.opts.DefaultWorkspace, nil)))
	c.a2a(rt.agentCards(ctx, g.reg, c.agents(g.reg), nil))
	c.broken(g.reg)
	return c.sorted(), nil
}

// catalogBuild collects ToolCatalog's providers by namespace.
type catalogBuild struct {
	rule       model.NameRule
	namespaces []string // the namespaces asked for; none: all
	byNS       map[string]*ProviderTools
}

// wanted says whether the catalog lists namespace ns.
func (c *catalogBuild) wanted(ns string) bool {
	return len(c.namespaces) == 0 || slices.Contains(c.namespaces, ns)
}

// native adds the registry's native tools, grouped by namespace.
func (c *catalogBuild) native(reg *tool.Registry) {
	for _, d := range reg.Descriptors() {
		ns, _, err := tool.SplitName(d.Name)
		if err != nil || !c.wanted(ns) {
			continue
		}
		p := c.byNS[ns]
		if p == nil {
			p = &ProviderTools{Namespace: ns, Provider: ProviderNative, Tools: []CatalogTool{}}
			c.byNS[ns] = p
		}
		p.Tools = append(p.Tools, CatalogTool{Name: d.Name, Description: d.Description, Effect: riskEffect(d.Risk), Refused: nameRefused(d.Name, c.rule, false)})
	}
}

// servers adds an empty entry for each wanted MCP server and returns their
// namespaces.
func (c *catalogBuild) servers(reg *tool.Registry) []string {
	var servers []string
	for _, s := range reg.Servers() {
		if !c.wanted(s.Namespace) {
			continue
		}
		servers = append(servers, s.Namespace)
		c.byNS[s.Namespace] = &ProviderTools{Namespace: s.Namespace, Provider: "mcp:" + s.Namespace, Source: s.Source, Name: s.Name, Tools: []CatalogTool{}}
	}
	return servers
}

// mcp fills the MCP servers' entries from their catalogs.
func (c *catalogBuild) mcp(cats map[string]*catalog) {
	for ns, cat := range cats {
		p := c.byNS[ns]
		if cat.err != nil {
			p.Error = cat.err.Error()
			continue
		}
		for _, t := range cat.tools {
			name := ns + "." + t.Name
			p.Tools = append(p.Tools, CatalogTool{Name: name, Title: t.Title, Description: t.Description, Effect: hintEffect(t),
				Idempotent: t.IdempotentHint, OpenWorld: t.OpenWorldHint, Refused: nameRefused(name, c.rule, true)})
		}
	}
}

// agents adds an empty entry for each wanted A2A agent and returns their
// namespaces.
func (c *catalogBuild) agents(reg *tool.Registry) []string {
	var agents []string
	for _, a := range reg.Agents() {
		if !c.wanted(a.Namespace) {
			continue
		}
		agents = append(agents, a.Namespace)
		c.byNS[a.Namespace] = &ProviderTools{Namespace: a.Namespace, Provider: ProviderA2APrefix + a.Namespace, Source: a.Source, Name: a.Name, Tools: []CatalogTool{}}
	}
	return agents
}

// a2a fills the A2A agents' entries from their cards' skills.
func (c *catalogBuild) a2a(cards map[string]*agentCard) {
	for ns, card := range cards {
		p := c.byNS[ns]
		if card.err != nil {
			p.Error = card.err.Error()
			continue
		}
		for _, s := range card.agent.Skills() {
			p.Tools = append(p.Tools, CatalogTool{Name: s.Descriptor.Name, Description: s.Descriptor.Description, Effect: EffectUnknown, Refused: nameRefused(s.Descriptor.Name, c.rule, true)})
		}
	}
}

// broken adds the servers file's broken entries not otherwise listed.
func (c *catalogBuild) broken(reg *tool.Registry) {
	for _, b := range reg.Broken() {
		if b.Namespace != "" && c.wanted(b.Namespace) && c.byNS[b.Namespace] == nil {
			c.byNS[b.Namespace] = &ProviderTools{Namespace: b.Namespace, Provider: "mcp:" + b.Namespace, Source: b.Source, Name: b.Name, Tools: []CatalogTool{}, Error: b.Err.Error()}
		}
	}
}

// sorted is the providers by namespace, each with its tools by name.
func (c *catalogBuild) sorted() []ProviderTools {
	out := make([]ProviderTools, 0, len(c.byNS))
	for _, p := range c.byNS {
		sort.Slice(p.Tools, func(i, j int) bool { return p.Tools[i].Name < p.Tools[j].Name })
		out = append(out, *p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Namespace < out[j].Namespace })
	return out
}

// riskEffect is the Effect of a native tool's Risk.
func riskEffect(r tool.Risk) string {
	if r == tool.ReadOnly {
		return EffectReadOnly
	}
	return EffectChangesData
}

// hintEffect is the Effect of an MCP tool's annotations: readOnlyHint
// true is read-only; otherwise destructiveHint, which the MCP
// specification takes as true when it is not sent, decides; a tool
// that sent no annotations declares nothing.
func hintEffect(t mcp.RemoteTool) string {
	switch {
	case t.ReadOnlyHint != nil && *t.ReadOnlyHint:
		return EffectReadOnly
	case t.DestructiveHint != nil && !*t.DestructiveHint:
		return EffectChangesData
	case t.DestructiveHint != nil || t.ReadOnlyHint != nil:
		return EffectDestructive
	}
	return EffectUnknown
}

// nameRefused says why the qualified name cannot be selected: the naming
// rules of an MCP tool or A2A skill (remote), the byte bounds, or the
// model provider's tool-name rule for its alias; "" when it can.
func nameRefused(name string, rule model.NameRule, remote bool) string {
	if remote {
		if err := tool.CheckMCPName(name); err != nil {
			return err.Error()
		}
	}
	res := &Resolution{byAlias: map[string]int{}}
	return strings.TrimSpace(res.aliasProblem(name, tool.Alias(name), rule))
}
