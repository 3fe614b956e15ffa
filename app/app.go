package app

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// desktop is one running app: what it was started with (env), the parts
// its services share (shared) and the services the window calls through
// the Gate (bound). newApp builds it, Run binds its services, startup and
// shutdown bracket the window. It holds no state and no lock of its own:
// each part and service has its own (docs/app.md#where-things-live).
type desktop struct {
	*env
	shared
	bound
	cancel context.CancelFunc // of env.base
}

// shared are the parts the services share, each with a lock of its own
// held only to copy or keep a value, never across I/O.
type shared struct {
	engine   *engine        // the runtime and the journal
	settings *settingsStore // the settings in use and as saved
	model    *modelState    // the model new chats use, and its banner
	servers  *serversFile   // the servers file as applied, and its banner
	notices  *noticeBoard   // the banners Info returns
	reloads  *reloads       // live reload of the coworkers folder and the servers file
	inboxes  *inboxWatch    // the inbox: its items' events and notifications (inboxwatch.go)
	prompter *modalPrompter // consent prompts, as inbox items
	elicitor *appElicitor   // servers' questions waiting
	signIns  *signIns       // sign-in questions waiting, and the runtime's SignIn
}

// bound are the services the window's page calls, one per room of the
// window; the Gate dispatches "Service.Method" to them (gate.go).
type bound struct {
	Window      *Window
	Chats       *Chats
	Coworkers   *Coworkers
	Preferences *Preferences
	Servers     *Servers
	Extensions  *Extensions
	Activity    *Activity
	Asks        *Asks
	Views       *Views
	Editor      *Editor
	Inbox       *Inbox
	Schedules   *Schedules
}

// services lists the bound services in the order of the Gate's table and
// the generated bindings.
func (b bound) services() []any {
	return []any{b.Window, b.Chats, b.Coworkers, b.Preferences, b.Servers, b.Extensions, b.Activity, b.Asks, b.Views, b.Editor, b.Inbox, b.Schedules}
}

// emptyServices are the bound services without an app behind them: the
// bindings build generates their TypeScript (scripts/app-bindings.sh).
func emptyServices() []any {
	return bound{&Window{}, &Chats{}, &Coworkers{}, &Preferences{}, &Servers{}, &Extensions{}, &Activity{}, &Asks{}, &Views{}, &Editor{}, &Inbox{}, &Schedules{}}.services()
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
	UpdateFeed    string          // --update-feed: another feed URL (docs/update.md)
	Background    bool            // --background: start with the window hidden (docs/app.md#running-in-the-background)
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
	Shell    windowShell // nil: none (noShell); Run passes the Wails window
	Opener   Opener      // nil: the system's (xdg-open, open, rundll32)
	Logger   *slog.Logger
	Examples fs.FS
	// SearchPath is where MCP programs are found (harness.Options.SearchPath);
	// nil is launch.Default. The desktop app passes launch.LoginPath
	// (docs/mcp.md#the-login-shells-path).
	SearchPath func(context.Context) launch.SearchPath
	// Tokens keeps sign-ins to remote MCP servers; nil is the CLI's choice:
	// the OS keychain, else the encrypted file in the config folder, the
	// person told once with a banner (docs/mcp.md#without-a-keychain).
	Tokens oauth.TokenStore
	// ExtensionSecrets keeps the sensitive settings of installed
	// extensions; nil is the OS keychain (extension.Keychain).
	ExtensionSecrets extension.SecretStore
	// ListWait is how long the coworkers list waits for its providers'
	// check before it shows them as starting; 0 is 2 s (docs/app.md#starting).
	ListWait time.Duration
	// Clock is the time the journal stamps its rows with and Activity's
	// "today" (tokens per coworker); nil is time.Now. Tests set it.
	Clock func() time.Time
}

