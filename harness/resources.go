package harness

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// Resources of MCP providers (docs/mcp.md#resources).
const (
	// ReadResource is the tool the harness gives a coworker whose MCP
	// providers offer resources: it reads one by its URI, such as a
	// resource_link in a tool result. It is in the reserved namespace, so
	// no provider's tool has its name.
	ReadResource = tool.ReservedNamespace + ".read_resource"
	// ReadResourceAccess is the ResolvedTool.Access of ReadResource.
	ReadResourceAccess = "reads resources of this coworker's MCP providers"
)

// SessionResource is one resource of an MCP provider the session's
// coworker uses, with the provider's namespace.
type SessionResource struct {
	Namespace string `json:"namespace"`
	mcp.Resource
}

// SessionResourceTemplate is one resource template of an MCP provider the
// session's coworker uses, with the provider's namespace.
type SessionResourceTemplate struct {
	Namespace string `json:"namespace"`
	mcp.ResourceTemplate
}

// Resources lists the resources and resource templates of the MCP
// providers the session's coworker uses (any of their tools selected), in
// selection order of the providers and the server's order within each,
// each provider's at most mcp.MaxResources of each, each listing within
// mcp.ResourceTimeout (providers are listed in parallel). A provider that
// fails to list is left out and its error is returned, joined, beside the
// others'; a provider without the resources capability has none.
func (s *Session) Resources(ctx context.Context) ([]SessionResource, []SessionResourceTemplate, error) {
	nss := s.promptNamespaces()
	res := make([][]SessionResource, len(nss))
	tpl := make([][]SessionResourceTemplate, len(nss))
	errs := make([]error, len(nss))
	forEach(len(nss), s.rt.opts.Parallel, func(i int) { res[i], tpl[i], errs[i] = s.providerResources(ctx, nss[i]) })
	var rs []SessionResource
	var ts []SessionResourceTemplate
	for i := range nss {
		rs = append(rs, res[i]...)
		ts = append(ts, tpl[i]...)
	}
	return rs, ts, errors.Join(errs...)
}

func (s *Session) providerResources(ctx context.Context, ns string) ([]SessionResource, []SessionResourceTemplate, error) {
	p, err := s.provider(ctx, ns)
	if err != nil {
		return nil, nil, err
	}
	list, err := p.ListResources(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("list the resources of MCP provider %q: %w", ns, err)
	}
	tpls, err := p.ListResourceTemplates(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("list the resource templates of MCP provider %q: %w", ns, err)
	}
	rs := make([]SessionResource, len(list))
	for i, r := range list {
		rs[i] = SessionResource{Namespace: ns, Resource: r}
	}
	ts := make([]SessionResourceTemplate, len(tpls))
	for i, t := range tpls {
		ts[i] = SessionResourceTemplate{Namespace: ns, ResourceTemplate: t}
	}
	return rs, ts, nil
}

// ReadResource reads the resource uri of the session's MCP provider ns
// (resources/read, within mcp.ResourceTimeout, at most
// mcp.MaxResourceBytes). ns must be a provider the coworker uses.
func (s *Session) ReadResource(ctx context.Context, ns, uri string) ([]mcp.ResourceContents, error) {
	if nss := s.promptNamespaces(); !slices.Contains(nss, ns) {
		return nil, fmt.Errorf("the coworker uses no MCP provider %q; its providers are %s", ns, namesOrNone(nss))
	}
	p, err := s.provider(ctx, ns)
	if err != nil {
		return nil, err
	}
	return p.ReadResource(ctx, uri)
}

// AttachResource reads the resource uri of the session's MCP provider ns
// (ReadResource) and returns it as text for a user message that attaches
// it: a line naming the server, then each item as a tool result gives it
// to the model (a text item's line followed by its text, a binary item by
// its MIME type and size only). The host sends the text with the person's
// words; it is journaled as part of that message.
func (s *Session) AttachResource(ctx context.Context, ns, uri string) (string, error) {
	contents, err := s.ReadResource(ctx, ns, uri)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("[attached from MCP server %q]\n%s", ns, mcp.Output(contents).Text), nil
}

func namesOrNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// resourceTool is ReadResource for the providers servers, which offer
// resources; read reads one.
type resourceTool struct {
	servers []string
	read    func(ctx context.Context, ns, uri string) ([]mcp.ResourceContents, error)
}

func (t *resourceTool) Descriptor() tool.Descriptor {
	server := map[string]any{"type": "string", "enum": t.servers,
		"description": "the MCP server (namespace) whose resource it is: the namespace of the tool whose result linked it"}
	required := []string{"uri"}
	if len(t.servers) > 1 {
		required = append(required, "server")
	} else {
		server["description"] = "the MCP server (namespace) whose resource it is; may be left out: there is one"
	}
	schema, _ := json.Marshal(map[string]any{"type": "object", "additionalProperties": false, "required": required,
		"properties": map[string]any{
			"uri":    map[string]any{"type": "string", "minLength": 1, "description": "the resource's URI, as a resource link in a tool result gives it"},
			"server": server,
		}})
	return tool.Descriptor{
		Name:        ReadResource,
		Description: "Reads a resource of an MCP server by its URI, such as a resource link in a tool result, and returns its text (binary contents by type and size only).",
		InputSchema: schema,
		Version:     "1.0.0",
		Risk:        tool.ReadOnly,
	}
}

func (t *resourceTool) Call(ctx context.Context, _ *tool.Call, args json.RawMessage) (tool.Output, error) {
	var in struct {
		URI    string `json:"uri"`
		Server string `json:"server"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tool.Output{}, &tool.ToolError{Code: "invalid_arguments", Message: err.Error()}
	}
	if in.Server == "" && len(t.servers) == 1 {
		in.Server = t.servers[0]
	}
	if !slices.Contains(t.servers, in.Server) {
		return tool.Output{}, &tool.ToolError{Code: "unknown_server", Message: fmt.Sprintf("no MCP server %q of this coworker offers resources; give server as one of %s", in.Server, strings.Join(t.servers, ", "))}
	}
	contents, err := t.read(ctx, in.Server, in.URI)
	if err != nil {
		if ctx.Err() != nil {
			return tool.Output{}, err
		}
		return tool.Output{}, &tool.ToolError{Code: "read_failed", Message: err.Error()}
	}
	return mcp.Output(contents), nil
}

// resourceReader reads a resource of provider ns of generation g,
// started for the use use(ns).
func (rt *Runtime) resourceReader(g *generation, use func(ns string) mcp.Use) func(ctx context.Context, ns, uri string) ([]mcp.ResourceContents, error) {
	return func(ctx context.Context, ns, uri string) ([]mcp.ResourceContents, error) {
		p, err := rt.provider(ctx, g, ns, use(ns))
		if err != nil {
			return nil, err
		}
		return p.ReadResource(ctx, uri)
	}
}

// addResourceTool adds ReadResource after the selection when any MCP
// provider of the selected tools offers resources; read reads a resource
// of one of them.
func (r *resolver) addResourceTool(read func(ctx context.Context, ns, uri string) ([]mcp.ResourceContents, error)) *ResolveError {
	var servers []string
	for _, t := range r.res.Tools {
		ns, ok := strings.CutPrefix(t.Provider, "mcp:")
		if c := r.cats[ns]; ok && c != nil && c.p != nil && c.p.OffersResources() && !slices.Contains(servers, ns) {
			servers = append(servers, ns)
		}
	}
	if len(servers) == 0 {
		return nil
	}
	rtl := &resourceTool{servers: servers, read: read}
	d := rtl.Descriptor().WithDefaults()
	t := ResolvedTool{Name: d.Name, Alias: tool.Alias(d.Name), Provider: ProviderNative, Remote: d.Name, Placement: tool.PlacementLocal,
		Access: ReadResourceAccess, Descriptor: d, native: rtl}
	return r.addHarnessTool(t, "a coworker whose MCP providers offer resources")
}
