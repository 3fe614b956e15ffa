package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// prepare rediscovers the catalogs of the session's MCP providers at turn
// preparation (docs/mcp.md). A selected tool whose description or schema changed
// is a new descriptor: its grants are dropped, so the person is asked again
// (user policies are keyed by descriptor digest and no longer match). A
// selected tool the provider no longer lists is marked missing: a call to it
// fails before any I/O.
func (t *turn) prepare(ctx context.Context) error {
	s := t.s
	namespaces := s.mcpNamespaces()
	cats := s.rt.catalogs(ctx, s.gen, namespaces, useFor(s.opts.Workspace, s.opts.DefaultWorkspace, s.res.Bundle)) // all at once, docs/mcp.md
	t.keepServers(namespaces, cats)
	var changed, missing []string
	for i := range s.res.Tools {
		rt := &s.res.Tools[i]
		if rt.native != nil || rt.agent != nil {
			continue
		}
		ns, _, _ := tool.SplitName(rt.Name)
		gone, moved, err := t.prepareTool(rt, ns, cats[ns])
		if err != nil {
			return err
		}
		if gone {
			missing = append(missing, rt.Name)
		}
		if moved {
			changed = append(changed, rt.Name)
		}
	}
	if len(changed) > 0 {
		s.consent.Revoke(s.id, changed...)
		t.warn(ctx, "catalog_changed", fmt.Sprintf("the description or schema of %s changed since the last turn; earlier approvals no longer apply and you will be asked again", strings.Join(changed, ", ")))
	}
	if len(missing) > 0 {
		t.warn(ctx, "tool_missing", fmt.Sprintf("the provider no longer lists %s; calls to it are refused", strings.Join(missing, ", ")))
	}
	return nil
}

// mcpNamespaces is the namespace of each of the session's MCP tools, in
// the tools' order (a namespace once per tool).
func (s *Session) mcpNamespaces() []string {
	var namespaces []string
	for i := range s.res.Tools {
		if s.res.Tools[i].native == nil && s.res.Tools[i].agent == nil { // MCP tools
			ns, _, _ := tool.SplitName(s.res.Tools[i].Name)
			namespaces = append(namespaces, ns)
		}
	}
	return namespaces
}

// keepServers sets t.servers to the started providers of namespaces, each
// once, in order.
func (t *turn) keepServers(namespaces []string, cats map[string]*catalog) {
	t.servers = t.servers[:0]
	for _, ns := range namespaces {
		if c := cats[ns]; c != nil && c.p != nil && !slices.ContainsFunc(t.servers, func(p *mcp.Provider) bool { return p == c.p }) {
			t.servers = append(t.servers, c.p)
		}
	}
}

// prepareTool brings the session's MCP tool rt of namespace ns up to
// date with c, its provider's catalog as listed for this turn: gone
// reports that the provider stopped listing it (it is marked missing),
// changed that its descriptor changed (the session takes the new one).
func (t *turn) prepareTool(rt *ResolvedTool, ns string, c *catalog) (gone, changed bool, err error) {
	switch {
	case c.err != nil && c.p == nil:
		return false, false, fmt.Errorf("prepare the turn: MCP provider %q: %w", ns, c.err)
	case c.err != nil:
		return false, false, fmt.Errorf("prepare the turn: %w", c.err)
	}
	t.sawCatalog(ns, c.version)
	remote, ok := c.tools[rt.Remote]
	gone = !ok && !rt.missing // said once, when it goes
	t.s.setMissing(rt, !ok)
	if !ok {
		return gone, false, nil
	}
	if changed, err = t.s.repin(rt, remote.Descriptor(ns).WithDefaults()); err != nil {
		return false, false, fmt.Errorf("prepare the turn: %s: %w", rt.Name, err)
	}
	return false, changed, nil
}

