package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/model"
)

// checkTimeout bounds resolving one bundle for the Coworkers list, above
// every provider's own start bound (mcp.StartTimeoutOf: "startup_timeout",
// 120 s for a first npx/uvx/docker start, else 30 s), which is what
// decides when a provider that does not start is broken
// (docs/app.md#starting). A bundle that takes longer is listed as broken
// with the timeout, and is tried again at the next listing (timeouts are
// not cached).
var checkTimeout = mcp.DownloadStartTimeout + time.Minute

var errNoJournal = errors.New("the journal is not open; see the message at the top of the window")

// engine is the one harness runtime of the process and its journal:
// opened at start, closed at shutdown. mu guards the pointers only; every
// call into the runtime or the journal is made without it (they are safe
// for concurrent use).
type engine struct {
	mu      sync.Mutex
	rt      *harness.Runtime // nil when err says why
	err     error            // why rt is nil: the journal or the harness did not open
	journal *journal.Journal // nil when it could not be opened
}

// runtime returns the runtime, or nil when it did not start or was closed.
func (e *engine) runtime() *harness.Runtime {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rt
}

// runtimeErr is why the runtime did not start, or nil.
func (e *engine) runtimeErr() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}

// openJournal returns the journal, or errNoJournal.
func (e *engine) openJournal() (*journal.Journal, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.journal == nil {
		return nil, errNoJournal
	}
	return e.journal, nil
}

// ready returns the runtime, or why there is none.
func (e *engine) ready() (*harness.Runtime, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch {
	case e.rt == nil && e.err != nil:
		return nil, e.err
	case e.rt == nil:
		return nil, errors.New("the harness is not running")
	}
	return e.rt, nil
}

// chat returns the open session of a chat.
func (e *engine) chat(sessionID string) (*harness.Session, error) {
	if rt := e.runtime(); rt != nil {
		if s, ok := rt.Session(sessionID); ok {
			return s, nil
		}
	}
	return nil, fmt.Errorf("no open chat %q (it was closed, or the app restarted)", sessionID)
}

// coworkerOf names the coworker of an open chat ("" when it is not open).
func (e *engine) coworkerOf(sessionID string) (string, string) {
	s, err := e.chat(sessionID)
	if err != nil {
		return "", ""
	}
	return s.Coworker(), s.CoworkerName()
}

// revokeGrants drops the grants of tool in every open chat with the
// coworker, after its saved answer was taken back: "Revoke" means the next
// call asks, in this window too.
func (e *engine) revokeGrants(coworker, tool string) {
	rt := e.runtime()
	if rt == nil {
		return
	}
	for _, s := range rt.Sessions() {
		if s.Coworker() == coworker {
			s.RevokeGrant(tool)
		}
	}
}

// close closes the runtime (every chat, and every provider process once)
// and the journal, after taking them out of e.
func (e *engine) close() error {
	e.mu.Lock()
	rt, j := e.rt, e.journal
	e.rt, e.journal = nil, nil
	e.mu.Unlock()
	var errs []error
	if rt != nil {
		errs = append(errs, rt.Close())
	}
	if j != nil {
		errs = append(errs, j.Close())
	}
	return errors.Join(errs...)
}

// openRuntime opens the one harness runtime of the process over the
// journal, with the bundles folder dir; it is called at start, before the
// engine is shared.
func (e *engine) openRuntime(a *env, dir string, signIn *oauth.SignIn) {
	ws := filepath.Join(a.paths.ConfigDir, "workspace") // every chat's default workspace, offered as no MCP root (docs/mcp.md#roots)
	if err := os.MkdirAll(ws, 0o700); err != nil {
		a.log.Warn("workspace folder", "path", ws, "err", err)
	}
	rt, err := harness.Open(a.base, a.reg, harness.Options{
		Coworkers:    dir,
		Journal:      e.journal,
		Logger:       a.log,
		CheckTimeout: checkTimeout,
		SearchPath:   a.searchPath,
		Workspace:    ws, // as sessionOptions: one provider process for check and chats
		// a folder the person did not choose: no root (docs/mcp.md#roots);
		// a coworker's working folder is one
		DefaultWorkspace: true,
		SignIn:           signIn,
		StartsFile:       filepath.Join(a.paths.ConfigDir, harness.StartsFileName), // docs/mcp.md#start-bound
	})
	if err != nil {
		e.err = fmt.Errorf("the harness could not start: %w", err)
		a.log.Error("harness open", "err", err)
		return
	}
	e.rt = rt
}

// modelConfig builds the provider configuration from the settings, the
// keychain and the environment (the documented variables fill what is
// unset, docs/cli.md). A keychain failure is returned as warn: the
// environment may still supply a key. It reads the keychain: call it
// holding no lock.
func (a *env) modelConfig(s Settings) (c model.Config, warn error) {
	p := s.OpenAI
	if s.Provider == model.ProviderAnthropic {
		p = s.Anthropic
	}
	c = model.Config{Provider: s.Provider, BaseURL: p.BaseURL, Model: p.Model}
	key, err := a.keys.Get(s.Provider)
	if err != nil {
		warn = err
	}
	c.APIKey = key
	return model.FromEnv(c, a.cfg.Getenv), warn
}
