package harness

import (
	"log/slog"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Turn budgets (docs/turns.md).
const (
	DefaultMaxAttempts = 16
	DefaultMaxCalls    = 64
)

// Options configure a Runtime. Zero values mean the documented defaults.
type Options struct {
	// Coworkers is the bundles folder (docs/bundles.md).
	Coworkers string
	// Journal is an open journal; when nil, DBPath is opened (and closed
	// with the runtime).
	Journal *journal.Journal
	DBPath  string
	// Model is the provider every session uses. It may be nil for a runtime
	// that only checks bundles.
	Model model.Provider
	// Approve is the approval mode; default consent.Ask.
	Approve consent.Mode
	// Prompter asks the person in Ask mode. nil denies every prompt.
	Prompter consent.Prompter
	// PromptTimeout bounds one prompt; default 5 minutes (docs/consent.md).
	PromptTimeout time.Duration
	// Workspace is handed to tools in tool.Call.Workspace.
	Workspace string
	// InstallDir resolves relative MCP programs; default the executable's folder.
	InstallDir string
	// RememberFailedStarts: an MCP provider that failed to start is not
	// started again for the life of the Runtime (see
	// mcp.Options.RememberFailedStarts); for one-shot commands like check.
	RememberFailedStarts bool
	// Executable is hashed into every execution identity; default os.Executable().
	Executable string
	// Limits bound every call; zero fields mean the defaults of docs/limits.md.
	Limits tool.Limits
	// MaxAttempts and MaxCalls bound one turn; 0 means 16 and 64. Options
	// may lower them, never raise them.
	MaxAttempts, MaxCalls int
	// Logger receives operational logs (never secrets); default discards.
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Approve == "" {
		o.Approve = consent.Ask
	}
	if o.PromptTimeout <= 0 {
		o.PromptTimeout = consent.DefaultPromptTimeout
	}
	o.Limits = o.Limits.Fill()
	if o.MaxAttempts <= 0 || o.MaxAttempts > DefaultMaxAttempts {
		o.MaxAttempts = DefaultMaxAttempts
	}
	if o.MaxCalls <= 0 || o.MaxCalls > DefaultMaxCalls {
		o.MaxCalls = DefaultMaxCalls
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}
