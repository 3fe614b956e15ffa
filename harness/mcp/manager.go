package mcp

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/openworker/desktop/harness/tool"
)

// Manager starts the providers of a registry lazily, one per namespace, on
// first use, and closes them all at shutdown. A provider that has exited is
// replaced by a fresh one on the next use; a failed start is not cached
// unless Options.RememberFailedStarts is set.
// Safe for concurrent use: concurrent first uses of a namespace share one
// start.
type Manager struct {
	reg  *tool.Registry
	opts *Options

	mu      sync.Mutex
	closed  bool
	entries map[string]*entry
}

type entry struct {
	sem chan struct{} // held while starting; capacity 1
	p   *Provider     // guarded by sem
	err error         // guarded by sem: the failed start, with RememberFailedStarts
}

// NewManager returns a Manager for the MCP providers registered in reg;
// opts (may be nil) applies to each of them.
func NewManager(reg *tool.Registry, opts *Options) *Manager {
	return &Manager{reg: reg, opts: opts, entries: map[string]*entry{}}
}

// Provider returns the connected provider of namespace, starting it if it is
// not running. ctx bounds only the wait and the start. It fails for a
// namespace no MCP provider is registered under, after Close (ErrClosed), or
// when the start fails (the error then holds the provider's stderr tail).
func (m *Manager) Provider(ctx context.Context, namespace string) (*Provider, error) {
	srv, ok := m.reg.Server(namespace)
	if !ok {
		return nil, fmt.Errorf("no MCP provider is registered under namespace %q", namespace)
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return nil, ErrClosed
	}
	e := m.entries[namespace]
	if e == nil {
		e = &entry{sem: make(chan struct{}, 1)}
		m.entries[namespace] = e
	}
	m.mu.Unlock()

	select {
	case e.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for MCP provider %q to start: %w", namespace, ctx.Err())
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
	p, err := Connect(ctx, srv, m.opts)
	if err != nil {
		if m.opts != nil && m.opts.RememberFailedStarts && ctx.Err() == nil {
			e.err = err
		}
		return nil, err
	}
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		p.Close()
		return nil, ErrClosed
	}
	e.p = p
	return p, nil
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
	names := make([]string, 0, len(m.entries))
	for ns := range m.entries {
		names = append(names, ns)
	}
	entries := m.entries
	m.mu.Unlock()
	sort.Strings(names)

	errs := make([]error, len(names))
	var wg sync.WaitGroup
	for i, ns := range names {
		e := entries[ns]
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
