package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// App is the facade the UI calls through Wails bindings. Every exported
// method is bound: it returns (T, error) or error, and the UI gets a
// promise that rejects with the error's message. The methods are safe for
// concurrent use (Wails calls each on its own goroutine).
//
// App holds no window code: events go through an Emitter and dialogs
// through Dialogs (runtime_wails.go implements both), so tests drive it
// with fakes and the real harness.
type App struct {
	// viewPages: the app views' documents the window loads (viewpages.go).
	viewPages viewPages
	cfg       config
	paths     Paths
	log       *slog.Logger
	reg       *tool.Registry
	emit      Emitter
	dialogs   Dialogs
	keys      Keychain
	opener    Opener
	examples  fs.FS
	// searchPath is deps.SearchPath (nil: launch.Default).
	searchPath func(context.Context) launch.SearchPath
	prompter   *modalPrompter
	elicitor   *appElicitor
	tokens     oauth.TokenStore      // sign-ins to remote MCP servers (signin.go)
	extSecrets extension.SecretStore // sensitive settings of extensions (extensions.go)
	signIn     *oauth.SignIn         // the runtime's, shared by its providers (signin.go)
	signIns    signIns
	focused    atomic.Bool
	journal    *journal.Journal

	base   context.Context // cancelled at shutdown: stops running turns
	cancel context.CancelFunc

	importMu sync.Mutex // one ApplyImport or InstallExtension at a time: plan, compare and write as one step

	mu               sync.Mutex
	settings         Settings         // in use: the saved ones with this run's flags on top
	saved            Settings         // as in settings.json: what saving starts from (keepSaved)
	rt               *harness.Runtime // the one runtime of the process; nil when it could not open
	model            model.Provider   // what new chats use; nil when modelErr says why
	modelErr         error            // why there is no model provider
	modelDescription string           // Describe() of the provider new chats use
	keychainErr      error            // the keychain could not be read
	serversLoaded    string           // the servers.json whose providers are in use
	serversErr       error            // the last problem reading it, or nil
	serversWhole     bool             // serversErr is about the whole file (nothing of it was read)
	serversRuntimeOK bool             // the runtime took the servers of the last read (serversErr is the file's only)
	serversShown     Notice           // the servers banner last sent to the UI (reapplyServersLocked)
	modelShown       Notice           // the model banner last sent to the UI (reapplyModelLocked)
	serversCfg       *servers.Config  // the servers file as last read (its inputs, notices); nil when none
	serversWatcher   *dirWatcher
	rtErr            error           // why rt is nil
	notices          []Notice        // problems found at start, shown by the UI
	opened           openedInbox     // extension files opened before the UI listened (extopen.go)
	modelBaseURL     string          // the model's base URL in use (defaults applied)
	lastModels       *ModelList      // the last list ListModels or TestConnection got (e2e hook)
	lastConnection   *ConnectionTest // the last TestConnection (e2e hook)
	watcher          *dirWatcher
}

// config is what the command line (Options.Args) and the caller decide.
type config struct {
	Version       string
	Build         harness.Version // Version with its commit and build time, for diagnostics
	ConfigDir     string          // --config-dir: moves settings, journal and logs
	DBPath        string          // --db
	Coworkers     string          // --coworkers: bundles folder for this run (not saved)
	OpenCoworker  string          // --coworker: open a chat with it at start
	Provider      string          // --provider
	BaseURL       string          // --base-url
	Model         string          // --model
	Approve       string          // --approve
	Servers       string          // --servers
	PromptTimeout string          // --prompt-timeout (Go duration)
	Getenv        func(string) string

	// Open: the files after the flags, absolute (extopen.go).
	Open []string
}

