package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// Resource bounds (docs/mcp.md#resources).
const (
	// MaxResources is how many resources, and how many resource
	// templates, a listing returns of one provider; the rest are left out
	// (and logged).
	MaxResources = 500
	// MaxResourceBytes bounds what one resources/read returns: the text
	// and the decoded blobs of its contents together. A bigger resource is
	// an error, never a cut one.
	MaxResourceBytes = 1 << 20
	// ResourceTimeout bounds one listing (all its pages) or one read.
	ResourceTimeout = 30 * time.Second
)

// Resource is one resource a provider lists (resources/list), with the
// server's secrets redacted.
type Resource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
	Size        int64  `json:"size,omitempty"` // as the server declares it; 0: not given
}

// ResourceTemplate is one resource template a provider lists
// (resources/templates/list): an RFC 6570 URI template a client fills in
// to read a resource, with the server's secrets redacted.
type ResourceTemplate struct {
	URITemplate string `json:"uri_template"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mime_type,omitempty"`
}

// ResourceContents is one item of a resources/read result: a text (Text)
// or a binary one (Blob, never redacted, never sent to the model).
type ResourceContents struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mime_type,omitempty"`
	Text     string `json:"text,omitempty"`
	Blob     []byte `json:"-"`
}

// Output is contents as a tool result (docs/mcp.md#resources): one
// embedded-resource block each, and for the model each block's line as
// in a tools/call result (a text one followed by its text, a binary one
// by its size only).
func Output(contents []ResourceContents) tool.Output {
	var out tool.Output
	parts := make([]string, 0, len(contents))
	for _, c := range contents {
		b := tool.Block{Type: tool.BlockResource, URI: c.URI, MIMEType: c.MIMEType, Text: c.Text, Bytes: int64(len(c.Blob))}
		out.Content = append(out.Content, b)
		parts = append(parts, describe(b))
	}
	out.Text = strings.Join(parts, "\n")
	if out.Text == "" {
		out.Text = "[the resource is empty]"
	}
	return out
}

// offersResources reports whether the server declared the resources
// capability in its handshake.
func (p *Provider) offersResources() bool {
	res := p.conn.Load().cs.InitializeResult()
	return res != nil && res.Capabilities != nil && res.Capabilities.Resources != nil
}

// OffersResources reports whether the server declared the resources
// capability in the handshake of its current connection.
func (p *Provider) OffersResources() bool { return p.offersResources() }

// ListResources returns the provider's resources (resources/list,
// following pagination up to 100 pages), at most MaxResources, in the
// server's order, within ResourceTimeout. A server that does not declare
// the resources capability has none (nil, nil).
func (p *Provider) ListResources(ctx context.Context) ([]Resource, error) {
	out, err := listPages(ctx, p, "resources/list", func(ctx context.Context, cs *sdk.ClientSession, cursor string) ([]Resource, string, error) {
		res, err := cs.ListResources(ctx, &sdk.ListResourcesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		r := p.secrets
		var out []Resource
		for _, x := range res.Resources {
			if x != nil {
				out = append(out, Resource{URI: r.text(x.URI), Name: r.text(x.Name), Title: r.text(x.Title), Description: r.text(x.Description),
					MIMEType: r.text(x.MIMEType), Size: max(x.Size, 0)})
			}
		}
		return out, res.NextCursor, nil
	})
	return out, p.secrets.err(err)
}

// ListResourceTemplates returns the provider's resource templates
// (resources/templates/list), as ListResources does its resources.
func (p *Provider) ListResourceTemplates(ctx context.Context) ([]ResourceTemplate, error) {
	out, err := listPages(ctx, p, "resources/templates/list", func(ctx context.Context, cs *sdk.ClientSession, cursor string) ([]ResourceTemplate, string, error) {
		res, err := cs.ListResourceTemplates(ctx, &sdk.ListResourceTemplatesParams{Cursor: cursor})
		if err != nil {
			return nil, "", err
		}
		r := p.secrets
		var out []ResourceTemplate
		for _, x := range res.ResourceTemplates {
			if x != nil {
				out = append(out, ResourceTemplate{URITemplate: r.text(x.URITemplate), Name: r.text(x.Name), Title: r.text(x.Title),
					Description: r.text(x.Description), MIMEType: r.text(x.MIMEType)})
			}
		}
		return out, res.NextCursor, nil
	})
	return out, p.secrets.err(err)
}

// listPages runs a paginated listing of method with page, within
// ResourceTimeout, keeping at most MaxResources items.
func listPages[T any](ctx context.Context, p *Provider, method string, page func(context.Context, *sdk.ClientSession, string) ([]T, string, error)) ([]T, error) {
	if !p.Alive() {
		return nil, p.deadError(method)
	}
	if !p.offersResources() {
		return nil, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, ResourceTimeout, fmt.Errorf("no answer within %v", ResourceTimeout))
	defer cancel()
	var out []T
	cursor := ""
	for n := 0; ; n++ {
		if n == maxCatalogPages {
			return nil, fmt.Errorf("mcp provider %q: %s returned more than %d pages", p.srv.Namespace, method, maxCatalogPages)
		}
		var items []T
		var next string
		err := p.request(ctx, method, false, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
			items, next, err = page(ctx, cs, cursor)
			return err
		})
		if err != nil {
			return nil, p.callError(ctx, method, err)
		}
		for _, it := range items {
			if len(out) == MaxResources {
				p.opts.Logger.Warn("mcp provider lists too many; the rest are left out", "namespace", p.srv.Namespace, "method", method, "max", MaxResources)
				return out, nil
			}
			out = append(out, it)
		}
		if next == "" {
			return out, nil
		}
		cursor = next
	}
}

// ReadResource sends resources/read for uri within ResourceTimeout and
// returns its contents, texts with the server's secrets redacted. A
// server without the resources capability, an empty URI, a result over
// MaxResourceBytes and a server's error answer are errors that say so.
func (p *Provider) ReadResource(ctx context.Context, uri string) ([]ResourceContents, error) {
	out, err := p.readResource(ctx, uri)
	return out, p.secrets.err(err)
}

func (p *Provider) readResource(ctx context.Context, uri string) ([]ResourceContents, error) {
	switch {
	case strings.TrimSpace(uri) == "":
		return nil, fmt.Errorf("no resource URI was given; give the uri of a resource that MCP provider %q lists or links to", p.srv.Namespace)
	case !p.Alive():
		return nil, p.deadError("resources/read")
	case !p.offersResources():
		return nil, fmt.Errorf("MCP provider %q offers no resources (it did not declare the resources capability)", p.srv.Namespace)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, ResourceTimeout, fmt.Errorf("no answer within %v", ResourceTimeout))
	defer cancel()
	var res *sdk.ReadResourceResult
	err := p.request(ctx, "resources/read", false, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.ReadResource(ctx, &sdk.ReadResourceParams{URI: uri})
		return err
	})
	if err != nil {
		return nil, p.callError(ctx, "resources/read "+uri, err)
	}
	var out []ResourceContents
	size := 0
	for _, c := range res.Contents {
		if c == nil {
			continue
		}
		size += len(c.Text) + len(c.Blob)
		if size > MaxResourceBytes {
			return nil, fmt.Errorf("mcp provider %q: resource %s is over %d bytes, the most a read returns", p.srv.Namespace, uri, MaxResourceBytes)
		}
		out = append(out, ResourceContents{URI: p.secrets.text(c.URI), MIMEType: p.secrets.text(c.MIMEType), Text: p.secrets.text(c.Text), Blob: c.Blob})
	}
	return out, nil
}