// sawCatalog records the catalog version of namespace ns the turn has
// listed (catalogChanged lists it again when the provider moves on).
func (t *turn) sawCatalog(ns string, version uint64) {
	if t.catalogSeen == nil {
		t.catalogSeen = map[string]uint64{}
	}
	t.catalogSeen[ns] = version
}

// setMissing marks rt as no longer listed by its provider (or listed
// again), under the session's lock.
func (s *Session) setMissing(rt *ResolvedTool, missing bool) {
	s.mu.Lock()
	rt.missing = missing
	s.mu.Unlock()
}

// repin gives rt the descriptor d, as its provider lists it now, when
// d's pin (pinFor) differs from the one rt has, and reports whether it
// did. The swap is made under the session's lock. The caller drops the
// tool's grants: a new descriptor is asked about again.
func (s *Session) repin(rt *ResolvedTool, d tool.Descriptor) (bool, error) {
	pin, err := pinFor(rt, d)
	if err != nil {
		return false, err
	}
	if pin.Digest == rt.Pin.Digest {
		return false, nil
	}
	s.mu.Lock()
	rt.Descriptor, rt.Pin = d, pin
	s.mu.Unlock()
	return true, nil
}

// catalogChanged is called before an MCP call. When the provider announced
// a changed tool list since the turn listed it (tools/list_changed), the
// catalog is listed again; if the called tool's descriptor changed (or the
// tool is gone) the session takes the new descriptor, the tool's grants are
// dropped and the call must be refused before any I/O (docs/mcp.md, docs/turns.md): the
// person will be asked again for the new descriptor. It returns why, or "".
//
// With always set (just before the call, docs/turns.md: "before each call the
// harness resolves the exact descriptor pinned for the session") the
// catalog is listed whatever the notifications said: a provider may change
// a tool without announcing it, or announce it late (go-sdk debounces the
// notification). A provider can still swap a tool between this listing and
// the call; no client can see that.
func (t *turn) catalogChanged(ctx context.Context, rt *ResolvedTool, always bool) (string, error) {
	if rt.native != nil || rt.agent != nil { // an A2A skill is pinned to the card read at resolution
		return "", nil
	}
	s := t.s
	ns, _, _ := tool.SplitName(rt.Name)
	p, err := s.provider(ctx, ns)
	if err != nil {
		return "", err
	}
	v := p.CatalogVersion()
	if seen, ok := t.catalogSeen[ns]; ok && seen == v && !always {
		return "", nil
	}
	t.sawCatalog(ns, v)
	list, err := p.ListTools(ctx)
	if err != nil {
		return "", fmt.Errorf("list the tools of MCP provider %q again: %w", ns, err)
	}
	for _, r := range list {
		if r.Name != rt.Remote {
			continue
		}
		changed, err := s.repin(rt, r.Descriptor(ns).WithDefaults())
		if err != nil || !changed {
			return "", err
		}
		s.consent.Revoke(s.id, rt.Name)
		why := fmt.Sprintf("the provider changed %s during this turn; earlier approvals no longer apply", rt.Name)
		t.warn(ctx, "catalog_changed", why)
		return why + "; call it again to be asked about the new version", nil
	}
	s.setMissing(rt, true)
	why := fmt.Sprintf("the provider no longer lists %s", rt.Name)
	t.warn(ctx, "tool_missing", why)
	return why, nil
}

// currentPin returns the digest of a native tool's descriptor as it is just
// before a call: a tool whose descriptor changed since the session pinned it
// fails before any I/O (docs/turns.md). The descriptor's JSON is compared with the
// pinned JSON first, so the digest is recomputed only when it changed.
func currentPin(rt *ResolvedTool) (string, error) {
	if rt.native == nil {
		return rt.Pin.Digest, nil
	}
	d := rt.native.Descriptor().WithDefaults()
	if raw, err := json.Marshal(d); err == nil && bytes.Equal(raw, rt.pinned) {
		return rt.Pin.Digest, nil
	}
	pin, err := pinDescriptor(d)
	if err != nil {
		return "", err
	}
	return pin.Digest, nil
}