// deps are the window-side parts; tests pass fakes.
type deps struct {
	Emitter  Emitter
	Dialogs  Dialogs
	Keychain Keychain
	Notifier Notifier
	Opener   Opener // nil: the system's (xdg-open, open, rundll32)
	Logger   *slog.Logger
	Examples fs.FS
	// SearchPath is where MCP programs are found (harness.Options.SearchPath);
	// nil is launch.Default. The desktop app passes launch.LoginPath
	// (docs/mcp.md#the-login-shells-path).
	SearchPath func(context.Context) launch.SearchPath
	// Tokens keeps sign-ins to remote MCP servers; nil is the OS keychain
	// (oauth.KeychainStore, docs/mcp.md#sign-in).
	Tokens oauth.TokenStore
	// ExtensionSecrets keeps the sensitive settings of installed
	// extensions; nil is the OS keychain (extension.Keychain).
	ExtensionSecrets extension.SecretStore
}

// AppInfo is what the UI needs at start.
type AppInfo struct {
	Version       string   `json:"version"`
	ConfigDir     string   `json:"config_dir"`
	JournalPath   string   `json:"journal_path"`
	LogFile       string   `json:"log_file"`
	CoworkersDir  string   `json:"coworkers_dir"`
	Model         string   `json:"model"`       // where requests go, never a key
	ModelError    string   `json:"model_error"` // why no model is configured
	RuntimeError  string   `json:"runtime_error"`
	ApprovalMode  string   `json:"approval_mode"`
	Notices       []Notice `json:"notices"`
	StartCoworker string   `json:"start_coworker"` // open a chat with it at start
	Theme         string   `json:"theme"`          // "system", "light" or "dark" (docs/app.md#theme)
}

// newApp builds the app: settings, journal, servers.json, the example
// bundles on first run, and the harness runtime. Problems a person can fix
// (bad settings file, servers.json error, unreachable keychain) become
// notices and the app still starts; only a journal that cannot be opened is
// kept as the runtime error, shown in the window.
func newApp(ctx context.Context, reg *tool.Registry, cfg config, d deps) (*App, error) {
	if cfg.Getenv == nil {
		cfg.Getenv = os.Getenv
	}
	paths, err := resolvePaths(cfg.ConfigDir)
	if err != nil {
		return nil, err
	}
	if cfg.DBPath != "" {
		paths.Journal = cfg.DBPath
	}
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Keychain == nil {
		d.Keychain = osKeychain{}
	}
	if d.Opener == nil {
		d.Opener = systemOpener{}
	}
	d.Opener = wrapOpener(d.Opener, d.Logger) // e2e builds follow a sign-in page themselves (e2e_hook.go)
	if d.Tokens == nil {
		d.Tokens = oauth.KeychainStore{}
	}
	if d.ExtensionSecrets == nil {
		d.ExtensionSecrets = extension.Keychain{}
	}
	a := &App{cfg: cfg, paths: paths, log: d.Logger, reg: reg, emit: d.Emitter, dialogs: d.Dialogs, keys: d.Keychain, opener: d.Opener,
		examples: d.Examples, searchPath: d.SearchPath, tokens: d.Tokens, extSecrets: d.ExtensionSecrets}
	a.base, a.cancel = context.WithCancel(ctx)
	a.prompter = newModalPrompter(a.emit, d.Notifier, a.focused.Load)
	a.elicitor = newAppElicitor(a.emit, d.Notifier, a.focused.Load, a.coworkerOf, a.OpenLink)
	a.focused.Store(true)

	s, err := LoadSettings(paths.Settings)
	if err != nil {
		a.notice(NoticeError, "Settings were not loaded: "+err.Error())
	}
	a.saved, a.settings = s, cfg.override(s)
	if j, err := journal.Open(paths.Journal, &journal.Options{DeferCheck: true}); err != nil { // checked in the background: checkJournal
		a.rtErr = fmt.Errorf("the journal at %s cannot be opened: %w", paths.Journal, err)
	} else {
		a.journal = j
		if b := j.Backup(); b.Path != "" { // docs/journal.md#backups-and-upgrades
			a.notice(NoticeInfo, fmt.Sprintf("The journal was upgraded from schema v%d to v%d; a copy from before is at %s.", b.From, b.To, b.Path))
		}
		if msg := recoveredNotice(j.Recovered(), j.RecoveredTurns()); msg != "" {
			a.notice(NoticeWarn, msg)
		}
	}
	dir := a.coworkersDir()
	if a.settings.CoworkersDir == "" && cfg.Coworkers == "" {
		if seeded, err := seedCoworkers(dir, a.examples); err != nil {
			a.notice(NoticeWarn, err.Error())
		} else if seeded {
			a.notice(NoticeInfo, "Example coworkers were copied to "+dir+".")
		}
	}
	if a.journal != nil {
		a.pruneExtensions() // before any chat opens
		a.openRuntime()
		if err := a.applyServersLocked(); err != nil {
			n := a.serversNoticeLocked()
			a.log.Info("notice", "level", n.Level, "message", n.Message)
			a.notices, a.serversShown = append(a.notices, n), n
		}
		a.applyModelLocked()
		n := a.modelNoticeLocked()
		if n.Message != "" && a.modelErr == nil { // a modelErr is Info's ModelError, shown with this key by the UI
			a.log.Info("notice", "level", n.Level, "message", n.Message, "key", n.Key)
			a.notices = append(a.notices, n)
		}
		a.modelShown = n
	}
	return a, nil
}

