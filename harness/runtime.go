package harness

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// Runtime is an opened harness, one per process: the journal, the MCP
// process manager, limits, the logger, the install folder, the executable
// digest, the open sessions, and the registry generations they use
// (docs/registry.md). It is safe for concurrent use; close it once when the
// process is done.
type Runtime struct {
	base    *tool.Registry // as frozen by Open: natives and code-registered providers
	opts    Options
	journal *journal.Journal
	ownJ    bool
	mcp     *mcp.Manager
	checks  checkCache

	exeOnce sync.Once
	exeSum  string
	exeErr  error

	mu       sync.Mutex
	gen      *generation            // the newest: new sessions use it
	gens     map[uint64]*generation // gen and every older one a session still uses
	nextGen  uint64
	sessions map[string]*Session
	closed   bool

	resumeMu sync.Mutex // one ResumeSession at a time (a double click, two session.open lines)
}

// generation is one frozen registry and the sessions using it. A session
// keeps the generation it was opened on until it closes; the providers of
// an older generation end when its last session closes.
type generation struct {
	id   uint64
	reg  *tool.Registry
	refs int // open sessions, and opens, checks and resumes in progress; guarded by Runtime.mu
}

// Open freezes reg and opens the runtime: call it once per process
// (docs/registry.md, docs/cli.md). It fails when a registration failed
// (the registry kept the error) or when the journal cannot be opened.
// Without a Journal or DBPath the runtime can check and resolve bundles but
// not open sessions.
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
	rt := &Runtime{base: reg, opts: opts, journal: opts.Journal, ownJ: opts.CloseJournal, sessions: map[string]*Session{}, gens: map[uint64]*generation{}}
	if rt.journal == nil && opts.DBPath != "" {
		j, err := journal.Open(opts.DBPath, nil)
		if err != nil {
			return nil, err
		}
		rt.journal, rt.ownJ = j, true
	}
	rt.mcp = mcp.NewManager(&mcp.Options{InstallDir: opts.InstallDir, SearchPath: opts.SearchPath, Logger: opts.Logger, RememberFailedStarts: opts.RememberFailedStarts,
		StartsFile: opts.StartsFile, Elicitation: &mcp.ElicitationOptions{Stray: rt.strayQuestion}, Sampling: &mcp.SamplingOptions{Stray: rt.straySampling}, SignIn: opts.SignIn,
		Protected: rt.journalFiles()})
	rt.install(reg)
	return rt, nil
}

// journalFiles is the journal's file, which no sandboxed provider may
// write (mcp.Options.Protected); none without a journal or for one in
// memory.
func (rt *Runtime) journalFiles() []string {
	if rt.journal == nil || rt.journal.Path() == "" || strings.HasPrefix(rt.journal.Path(), "file:") {
		return nil
	}
	abs, err := filepath.Abs(rt.journal.Path())
	if err != nil {
		return nil
	}
	return []string{abs}
}

// install makes reg the newest generation. rt.mu must be held (or rt not
// yet shared).
func (rt *Runtime) install(reg *tool.Registry) *generation {
	rt.nextGen++
	g := &generation{id: rt.nextGen, reg: reg}
	rt.gen = g
	rt.gens[g.id] = g
	return g
}

// Journal returns the runtime's journal.
func (rt *Runtime) Journal() *journal.Journal { return rt.journal }

// Coworkers returns the bundles folder sessions load their coworker from
// unless SessionOptions.Coworkers names another (Options.Coworkers).
func (rt *Runtime) Coworkers() string { return rt.opts.Coworkers }

// Registry returns the frozen registry of the newest generation.
func (rt *Runtime) Registry() *tool.Registry {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.gen.reg
}

// Generation returns the number of the newest registry generation: 1 after
// Open, one more after each SetServers.
func (rt *Runtime) Generation() uint64 {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.gen.id
}

// SetServers makes a new registry generation: the registry given to Open
// plus servers (for example a servers.json as edited, or with an extension
// installed). New sessions use it; open sessions keep the generation they
// were opened on until they close. A provider whose configuration is
// byte-identical in the new generation (mcp.Key) keeps its process; the
// processes no generation in use lists are ended, after the last session
// of their generation closes. Entries that break the registry's rules are
// left out and returned as errors, joined (the others are installed); the
// execution identity of a session is unchanged by this. broken are the
// entries of the servers file that could not be used (servers.Config.Servers):
// a bundle that uses one fails to resolve with its error, every other
// bundle resolves (docs/servers.md).
func (rt *Runtime) SetServers(servers []tool.MCPServer, broken ...tool.BrokenMCP) error {
	reg, err := rt.base.WithServers(servers, broken...)
	rt.mu.Lock()
	if rt.closed {
		rt.mu.Unlock()
		return errors.New("runtime is closed")
	}
	rt.install(reg)
	rt.checks.reset()
	rt.mu.Unlock()
	if perr := rt.mcp.Retain(rt.liveServers); perr != nil {
		rt.opts.Logger.Warn("end unused MCP providers", "err", perr)
	}
	return err
}

// acquire returns the newest generation with one more reference; release
// gives it back.
func (rt *Runtime) acquire() (*generation, error) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.closed {
		return nil, errors.New("runtime is closed")
	}
	rt.gen.refs++
	return rt.gen, nil
}

// release drops a reference to g; when g is older than the newest and no
// longer used, the providers only it listed are ended (liveServers forgets
// it).
func (rt *Runtime) release(g *generation) {
	rt.mu.Lock()
	g.refs--
	unused := g.refs <= 0 && g != rt.gen && !rt.closed
	rt.mu.Unlock()
	if !unused {
		return
	}
	if err := rt.mcp.Retain(rt.liveServers); err != nil {
		rt.opts.Logger.Warn("end unused MCP providers", "err", err)
	}
}

// liveServers lists the providers of the generations in use: the newest,
// and every older one a session still uses (forgetting the others). It is
// the keep list of mcp.Manager.Retain, evaluated under the Manager's lock
// (the lock order is Manager, then Runtime; the Runtime never calls the
// Manager with rt.mu held).
func (rt *Runtime) liveServers() []tool.MCPServer {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	var out []tool.MCPServer
	for id, g := range rt.gens {
		if g != rt.gen && g.refs <= 0 {
			delete(rt.gens, id)
			continue
		}
		out = append(out, g.reg.Servers()...)
	}
	return out
}

// Session returns the open session with the id, or false. It is the one
// registry of open sessions: the app, the stdio protocol and the CLI use it.
func (rt *Runtime) Session(id string) (*Session, bool) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	s, ok := rt.sessions[id]
	return s, ok
}

// Sessions returns the open sessions, oldest first.
func (rt *Runtime) Sessions() []*Session {
	rt.mu.Lock()
	out := make([]*Session, 0, len(rt.sessions))
	for _, s := range rt.sessions {
		out = append(out, s)
	}
	rt.mu.Unlock()
	sort.Slice(out, func(i, j int) bool { return out[i].opened < out[j].opened })
	return out
}

// RunningProviders returns the namespaces of the MCP provider processes
// (and connections) up now, sorted; one namespace appears twice while two
// generations in use run two configurations of it.
func (rt *Runtime) RunningProviders() []string { return rt.mcp.Running() }

// bundles loads a bundles folder afresh. Bad bundles are reported in
// Set.Errors; the error is only for a folder that cannot be read.
func bundles(dir string) (*bundle.Set, error) {
	if dir == "" {
		return nil, errors.New("no coworkers folder is set")
	}
	return bundle.LoadDir(dir)
}

// Close closes every open session, ends every MCP provider process once
// and closes the journal if the runtime opened it.
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
