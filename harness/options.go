package harness

import (
	"context"
	"log/slog"
	"time"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Turn budgets (docs/turns.md).
const (
	DefaultMaxAttempts = 16
	DefaultMaxCalls    = 64
)

// DefaultParallel bounds how many MCP providers start or list their tools
// at once, and how many bundles Check resolves at once (16: enough for a
// coworker with a dozen providers, few enough not to fork a hundred at once).
const DefaultParallel = 16

// Options configure a Runtime: what lives as long as the process. Zero
// values mean the documented defaults. What may differ from one session to
// the next (the model, the approval mode, the prompter, the workspace) is
// in SessionOptions.
type Options struct {
	// Coworkers is the default bundles folder (docs/bundles.md); a session
	// may name another in SessionOptions.Coworkers.
	Coworkers string
	// Journal is an open journal; when nil, DBPath is opened (and closed
	// with the runtime).
	Journal *journal.Journal
	DBPath  string
	// CloseJournal hands Journal to the runtime: Close closes it too.
	CloseJournal bool
	// InstallDir resolves relative MCP programs; default the executable's folder.
	InstallDir string
	// SearchPath is where bare MCP program names ("npx") are looked up and
	// the PATH stdio providers get (mcp.Options.SearchPath,
	// docs/mcp.md#finding-the-program); nil is launch.Default.
	SearchPath func(context.Context) launch.SearchPath
	// RememberFailedStarts: an MCP provider that failed to start is not
	// started again for the life of the Runtime (see
	// mcp.Options.RememberFailedStarts); for one-shot commands like check.
	RememberFailedStarts bool
	// StartsFile remembers which MCP commands started once, so that the
	// first-start bound of npx, uvx and docker run applies only until one
	// succeeded (mcp.Options.StartsFile, docs/mcp.md#start-bound); ""
	// remembers nothing. StartsFileName is its name in the config folder.
	StartsFile string
	// Executable is hashed into every execution identity; default os.Executable().
	Executable string
	// Limits bound every call; zero fields mean the defaults of
	// docs/limits.md.
	Limits tool.Limits
	// MaxAttempts and MaxCalls bound one turn; 0 means 16 and 64. Options
	// may lower them, never raise them.
	MaxAttempts, MaxCalls int
	// Parallel bounds concurrent provider starts and discoveries, and
	// concurrent bundle resolutions in Check; 0 means DefaultParallel (16).
	Parallel int
	// CheckTimeout bounds resolving one bundle in Check (its providers must
	// start and list their tools within it); 0 means no bound beyond the
	// providers' own start timeout. A bundle that takes longer is reported
	// broken and is not cached.
	CheckTimeout time.Duration
	// Logger receives operational logs (never secrets); default discards.
	Logger *slog.Logger
	// Workspace is the workspace folder Check and Resolve start MCP
	// providers for, offered as their root (docs/mcp.md#roots); "" offers
	// none. A host whose sessions all use one workspace sets it to that
	// one, so that checking and chatting share provider processes.
	Workspace string
	// DefaultWorkspace says Workspace is a default the person did not
	// choose (the app's hidden workspace): it stays the workspace of tools
	// and sandboxes, but MCP providers are offered no root for it
	// (docs/mcp.md#roots). A coworker's folder is always offered.
	DefaultWorkspace bool
	// SignIn lets remote MCP servers that ask for it be signed in to
	// (mcp.Options.SignIn, docs/mcp.md#sign-in); nil sends no token.
	SignIn *oauth.SignIn
	// A2A tunes how remote A2A agents are reached (docs/a2a.md): the card's
	// timeout, the tasks/cancel bound, the poll interval; zero means the
	// defaults of package harness/a2a.
	A2A a2a.Options
}

func (o Options) withDefaults() Options {
	o.Limits = o.Limits.Fill()
	if o.MaxAttempts <= 0 || o.MaxAttempts > DefaultMaxAttempts {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MaxCalls <= 0 || o.MaxCalls > DefaultMaxCalls {
		o.MaxCalls = DefaultMaxCalls
	}
	if o.Parallel <= 0 {
		o.Parallel = DefaultParallel
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// SessionOptions are the settings one session is opened (or resumed) with
// and keeps until it closes: a settings change affects new sessions only.
type SessionOptions struct {
	// Model is the provider the session's turns use; required.
	Model model.Provider
	// Approve is the approval mode; default consent.Ask.
	Approve consent.Mode
	// Prompter asks the person in Ask mode. nil denies every prompt.
	Prompter consent.Prompter
	// Elicitor asks the person the questions MCP servers send during a
	// call (docs/mcp.md#elicitation). nil declines every question.
	Elicitor elicit.Elicitor
	// PromptTimeout bounds one prompt; default 5 minutes (docs/consent.md).
	PromptTimeout time.Duration
	// Workspace is handed to tools in tool.Call.Workspace and offered to
	// the session's MCP providers as their one root (docs/mcp.md#roots);
	// sessions with different workspaces get their own providers.
	Workspace string
	// DefaultWorkspace says Workspace is a default the person did not
	// choose: no root is offered for it, as Options.DefaultWorkspace.
	DefaultWorkspace bool
	// Coworkers is the bundles folder the coworker is loaded from; default
	// Options.Coworkers.
	Coworkers string
	// Limits are the default budgets (the settings'): each zero field of
	// a coworker's manifest "limits" takes this one; zero here too means
	// no limit (docs/limits.md#budgets).
	Limits bundle.Limits
	// Budget asks the person, in an attended run, whether a run that
	// reached a limit goes on (inbox.BudgetAsker); nil parks the run on a
	// budget inbox item (unattended).
	Budget BudgetAsker
}

func (o SessionOptions) withDefaults(rt Options) SessionOptions {
	if o.Approve == "" {
		o.Approve = consent.Ask
	}
	if o.PromptTimeout <= 0 {
		o.PromptTimeout = consent.DefaultPromptTimeout
	}
	if o.Coworkers == "" {
		o.Coworkers = rt.Coworkers
	}
	return o
}
