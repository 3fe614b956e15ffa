package mcp

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// maxCatalogPages bounds tools/list pagination, so a server that keeps
// returning cursors cannot hold turn preparation forever.
const maxCatalogPages = 100

// Catalog bounds (docs/limits.md#catalogs), applied where every catalog
// is read (listTools), so that `check` and `run` refuse the same servers
// with the same message: a descriptor (name, title, description, input
// and output schemas) of at most MaxDescriptorBytes, and a catalog of at
// most MaxCatalogTools tools and MaxCatalogBytes of descriptors. A larger
// one would be sent with every model request, or make a session whose
// identity the journal cannot hold.
const (
	MaxDescriptorBytes = 64 << 10
	MaxCatalogTools    = 1000
	MaxCatalogBytes    = 4 << 20
)

// descriptorBytes is the size a catalog bound counts of one tool.
func (t RemoteTool) descriptorBytes() int {
	return len(t.Name) + len(t.Title) + len(t.Description) + len(t.InputSchema) + len(t.OutputSchema)
}

// catalogBound checks one more tool against the bounds, given the tools
// and bytes before it; the error names the server, the tool and the size.
func (p *Provider) catalogBound(rt RemoteTool, tools, bytes int) error {
	ns := p.srv.Namespace
	if n := rt.descriptorBytes(); n > MaxDescriptorBytes {
		return fmt.Errorf("mcp provider %q: tool %q has a descriptor of %d bytes (name, title, description and schemas); the limit is %d bytes per tool (docs/limits.md#catalogs): it would be sent with every model request. Ask the server's author for a shorter description",
			ns, rt.Name, n, MaxDescriptorBytes)
	}
	if tools+1 > MaxCatalogTools {
		return fmt.Errorf("mcp provider %q lists more than %d tools; the limit is %d tools per server (docs/limits.md#catalogs). Use a server with fewer tools, or one that can be configured to list only some", ns, MaxCatalogTools, MaxCatalogTools)
	}
	if bytes+rt.descriptorBytes() > MaxCatalogBytes {
		return fmt.Errorf("mcp provider %q lists more than %d bytes of tool descriptors (at tool %d, %q); the limit is %d bytes per server (docs/limits.md#catalogs)", ns, MaxCatalogBytes, tools+1, rt.Name, MaxCatalogBytes)
	}
	return nil
}

// RemoteTool is one tool of a provider's catalog, as the server lists it.
// The hints are the server's tool annotations (nil when it sent none); they
// are hints only, never permissions (docs/consent.md).
type RemoteTool struct {
	Name         string          // the remote name, without namespace; may contain '.'
	Title        string          // display title, if any
	Description  string          //
	InputSchema  json.RawMessage // JSON Schema of the arguments (object root)
	OutputSchema json.RawMessage // JSON Schema of structuredContent; nil when none

	ReadOnlyHint, DestructiveHint, IdempotentHint, OpenWorldHint *bool

	// UI is the tool's MCP Apps view, from its _meta (docs/mcp-apps.md#resources);
	// nil when it declares none, or one that is not a ui:// URI (UIProblem
	// then says why it was ignored).
	UI        *tool.UIRef
	UIProblem string

	// ServerVersion is the version the server announced (serverInfo.version);
	// it becomes the descriptor's Version, so a server upgrade is a changed
	// descriptor.
	ServerVersion string
}

// ListTools returns the provider's full catalog, following pagination (at
// most 100 pages), in the server's order. It is meant for turn preparation
// (docs/mcp.md): a changed description or schema is a new descriptor. Names are
// returned as listed; checking them against the naming rules (docs/registry.md) is the
// resolver's job. Every string of the catalog (names, titles,
// descriptions, schemas, the server's version) and of its errors has the
// server's secrets redacted (docs/mcp.md#secrets): a tool whose name holds
// one is listed as, say, "get_[redacted]", which no selection can name.
func (p *Provider) ListTools(ctx context.Context) ([]RemoteTool, error) {
	out, err := p.listTools(ctx)
	return out, p.secrets.err(err)
}

