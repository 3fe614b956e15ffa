package cli

import (
	"fmt"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/settings"
	"github.com/spf13/pflag"
)

// Default budgets of the commands that run coworkers (run, resume, serve,
// schedule run-due; docs/cli.md#limits). A coworker's manifest.md wins
// per key; a key it leaves out takes the --limit-* flag, else, when this
// binary is the app's (WithAppSettings), the default of the app's
// Settings → Limits (settings.json "limits"), else no limit.

// limitFlags are the --limit-* flags; 0 is "not given".
type limitFlags struct {
	tokensPerRun, tokensPerDay, toolCallsPerRun int
}

func (l *limitFlags) register(fl *pflag.FlagSet) {
	fl.IntVar(&l.tokensPerRun, "limit-tokens-per-run", 0, "default tokens_per_run of a coworker whose manifest.md sets none (docs/limits.md#budgets); 0: the app's Settings, else no limit")
	fl.IntVar(&l.tokensPerDay, "limit-tokens-per-day", 0, "default tokens_per_day, likewise")
	fl.IntVar(&l.toolCallsPerRun, "limit-tool-calls-per-run", 0, "default tool_calls_per_run, likewise")
}

// check refuses a flag below 0 or over bundle.MaxLimit, naming it.
func (l limitFlags) check() error {
	for _, f := range []struct {
		name string
		v    int
	}{{"--limit-tokens-per-run", l.tokensPerRun}, {"--limit-tokens-per-day", l.tokensPerDay}, {"--limit-tool-calls-per-run", l.toolCallsPerRun}} {
		if f.v < 0 || f.v > bundle.MaxLimit {
			return usageErr("%s %d: want a whole number from 0 (not given) to %d", f.name, f.v, bundle.MaxLimit)
		}
	}
	return nil
}

// defaultLimits are the budgets a session takes where its coworker's
// manifest sets none: the flags, then the app's settings. An app settings
// file that cannot be read is said on stderr, and the flags alone apply,
// as the app starts with default settings then.
func (c *config) defaultLimits(l limitFlags) bundle.Limits {
	out := bundle.Limits{TokensPerRun: l.tokensPerRun, TokensPerDay: l.tokensPerDay, ToolCallsPerRun: l.toolCallsPerRun}
	if !c.app {
		return out
	}
	paths, err := settings.ResolvePaths(c.appDir)
	if err != nil {
		fmt.Fprintf(c.stderr, "openworker: the app's default limits do not apply: %v\n", err)
		return out
	}
	s, err := settings.Load(paths.Settings)
	if err != nil {
		fmt.Fprintf(c.stderr, "openworker: the app's default limits do not apply (only the manifest's and the --limit-* flags do): %v\n", err)
		return out
	}
	return out.Or(s.Limits.Bundle())
}