// override applies the command-line flags on top of the saved settings.
// The result is what this run uses; it is saved only if the person saves
// settings.
func (c config) override(s Settings) Settings {
	if c.Provider != "" {
		s.Provider = c.Provider
	}
	if c.BaseURL != "" || c.Model != "" {
		p := &s.OpenAI
		if s.Provider == "anthropic" {
			p = &s.Anthropic
		}
		if c.BaseURL != "" {
			p.BaseURL = c.BaseURL
		}
		if c.Model != "" {
			p.Model = c.Model
		}
	}
	if c.Approve != "" {
		s.ApprovalMode = c.Approve
	}
	if c.Servers != "" {
		s.ServersPath = c.Servers
	}
	if c.Coworkers != "" {
		s.CoworkersDir = c.Coworkers
	}
	return s
}

// keepSaved is what saving s writes to settings.json: a field this run's
// flags set (--coworkers, --model, ...) that is still in use as the flag set
// it (inUse) and was left so keeps its saved value, so a flag "for this
// run" never becomes the saved choice by saving something else
// (docs/cli.md#the-desktop-app). A field changed in Settings is saved as
// changed.
func (c config) keepSaved(s, inUse, saved Settings) Settings {
	keep := func(flag string, cur *string, now, old string) {
		if flag != "" && *cur == flag && now == flag {
			*cur = old
		}
	}
	keep(c.Provider, &s.Provider, inUse.Provider, saved.Provider)
	keep(c.BaseURL, &s.OpenAI.BaseURL, inUse.OpenAI.BaseURL, saved.OpenAI.BaseURL)
	keep(c.Model, &s.OpenAI.Model, inUse.OpenAI.Model, saved.OpenAI.Model)
	keep(c.BaseURL, &s.Anthropic.BaseURL, inUse.Anthropic.BaseURL, saved.Anthropic.BaseURL)
	keep(c.Model, &s.Anthropic.Model, inUse.Anthropic.Model, saved.Anthropic.Model)
	keep(c.Approve, &s.ApprovalMode, inUse.ApprovalMode, saved.ApprovalMode)
	keep(c.Servers, &s.ServersPath, inUse.ServersPath, saved.ServersPath)
	keep(c.Coworkers, &s.CoworkersDir, inUse.CoworkersDir, saved.CoworkersDir)
	return s
}

// runFlags lists the flags of this run that set a setting, "--NAME VALUE"
// each, for Settings to say what is not saved.
func (c config) runFlags() []string {
	out := []string{}
	for _, f := range [][2]string{{"provider", c.Provider}, {"base-url", c.BaseURL}, {"model", c.Model},
		{"approve", c.Approve}, {"servers", c.Servers}, {"coworkers", c.Coworkers}} {
		if f[1] != "" {
			out = append(out, "--"+f[0]+" "+f[1])
		}
	}
	return out
}

