package mcp

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/openworker/desktop/harness/tool"
)

// Manager runs the MCP provider processes of one host for as long as the
// host runs. Providers are keyed by their configuration (Key): the first
// use of a configuration starts it, later uses share the running process,
// and a provider whose configuration is byte-identical in a new registry
// generation keeps its process. Retain ends the providers no generation
// uses any more; Close ends them all.
//
// A provider that has exited is replaced by a fresh one on the next use; a
// failed start is not cached unless Options.RememberFailedStarts is set.
// Safe for concurrent use: concurrent first uses of a configuration share
// one start.
type Manager struct {
	opts *Options

	mu      sync.Mutex
	closed  bool
	entries map[string]*entry // Key → provider
}

type entry struct {
	ns  string
	cfg string        // Key of its configuration (an entry's map key adds the workspace)
	sem chan struct{} // held while starting or closing; capacity 1
	p   *Provider     // guarded by sem
	err error         // guarded by sem: the failed start, with RememberFailedStarts
}

// NewManager returns a Manager whose providers start with opts (may be nil).
func NewManager(opts *Options) *Manager {
	return &Manager{opts: opts, entries: map[string]*entry{}}
}

// Key identifies a provider configuration: its namespace and the SHA-256 of
// everything that decides how it starts and what it is sent (transport,
// program, args, env, folder, URL, headers, secrets), "ns@sha256:<hex>".
// Source (where the entry was read), Name (the name as written) and
// Timeout (a bound of each call, applied by the harness) and StartTimeout
// are not part of it, so moving or renaming an entry within servers.json,
// or changing its timeouts, keeps its process.
func Key(srv tool.MCPServer) string {
	if kind, _, err := transportFor(srv); err == nil {
		srv.Transport = kind // "" and "stdio" start the same process
	}
	srv.Source, srv.Name, srv.Timeout, srv.StartTimeout, srv.Vars = "", "", 0, 0, nil
	raw, _ := json.Marshal(srv) // maps marshal with sorted keys
	sum := sha256.Sum256(raw)
	return srv.Namespace + "@sha256:" + hex.EncodeToString(sum[:])
}

// Provider returns the connected provider of srv, starting it if it is not
// running. ctx bounds only the wait and the start. It fails after Close
// (ErrClosed), or when the start fails (the error then holds the
// provider's stderr tail).
func (m *Manager) Provider(ctx context.Context, srv tool.MCPServer) (*Provider, error) {
	return m.ProviderIn(ctx, srv, "")
}

// ProviderIn is Provider for a session whose workspace folder is workspace
// ("" for none): the provider offers it as its root (docs/mcp.md#roots).
// A configuration runs one process per workspace it is used with, since
// one process offers one root.
func (m *Manager) ProviderIn(ctx context.Context, srv tool.MCPServer, workspace string) (*Provider, error) {
	return m.ProviderUse(ctx, srv, Use{Workspace: workspace})
}

// ProviderUse is ProviderIn for the process u says; a configuration runs
// one process per workspace and per sampling or not
// (docs/mcp.md#sampling), so a server never sees the sampling capability
// on behalf of a coworker that does not allow it.
func (m *Manager) ProviderUse(ctx context.Context, srv tool.MCPServer, u Use) (*Provider, error) {
	cfg, key := m.processKey(srv, u)
	e, err := m.entry(key, srv.Namespace, cfg)
	if err != nil {
		return nil, err
	}
	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for MCP provider %q to start: %w", srv.Namespace, ctx.Err())
	}
	defer func() { <-e.sem }()
	if e.p != nil && e.p.Alive() {
		return e.p, nil
	}
	if e.err != nil {
		return nil, e.err
	}
	if e.p != nil { // exited: reap it before starting a new one
		e.p.Close()
		e.p = nil
	}
	if !m.holds(key, e) { // closed or released while this caller waited
		return nil, ErrClosed
	}
	p, err := ConnectUse(ctx, srv, m.opts, u)
	if err != nil {
		if m.opts != nil && m.opts.RememberFailedStarts && ctx.Err() == nil {
			e.err = err
		}
		return nil, err
	}
	if !m.holds(key, e) {
		p.Close()
		return nil, ErrClosed
	}
	e.p = p
	return p, nil
}

