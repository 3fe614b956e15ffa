package settings

import (
	"fmt"

	"github.com/openworker/desktop/harness/bundle"
)

// Limits are the default budgets (docs/limits.md#budgets): each applies to
// a coworker whose manifest.md sets no value of its own for that key (a
// manifest value wins per key). 0 sets no default. Kept in settings.json
// under "limits" with the manifest's key names; the app's Settings →
// Limits changes them (Preferences.SetDefaultLimits), and the CLI reads
// them from the app's settings file when the binary is the app's
// (docs/cli.md#limits).
type Limits struct {
	TokensPerRun    int `json:"tokens_per_run"`
	TokensPerDay    int `json:"tokens_per_day"`
	ToolCallsPerRun int `json:"tool_calls_per_run"`
}

// Bundle is l as the harness takes it (harness.SessionOptions.Limits).
func (l Limits) Bundle() bundle.Limits {
	return bundle.Limits{TokensPerRun: l.TokensPerRun, TokensPerDay: l.TokensPerDay, ToolCallsPerRun: l.ToolCallsPerRun}
}

// Check refuses a default below 0 or over bundle.MaxLimit, naming its key.
func (l Limits) Check() error {
	for _, f := range []struct {
		key string
		v   int
	}{{"tokens_per_run", l.TokensPerRun}, {"tokens_per_day", l.TokensPerDay}, {"tool_calls_per_run", l.ToolCallsPerRun}} {
		if f.v < 0 || f.v > bundle.MaxLimit {
			return fmt.Errorf("default limit %s is %d: write a whole number from 0 (no default) to %d", f.key, f.v, bundle.MaxLimit)
		}
	}
	return nil
}
