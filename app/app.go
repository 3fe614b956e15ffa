package app

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"sync/atomic"

	"github.com/openworker/desktop/harness/cli"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// App is the facade the UI calls through Wails bindings. Every exported
// method is bound: it returns (T, error) or error, and the UI gets a
// promise that rejects with the error's message. The methods are safe for
// concurrent use (Wails calls each on its own goroutine).
//
// App holds no window code: events go through an Emitter and dialogs
// through Dialogs (runtime_wails.go implements both), so tests drive it
// with fakes and the real harness. Its state is in parts with locks of
// their own (engine, settingsStore, modelState, serversFile, noticeBoard,
// reloads), none of which is held across I/O.
type App struct {
	*env
	engine    *engine // the runtime and the journal
	settings  *settingsStore
	model     *modelState  // the model new chats use, and its banner
	servers   *serversFile // the servers file as applied, and its banner
	notices   *noticeBoard // the banners Info returns
	reloads   *reloads     // live reload of the coworkers folder and the servers file
	prompter  *modalPrompter
	elicitor  *appElicitor
	signIns   *signIns     // sign-in questions waiting (signin.go)
	opened    *openedInbox // extension files opened before the UI listened (extopen.go)
	viewPages *viewPages   // the app views' documents the window loads (viewpages.go)
	focused   atomic.Bool  // the window has the focus
	cancel    context.CancelFunc
}

// config is what the command line (Options.Args) and the caller decide.
type config struct {
	Version       string
	Build         cli.Version // Version with its commit and build time, for diagnostics
	ConfigDir     string      // --config-dir: moves settings, journal and logs
	DBPath        string      // --db
	Coworkers     string      // --coworkers: bundles folder for this run (not saved)
	OpenCoworker  string      // --coworker: open a chat with it at start
	Provider      string      // --provider
	BaseURL       string      // --base-url
	Model         string      // --model
	Approve       string      // --approve
	Servers       string      // --servers
	PromptTimeout string      // --prompt-timeout (Go duration)
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
	e := &env{cfg: cfg, paths: paths, log: d.Logger, reg: reg, emit: d.Emitter, dialogs: d.Dialogs, keys: d.Keychain, opener: d.Opener,
		searchPath: d.SearchPath, tokens: d.Tokens, extSecrets: d.ExtensionSecrets}
	var cancel context.CancelFunc
	e.base, cancel = context.WithCancel(ctx)
	a := &App{env: e, cancel: cancel, engine: &engine{}, notices: &noticeBoard{log: e.log, emit: e.emit},
		settings:  &settingsStore{file: paths.Settings, flags: cfg, defaultCoworkers: paths.DefaultCoworkers},
		signIns:   &signIns{env: e},
		opened:    &openedInbox{env: e},
		viewPages: &viewPages{}}
	a.model = &modelState{env: e, settings: a.settings, notices: a.notices}
	a.servers = &serversFile{env: e, engine: a.engine, settings: a.settings}
	a.reloads = &reloads{env: e, engine: a.engine, settings: a.settings, servers: a.servers, list: a.listCoworkers}
	a.prompter = newModalPrompter(e.emit, d.Notifier, a.focused.Load)
	a.elicitor = newAppElicitor(e.emit, d.Notifier, a.focused.Load, a.engine.coworkerOf, a.OpenLink)
	a.focused.Store(true)

	// Before anything is shared: the parts are filled without their locks.
	s, err := LoadSettings(paths.Settings)
	if err != nil {
		a.notices.add(Notice{Level: NoticeError, Message: "Settings were not loaded: " + err.Error()})
	}
	a.settings.saved, a.settings.inUse = s, cfg.override(s)
	if j, err := journal.Open(paths.Journal, &journal.Options{DeferCheck: true}); err != nil { // checked in the background: checkJournal
		a.engine.err = fmt.Errorf("the journal at %s cannot be opened: %w", paths.Journal, err)
	} else {
		a.engine.journal = j
		if b := j.Backup(); b.Path != "" { // docs/journal.md#backups-and-upgrades
			a.notices.add(Notice{Level: NoticeInfo, Message: fmt.Sprintf("The journal was upgraded from schema v%d to v%d; a copy from before is at %s.", b.From, b.To, b.Path)})
		}
		if msg := recoveredNotice(j.Recovered(), j.RecoveredTurns()); msg != "" {
			a.notices.add(Notice{Level: NoticeWarn, Message: msg})
		}
	}
	dir := a.settings.coworkersDir()
	if a.settings.inUse.CoworkersDir == "" && cfg.Coworkers == "" {
		if seeded, err := seedCoworkers(dir, d.Examples); err != nil {
			a.notices.add(Notice{Level: NoticeWarn, Message: err.Error()})
		} else if seeded {
			a.notices.add(Notice{Level: NoticeInfo, Message: "Example coworkers were copied to " + dir + "."})
		}
	}
	if a.engine.journal != nil {
		e.pruneExtensions() // before any chat opens
		a.engine.openRuntime(e, dir, a.signIns.options())
		a.servers.start(a.notices)
		a.model.start()
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

// startup runs when the window is up: it starts watching the bundles
// folder and the servers file, and checks the journal in the background.
func (a *App) startup() {
	a.reloads.rewatchCoworkers()
	a.reloads.rewatchServers()
	startTestHook(a)
	go a.checkJournal()
}

// shutdown closes every chat, the runtime and the journal. Running turns are
// cancelled; their calls end as the harness journals them.
func (a *App) shutdown() {
	a.cancel()
	a.reloads.close()
	if err := a.engine.close(); err != nil {
		a.log.Error("shutdown", "err", err)
	}
}

// Info returns what the UI shows at start: paths, the model in use and
// problems found while starting.
func (a *App) Info() (AppInfo, error) {
	defer a.opened.uiReady() // the UI listens now: send the extensions opened before (extopen.go)
	s, m := a.settings.get(), a.model.current()
	info := AppInfo{Version: a.cfg.Version, ConfigDir: a.paths.ConfigDir, JournalPath: a.paths.Journal, LogFile: a.paths.LogFile,
		CoworkersDir: s.coworkersDir(a.paths.DefaultCoworkers), ApprovalMode: s.ApprovalMode, Notices: a.notices.all(),
		StartCoworker: a.cfg.OpenCoworker, Theme: a.settings.theme(), Model: m.description}
	if m.err != nil {
		info.ModelError = m.err.Error()
	}
	if err := a.engine.runtimeErr(); err != nil {
		info.RuntimeError = err.Error()
	}
	return info, nil
}

// SetWindowFocused tells the app whether its window has the focus; the UI
// calls it on focus and blur. A prompt raised while unfocused also raises a
// native notification (docs/consent.md).
func (a *App) SetWindowFocused(focused bool) error {
	a.focused.Store(focused)
	return nil
}