// processKey names the process srv runs as for u: cfg is Key(srv), key
// adds the workspace, whether it is offered as a root and whether it
// advertises sampling.
func (m *Manager) processKey(srv tool.MCPServer, u Use) (cfg, key string) {
	cfg = Key(srv)
	key = cfg
	if u.Workspace != "" {
		key += "\x00" + u.Workspace
		if u.NoRoot && !srv.DefaultRoot {
			key += "\x00noroot" // same workspace, no roots capability
		}
	}
	if u.Sampling && m.opts != nil && m.opts.Sampling != nil {
		key += "\x00sampling"
	}
	return cfg, key
}

// entry is the entry of key, made when there is none yet; ErrClosed
// after Close.
func (m *Manager) entry(key, ns, cfg string) (*entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, ErrClosed
	}
	e := m.entries[key]
	if e == nil {
		e = &entry{ns: ns, cfg: cfg, sem: make(chan struct{}, 1)}
		m.entries[key] = e
	}
	return e, nil
}

// holds reports whether e is still the Manager's entry of key: not
// closed, not released by Retain.
func (m *Manager) holds(key string, e *entry) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return !m.closed && m.entries[key] == e
}

// Retain ends every provider whose configuration is not among those keep
// returns (by Key, whatever workspace it runs for) and forgets it, in parallel, waiting for starts in
// progress. It is how a registry generation that no session uses any more
// gives back its processes. keep is called with the Manager's lock held,
// so the list it returns is the one in force when providers are dropped:
// a configuration a caller starts after keep was decided elsewhere is never
// dropped by a stale list. keep must not call the Manager. It returns the
// close errors, joined.
func (m *Manager) Retain(keep func() []tool.MCPServer) error {
	m.mu.Lock()
	want := map[string]bool{}
	for _, s := range keep() {
		want[Key(s)] = true
	}
	var drop []*entry
	for k, e := range m.entries {
		if !want[e.cfg] {
			drop = append(drop, e)
			delete(m.entries, k)
		}
	}
	m.mu.Unlock()
	return closeEntries(drop)
}

// Running returns the namespaces of the providers whose process or
// connection is up now, sorted (a namespace appears twice while two
// generations run two configurations of it).
func (m *Manager) Running() []string {
	m.mu.Lock()
	entries := make([]*entry, 0, len(m.entries))
	for _, e := range m.entries {
		entries = append(entries, e)
	}
	m.mu.Unlock()
	var out []string
	for _, e := range entries {
		e.sem <- struct{}{}
		if e.p != nil && e.p.Alive() {
			out = append(out, e.ns)
		}
		<-e.sem
	}
	sort.Strings(out)
	return out
}

// Close closes every started provider (in parallel) and refuses new ones.
// It waits for starts in progress to finish. It returns the close errors,
// joined; calling it again returns nil.
func (m *Manager) Close() error {
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil
	}
	m.closed = true
	all := make([]*entry, 0, len(m.entries))
	for _, e := range m.entries {
		all = append(all, e)
	}
	m.entries = map[string]*entry{}
	m.mu.Unlock()
	return closeEntries(all)
}

// closeEntries closes the providers of entries in parallel, each after any
// start in progress, and returns the errors in namespace order.
func closeEntries(entries []*entry) error {
	sort.Slice(entries, func(i, j int) bool { return entries[i].ns < entries[j].ns })
	errs := make([]error, len(entries))
	var wg sync.WaitGroup
	for i, e := range entries {
		wg.Add(1)
		go func() {
			defer wg.Done()
			e.sem <- struct{}{} // wait out a start in progress
			defer func() { <-e.sem }()
			if e.p != nil {
				errs[i] = e.p.Close()
				e.p = nil
			}
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
