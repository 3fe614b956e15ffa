package bundle

import (
	"fmt"
	"strconv"
	"strings"
)

// Limits is front matter "limits" (docs/limits.md#budgets): how much one
// run of the coworker and one day of it may use before the run pauses and
// asks (attended) or parks (unattended) with a budget inbox item. A zero
// field sets no limit of its own: the settings' default applies (Or).
//
//	limits: {tokens_per_run: 200000, tokens_per_day: 1000000, tool_calls_per_run: 100}
type Limits struct {
	// TokensPerRun bounds the tokens (input + output, as the model
	// reports them) of one run: a session, parked and resumed or not.
	TokensPerRun int `yaml:"tokens_per_run" json:"tokensPerRun"`
	// TokensPerDay bounds the tokens of all the coworker's runs in one
	// day (UTC).
	TokensPerDay int `yaml:"tokens_per_day" json:"tokensPerDay"`
	// ToolCallsPerRun bounds the tool calls of one run.
	ToolCallsPerRun int `yaml:"tool_calls_per_run" json:"toolCallsPerRun"`
}

// MaxLimit bounds each limit (a billion tokens: far more than any run).
const MaxLimit = 1_000_000_000

// IsZero reports whether l sets no limit.
func (l Limits) IsZero() bool { return l == Limits{} }

// Or returns l with each zero field taken from def (the settings'
// defaults).
func (l Limits) Or(def Limits) Limits {
	if l.TokensPerRun == 0 {
		l.TokensPerRun = def.TokensPerRun
	}
	if l.TokensPerDay == 0 {
		l.TokensPerDay = def.TokensPerDay
	}
	if l.ToolCallsPerRun == 0 {
		l.ToolCallsPerRun = def.ToolCallsPerRun
	}
	return l
}

// Check reports the first limit out of range (negative, or over
// MaxLimit) by its front matter name.
func (l Limits) Check() (key string, err error) {
	for _, f := range l.fields() {
		if f.v < 0 || f.v > MaxLimit {
			return f.key, fmt.Errorf("limits: %s is %d; want a whole number from 0 (no limit of its own) to %d", f.key, f.v, MaxLimit)
		}
	}
	return "", nil
}

type limitField struct {
	key string
	v   int
}

func (l Limits) fields() []limitField {
	return []limitField{{"tokens_per_run", l.TokensPerRun}, {"tokens_per_day", l.TokensPerDay}, {"tool_calls_per_run", l.ToolCallsPerRun}}
}

// render is the front matter line of l ("" when it sets none).
func (l Limits) render(eol string) string {
	var parts []string
	for _, f := range l.fields() {
		if f.v != 0 {
			parts = append(parts, f.key+": "+strconv.Itoa(f.v))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "limits: {" + strings.Join(parts, ", ") + "}" + eol
}

// checkLimits refuses limits out of range, at their line.
func (l *loader) checkLimits(mpath string, m *yamlMap, lim Limits) *LoadError {
	key, err := lim.Check()
	if err == nil {
		return nil
	}
	line, col := m.at("limits")
	if sub := m.sub("limits"); sub != nil {
		line, col = sub.at(key)
	}
	return l.errf(mpath, line, col, "write a whole number of tokens or calls, or leave the key out", "%v", err)
}