// saveSettingsLocked writes s (less this run's flags, keepSaved) to
// settings.json and makes s the settings in use; a.mu is held.
func (a *App) saveSettingsLocked(s Settings) error {
	file := a.cfg.keepSaved(s, a.settings, a.saved)
	if err := SaveSettings(a.paths.Settings, file); err != nil {
		return err
	}
	a.saved, a.settings = file, s
	return nil
}

// recoveredNotice is the one notice for what the journal recovered at
// start: tool calls left "executing" (now "unknown") and turns left
// "running" (now "failed") by a process that stopped (docs/journal.md). "" when
// nothing was recovered.
func recoveredNotice(calls, turns int) string {
	var what []string
	if calls > 0 {
		what = append(what, plural(calls, "tool call", "tool calls"))
	}
	if turns > 0 {
		what = append(what, plural(turns, "turn", "turns"))
	}
	if len(what) == 0 {
		return ""
	}
	verb, them := "were", "them"
	if calls+turns == 1 {
		verb, them = "was", "it"
	}
	msg := fmt.Sprintf("%s %s interrupted when the app last stopped; review %s in Activity", strings.Join(what, " and "), verb, them)
	switch {
	case calls == 1:
		msg += " and record whether the call took effect"
	case calls > 1:
		msg += " and record whether each call took effect"
	}
	return msg + "."
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func (a *App) notice(level, msg string) {
	a.log.Info("notice", "level", level, "message", msg)
	a.notices = append(a.notices, Notice{Level: level, Message: msg})
}

// coworkersDir is the bundles folder in use.
func (a *App) coworkersDir() string {
	if a.settings.CoworkersDir != "" {
		return a.settings.CoworkersDir
	}
	return a.paths.DefaultCoworkers
}

// startup runs when the window is up: it starts watching the bundles folder.
func (a *App) startup() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.rewatchLocked()
	a.rewatchServersLocked()
	startTestHook(a)
	go a.checkJournal()
}

// shutdown closes every chat, the runtime and the journal. Running turns are
// cancelled; their calls end as the harness journals them.
func (a *App) shutdown() {
	a.cancel()
	a.mu.Lock()
	defer a.mu.Unlock()
	_ = a.watcher.Close()
	_ = a.serversWatcher.Close()
	a.watcher, a.serversWatcher = nil, nil
	var errs []error
	if a.rt != nil {
		errs = append(errs, a.rt.Close()) // every chat, and every provider process once
	}
	a.rt = nil
	if a.journal != nil {
		errs = append(errs, a.journal.Close())
		a.journal = nil
	}
	if err := errors.Join(errs...); err != nil {
		a.log.Error("shutdown", "err", err)
	}
}

// Info returns what the UI shows at start: paths, the model in use and
// problems found while starting.
func (a *App) Info() (AppInfo, error) {
	defer a.uiReady() // the UI listens now: send the extensions opened before (extopen.go)
	a.mu.Lock()
	defer a.mu.Unlock()
	info := AppInfo{Version: a.cfg.Version, ConfigDir: a.paths.ConfigDir, JournalPath: a.paths.Journal, LogFile: a.paths.LogFile,
		CoworkersDir: a.coworkersDir(), ApprovalMode: a.settings.ApprovalMode, Notices: append([]Notice{}, a.notices...),
		StartCoworker: a.cfg.OpenCoworker, Theme: a.themeLocked()}
	if a.modelErr != nil {
		info.ModelError = a.modelErr.Error()
	}
	if a.rtErr != nil {
		info.RuntimeError = a.rtErr.Error()
	}
	info.Model = a.modelDescription
	return info, nil
}

// SetWindowFocused tells the app whether its window has the focus; the UI
// calls it on focus and blur. A prompt raised while unfocused also raises a
// native notification (docs/consent.md).
func (a *App) SetWindowFocused(focused bool) error {
	a.focused.Store(focused)
	return nil
}
