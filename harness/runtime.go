package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// Runtime is an opened harness: a frozen registry, a journal, MCP providers
// started on first use, and the consent engine. It is safe for concurrent
// use; close it once when done.
type Runtime struct {
	reg     *tool.Registry
	opts    Options
	journal *journal.Journal
	ownJ    bool
	mcp     *mcp.Manager
	consent *consent.Engine

	exeOnce sync.Once
	exeSum  string
	exeErr  error

	mu       sync.Mutex
	sessions map[string]*Session
	closed   bool

	resumeMu sync.Mutex // one ResumeSession at a time (a double click, two session.open lines)
}

// Open freezes reg and opens the runtime (the embedding entry
// point, docs/cli.md#embedding). It fails when a registration failed (the
// registry kept the error) or when the journal cannot be opened. Without a
// Journal or DBPath the runtime can check and resolve bundles but not open
// sessions.
func Open(ctx context.Context, reg *tool.Registry, opts Options) (*Runtime, error) {
	if reg == nil {
		return nil, errors.New("harness.Open: registry is nil")
	}
	if err := reg.Freeze(); err != nil {
		return nil, fmt.Errorf("tool registry: %w", err)
	}
	opts = opts.withDefaults()
	if opts.InstallDir == "" {
		if exe, err := os.Executable(); err == nil {
			opts.InstallDir = filepath.Dir(exe)
		}
	}
	rt := &Runtime{reg: reg, opts: opts, journal: opts.Journal, sessions: map[string]*Session{}}
	if rt.journal == nil && opts.DBPath != "" {
		j, err := journal.Open(opts.DBPath, nil)
		if err != nil {
			return nil, err
		}
		rt.journal, rt.ownJ = j, true
	}
	rt.mcp = mcp.NewManager(reg, &mcp.Options{InstallDir: opts.InstallDir, Logger: opts.Logger, RememberFailedStarts: opts.RememberFailedStarts})
	rt.consent = &consent.Engine{Mode: opts.Approve, Prompter: opts.Prompter, Timeout: opts.PromptTimeout}
	if rt.journal != nil {
		rt.consent.Store = rt.journal
	}
	return rt, nil
}

// Journal returns the runtime's journal.
func (rt *Runtime) Journal() *journal.Journal { return rt.journal }

// Registry returns the frozen registry.
func (rt *Runtime) Registry() *tool.Registry { return rt.reg }

// Bundles loads the bundles folder afresh. Bad bundles are reported in
// Set.Errors; the error is only for a folder that cannot be read.
func (rt *Runtime) Bundles() (*bundle.Set, error) {
	if rt.opts.Coworkers == "" {
		return nil, errors.New("no coworkers folder is set; pass --coworkers DIR")
	}
	return bundle.LoadDir(rt.opts.Coworkers)
}

// Close closes every open session, ends the MCP providers and closes the
// journal if the runtime opened it.
func (rt *Runtime) Close() error {
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return nil
	}
	rt.closed = true
	var open []*Session
	for _, s := range rt.sessions {
		open = append(open, s)
	}
	rt.mu.Unlock()
	var errs []error
	for _, s := range open {
		errs = append(errs, s.Close())
	}
	errs = append(errs, rt.mcp.Close())
	if rt.ownJ && rt.journal != nil {
		errs = append(errs, rt.journal.Close())
	}
	return errors.Join(errs...)
}

// executableDigest hashes the host executable once.
func (rt *Runtime) executableDigest() (string, error) {
	rt.exeOnce.Do(func() {
		path := rt.opts.Executable
		if path == "" {
			var err error
			if path, err = os.Executable(); err != nil {
				rt.exeErr = fmt.Errorf("find the host executable: %w", err)
				return
			}
		}
		rt.exeSum, rt.exeErr = consent.FileDigest(path)
	})
	return rt.exeSum, rt.exeErr
}