// newApp builds the app: settings, journal, servers.json, the example
// bundles on first run, and the harness runtime. Problems a person can fix
// (bad settings file, servers.json error, unreachable keychain) become
// notices and the app still starts; only a journal that cannot be opened is
// kept as the runtime error, shown in the window.
func newApp(ctx context.Context, reg *tool.Registry, cfg config, d deps) (*desktop, error) {
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
	d = d.withDefaults()
	e := &env{cfg: cfg, paths: paths, log: d.Logger, reg: reg, emit: d.Emitter, dialogs: d.Dialogs, keys: d.Keychain, opener: d.Opener,
		searchPath: d.SearchPath, tokens: d.Tokens, extSecrets: d.ExtensionSecrets, now: d.Clock}
	a := &desktop{env: e}
	e.base, a.cancel = context.WithCancel(ctx)
	a.shared = shared{engine: &engine{}, notices: &noticeBoard{log: e.log, emit: e.emit},
		settings: &settingsStore{file: paths.Settings, flags: cfg, defaultCoworkers: paths.DefaultCoworkers},
		signIns:  &signIns{env: e}}
	if e.tokens == nil { // the CLI's choice (docs/mcp.md#without-a-keychain): the OS keychain, else the encrypted file, said once
		e.tokens = oauth.NewKeychainStore(oauth.KeychainOptions{Dir: paths.ConfigDir, Notice: func(msg string) {
			a.notices.set(Notice{Level: "warning", Key: NoticeKeyTokensFile, Message: msg})
		}})
	}
	a.model = &modelState{env: e, settings: a.settings, notices: a.notices}
	a.servers = &serversFile{env: e, engine: a.engine, settings: a.settings}
	a.wire(d.Notifier, d.Examples, d.ListWait)
	a.Window.shell = d.Shell

	// Before anything is shared: the parts are filled without their locks.
	s, err := LoadSettings(paths.Settings)
	if err != nil {
		a.notices.add(Notice{Level: NoticeError, Message: "Settings were not loaded: " + err.Error()})
	}
	a.settings.saved, a.settings.inUse, a.settings.loadErr = s, cfg.override(s), err
	a.loadJournal(paths.Journal)
	dir := a.settings.coworkersDir()
	if a.settings.inUse.CoworkersDir == "" && cfg.Coworkers == "" {
		a.seed(dir, d.Examples)
	}
	if a.engine.journal != nil {
		e.pruneExtensions() // before any chat opens
		a.engine.openRuntime(e, dir, a.signIns.options())
		a.servers.start(a.notices)
		a.model.start()
	}
	return a, nil
}

// withDefaults fills the parts left nil: no logging, the OS keychain
// and opener, the keychain token and extension secret stores. The opener
// is wrapped for e2e builds (e2e_hook.go).
func (d deps) withDefaults() deps {
	if d.Logger == nil {
		d.Logger = slog.New(slog.DiscardHandler)
	}
	if d.Clock == nil {
		d.Clock = time.Now
	}
	if d.Keychain == nil {
		d.Keychain = osKeychain{}
	}
	if d.Shell == nil {
		d.Shell = noShell{}
	}
	if d.Opener == nil {
		d.Opener = systemOpener{}
	}
	d.Opener = wrapOpener(d.Opener, d.Logger) // e2e builds follow a sign-in page themselves (e2e_hook.go)
	if d.ExtensionSecrets == nil {
		d.ExtensionSecrets = extension.Keychain{}
	}
	return d
}

// loadJournal opens the journal at path (its check deferred to
// checkJournal, in the background) with notices for a schema upgrade and
// for what startup recovered; a journal that cannot be opened is kept as
// the runtime error. It runs before the parts are shared, without locks.
func (a *desktop) loadJournal(path string) {
	opts := &journal.Options{DeferCheck: true, Now: a.now}
	// The head anchored outside the file after each commit
	// (docs/journal.md#checkpoints); without a key the app still runs.
	if key, _, err := journal.LoadCheckpointKey(path, nil); err == nil {
		opts.Checkpoints = &journal.CheckpointOptions{Key: key}
		if d := os.Getenv("OPENWORKER_CHECKPOINT_DIR"); d != "" {
			opts.Checkpoints.Dirs = []string{d}
		}
	} else {
		a.notices.add(Notice{Level: NoticeWarn, Message: fmt.Sprintf("The journal's checkpoints are off: %v", err)})
	}
	j, err := journal.Open(path, opts)
	if err != nil {
		a.engine.err = fmt.Errorf("the journal at %s cannot be opened: %w", path, err)
		return
	}
	a.engine.journal = j
	a.inboxes.open(j)
	if b := j.Backup(); b.Path != "" { // docs/journal.md#backups-and-upgrades
		a.notices.add(Notice{Level: NoticeInfo, Message: fmt.Sprintf("The journal was upgraded from schema v%d to v%d; a copy from before is at %s.", b.From, b.To, b.Path)})
	}
	if msg := recoveredNotice(j.Recovered(), j.RecoveredTurns()); msg != "" {
		a.notices.add(Notice{Level: NoticeWarn, Message: msg})
	}
}