func (p *Provider) listTools(ctx context.Context) ([]RemoteTool, error) {
	if !p.Alive() {
		return nil, p.deadError("tools/list")
	}
	var (
		out     []RemoteTool
		outputs = map[string]json.RawMessage{} // remote name → outputSchema as sent
		params  = &sdk.ListToolsParams{}
		bytes   int
	)
	for page := 0; ; page++ {
		if page == maxCatalogPages {
			return nil, fmt.Errorf("mcp provider %q: tools/list returned more than %d pages; the catalog looks endless", p.srv.Namespace, maxCatalogPages)
		}
		var res *sdk.ListToolsResult
		err := p.request(ctx, "tools/list", false, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
			res, err = cs.ListTools(ctx, params)
			return err
		})
		if err != nil {
			return nil, p.callError(ctx, "tools/list", err)
		}
		for _, t := range res.Tools {
			rt, output, err := p.remoteTool(t)
			if err == nil {
				err = p.catalogBound(rt, len(out), bytes)
			}
			if err != nil {
				return nil, err
			}
			bytes += rt.descriptorBytes()
			if rt.UIProblem != "" {
				p.opts.Logger.Warn("mcp tool's app view declaration", "namespace", p.srv.Namespace, "tool", rt.Name, "why", rt.UIProblem)
			}
			if output != nil {
				outputs[t.Name] = output
			}
			out = append(out, rt)
		}
		if res.NextCursor == "" {
			p.outputs.set(outputs)
			return out, nil
		}
		params = &sdk.ListToolsParams{Cursor: res.NextCursor}
	}
}

// remoteTool is t with the server's secrets redacted in every string, and
// t's outputSchema as sent (nil when none), which results are checked
// against: the check follows the server's own rules.
func (p *Provider) remoteTool(t *sdk.Tool) (RemoteTool, json.RawMessage, error) {
	r := p.secrets
	rt := RemoteTool{Name: r.text(t.Name), Title: r.text(t.Title), Description: r.text(t.Description), ServerVersion: p.ServerVersion()}
	in, err := schemaJSON(t.InputSchema)
	if err != nil {
		return RemoteTool{}, nil, fmt.Errorf("mcp provider %q: tool %q: input schema: %w", p.srv.Namespace, t.Name, err)
	}
	if len(in) == 0 {
		in = json.RawMessage(`{"type":"object"}`)
	}
	rt.InputSchema = r.json(in)
	output, err := schemaJSON(t.OutputSchema)
	if err != nil {
		return RemoteTool{}, nil, fmt.Errorf("mcp provider %q: tool %q: output schema: %w", p.srv.Namespace, t.Name, err)
	}
	rt.OutputSchema = r.json(output)
	if a := t.Annotations; a != nil {
		if rt.Title == "" {
			rt.Title = r.text(a.Title)
		}
		ro, idem := a.ReadOnlyHint, a.IdempotentHint
		rt.ReadOnlyHint, rt.IdempotentHint = &ro, &idem
		rt.DestructiveHint, rt.OpenWorldHint = a.DestructiveHint, a.OpenWorldHint
	}
	rt.UI, rt.UIProblem = toolUI(t.Meta)
	if rt.UI != nil {
		rt.UI.ResourceURI = r.text(rt.UI.ResourceURI)
	}
	rt.UIProblem = r.text(rt.UIProblem)
	return rt, output, nil
}

// schemaJSON marshals a schema the SDK decoded as a map; nil stays nil.
func schemaJSON(s any) (json.RawMessage, error) {
	if s == nil {
		return nil, nil
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	if string(b) == "null" {
		return nil, nil
	}
	return b, nil
}

// Descriptor converts the remote tool to the descriptor the harness shows
// the user and pins for a session: Name "namespace.name", the server's
// description and schemas, Version the server's version ("0.0.0" when it
// gave none), Cancellation Cooperative (MCP forwards cancellation) and
// Classification External.
//
// Risk is derived cautiously, because annotations are hints from the server
// (docs/consent.md): ReadOnly only when readOnlyHint is true,
// IdempotentWrite when destructiveHint is false and idempotentHint true,
// NonIdempotentWrite otherwise. Risk decides only whether an interrupted call ends as "failed"
// or "unknown" in the journal; it never grants or skips consent.
func (t RemoteTool) Descriptor(namespace string) tool.Descriptor {
	d := tool.Descriptor{
		Name:           namespace + "." + t.Name,
		Description:    t.Description,
		InputSchema:    t.InputSchema,
		OutputSchema:   t.OutputSchema,
		Version:        t.ServerVersion,
		Risk:           tool.NonIdempotentWrite,
		Cancellation:   tool.Cooperative,
		Classification: tool.External,
		UI:             t.UI,
	}
	if d.Version == "" {
		d.Version = "0.0.0"
	}
	if d.Description == "" {
		d.Description = t.Title
	}
	switch {
	case t.ReadOnlyHint != nil && *t.ReadOnlyHint:
		d.Risk = tool.ReadOnly
	case t.DestructiveHint != nil && !*t.DestructiveHint && t.IdempotentHint != nil && *t.IdempotentHint:
		// Declared neither destructive nor repeating its effect (make a
		// folder, set a value): shown as changing data, not deleting it.
		d.Risk = tool.IdempotentWrite
	}
	return d
}
