package harness

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/gowebpki/jcs"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/tool"
)

// What a resolved coworker is pinned to: each tool's descriptor, the
// coworker's identity (docs/identity.md), and the sandboxes its bundle
// requires.

// pinDescriptor computes the digests a session pins for one descriptor: each
// schema's, and the whole descriptor's (RFC 8785 canonical JSON, SHA-256).
func pinDescriptor(d tool.Descriptor) (consent.PinnedDesc, error) {
	in, err := tool.SchemaDigest(d.InputSchema)
	if err != nil {
		return consent.PinnedDesc{}, fmt.Errorf("input schema: %w", err)
	}
	var out string
	if len(d.OutputSchema) > 0 {
		if out, err = tool.SchemaDigest(d.OutputSchema); err != nil {
			return consent.PinnedDesc{}, fmt.Errorf("output schema: %w", err)
		}
	}
	raw, err := json.Marshal(d)
	if err != nil {
		return consent.PinnedDesc{}, err
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		return consent.PinnedDesc{}, fmt.Errorf("canonicalize descriptor: %w", err)
	}
	sum := sha256.Sum256(canon)
	return consent.PinnedDesc{Version: d.Version, Input: in, Output: out, Digest: "sha256:" + hex.EncodeToString(sum[:])}, nil
}

// pinFor is the pin of rt with the descriptor d: d's digests
// (pinDescriptor), except that an A2A skill's descriptor digest is its
// card's, so that a changed card is a changed descriptor
// (docs/a2a.md#identity).
func pinFor(rt *ResolvedTool, d tool.Descriptor) (consent.PinnedDesc, error) {
	pin, err := pinDescriptor(d)
	if err != nil {
		return consent.PinnedDesc{}, err
	}
	if rt.agent != nil {
		pin.Digest = rt.agent.Digest()
	}
	return pin, nil
}

// identityParts builds what the session's execution identity covers.
func (rt *Runtime) identityParts(res *Resolution) (consent.IdentityParts, error) {
	exe, err := rt.executableDigest()
	if err != nil {
		return consent.IdentityParts{}, err
	}
	p := consent.IdentityParts{
		Bundle:      res.Bundle.Digest,
		Policies:    map[string]string{},
		Selection:   map[string]consent.Selected{},
		Descriptors: map[string]consent.PinnedDesc{},
		Executable:  exe,
	}
	for k, v := range res.Bundle.Policy {
		p.Policies[k] = v
	}
	for _, t := range res.Tools {
		sel := consent.Selected{Provider: t.Provider, Remote: t.Remote, Sandbox: t.sandbox}
		if !tool.IsLocalPlacement(t.Placement) {
			sel.Placement = t.Placement
		}
		p.Selection[t.Name] = sel
		p.Descriptors[t.Name] = t.Pin
	}
	return p, nil
}

// sandboxesRequired is the error for the first selected tool (or whole
// provider) of an unsandboxed stdio provider when the coworker's manifest
// says requires_sandbox (docs/bundles.md#requires-sandbox); nil otherwise.
func sandboxesRequired(reg *tool.Registry, b *bundle.Bundle, whole, names []string) *ResolveError {
	if !b.RequiresSandbox {
		return nil
	}
	for _, name := range append(append([]string{}, names...), whole...) {
		ns := name
		if n, _, err := tool.SplitName(name); err == nil {
			ns = n
		}
		if srv, ok := reg.Server(ns); ok && !reg.IsNative(ns) {
			if e := sandboxRequired(b, name, srv); e != nil {
				return e
			}
		}
	}
	return nil
}

func sandboxRequired(b *bundle.Bundle, name string, srv tool.MCPServer) *ResolveError {
	if srv.Sandbox != nil || (srv.Transport != "" && srv.Transport != tool.TransportStdio) {
		return nil
	}
	e := resolveErr(b, name, fmt.Sprintf("the coworker requires sandboxed providers (requires_sandbox: true in manifest.md), but MCP provider %q runs with your full access", srv.Namespace))
	e.Provider, e.SandboxRequired = srv.Namespace, true
	if srv.Source == "" {
		e.Fix = fmt.Sprintf(`MCP provider %q is registered by this program, not by a servers.json entry, so it cannot be given a sandbox: select the tools of a sandboxed servers.json entry instead (docs/sandbox.md), or remove requires_sandbox from manifest.md`, srv.Namespace)
		return e
	}
	e.Fix = fmt.Sprintf(`add "sandbox": "default" (or a placement of its own, docs/sandbox.md) to its entry at %s, or remove requires_sandbox from manifest.md`, srv.Source)
	return e
}