// seed copies the example bundles into the default coworkers folder dir
// on first run, with a notice saying so or why not.
func (a *desktop) seed(dir string, examples fs.FS) {
	if seeded, err := seedCoworkers(dir, examples); err != nil {
		a.notices.add(Notice{Level: NoticeWarn, Message: err.Error()})
	} else if seeded {
		a.notices.add(Notice{Level: NoticeInfo, Message: "Example coworkers were copied to " + dir + "."})
	}
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

// wire makes the services over the parts, and the parts that call into
// a service (the live reloads list coworkers; a question's page opens
// through the window).
func (a *desktop) wire(notify Notifier, examples fs.FS, listWait time.Duration) {
	e := a.env
	if listWait <= 0 {
		listWait = defaultQuickWait
	}
	w := &Window{env: e, engine: a.engine, settings: a.settings, model: a.model, notices: a.notices, opened: &openedInbox{env: e}}
	w.focused.Store(true)
	a.inboxes = &inboxWatch{emit: e.emit, notify: notify, focused: w.focused.Load, show: func() { w.shell.show() }}
	w.inboxes = a.inboxes
	a.prompter = newModalPrompter(e.emit, a.inboxes.inbox)
	a.elicitor = newAppElicitor(e.emit, a.inboxes.inbox, a.engine.coworkerOf, w.OpenLink)
	a.signIns.inbox = a.inboxes.inbox
	c := &Coworkers{env: e, engine: a.engine, settings: a.settings, model: a.model, servers: a.servers, imports: &agentImports{}, quickWait: listWait}
	a.reloads = &reloads{env: e, engine: a.engine, settings: a.settings, servers: a.servers, list: c.list}
	c.reloads = a.reloads
	chats := &Chats{env: e, engine: a.engine, settings: a.settings, model: a.model, prompter: a.prompter, elicitor: a.elicitor}
	prefs := &Preferences{env: e, engine: a.engine, settings: a.settings, model: a.model, servers: a.servers, reloads: a.reloads, coworkers: c}
	a.bound = bound{
		Window:      w,
		Chats:       chats,
		Coworkers:   c,
		Preferences: prefs,
		Servers:     &Servers{env: e, settings: a.settings, servers: a.servers, reloads: a.reloads, coworkers: c, prefs: prefs, signIns: a.signIns},
		Extensions:  &Extensions{env: e, settings: a.settings, servers: a.servers, coworkers: c},
		Activity:    &Activity{env: e, engine: a.engine, settings: a.settings, servers: a.servers},
		Asks:        &Asks{prompter: a.prompter, elicitor: a.elicitor, signIns: a.signIns, engine: a.engine},
		Views:       &Views{env: e, engine: a.engine, chats: chats, pages: &viewPages{}},
		Editor:      &Editor{env: e, engine: a.engine, settings: a.settings, model: a.model, coworkers: c, examples: examples},
		Inbox:       &Inbox{env: e, engine: a.engine, inboxes: a.inboxes, prompter: a.prompter, elicitor: a.elicitor, chats: chats},
		Schedules:   &Schedules{env: e, engine: a.engine, inboxes: a.inboxes, chats: chats},
	}
}

// startup runs when the window is up: it starts watching the bundles
// folder and the servers file, purges the coworkers' trash and checks the
// journal in the background.
func (a *desktop) startup() {
	a.reloads.rewatchCoworkers()
	a.purgeTrash(a.settings.coworkersDir()) // coworkers deleted long ago (docs/app.md#coworker-editor)
	a.reloads.rewatchServers()
	startTestHook(a)
	go a.checkJournal()
	go a.inboxes.poll(a.base)
	go a.Schedules.loop(a.base) // docs/app.md#schedules
	go a.Preferences.refreshAutostart()
}

// shutdown closes every chat, the runtime and the journal. Running turns are
// cancelled; their calls end as the harness journals them.
func (a *desktop) shutdown() {
	a.cancel()
	a.reloads.close()
	if err := a.engine.close(); err != nil {
		a.log.Error("shutdown", "err", err)
	}
}
