package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/settings"
)

// Default limits (docs/app.md#limits, docs/limits.md#budgets): Settings →
// Limits sets the budgets of coworkers whose manifest.md sets none, per
// key (a manifest value wins for its key). New chats, scheduled runs and
// parked runs that continue take them (Chats.sessionOptions); the CLI
// reads the same settings.json (docs/cli.md#limits).

// DefaultLimits returns the default limits in use.
func (pr *Preferences) DefaultLimits() settings.Limits {
	return pr.settings.get().Limits
}

// SetDefaultLimits saves l in settings.json at once, keeping every other
// saved field as it is on disk, and returns it. A limit below 0 or over
// a billion is an error naming it, and nothing is written. Chats already
// open keep the limits they started with.
func (pr *Preferences) SetDefaultLimits(l settings.Limits) (settings.Limits, error) {
	if err := l.Check(); err != nil {
		return settings.Limits{}, err
	}
	if err := pr.settings.update(func(s *Settings) { s.Limits = l }); err != nil {
		return settings.Limits{}, fmt.Errorf("the default limits were not saved: %w", err)
	}
	pr.log.Info("default limits saved", "tokens_per_run", l.TokensPerRun, "tokens_per_day", l.TokensPerDay, "tool_calls_per_run", l.ToolCallsPerRun)
	return l, nil
}
