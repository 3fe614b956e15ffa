package bundle

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/token"
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

// LimitKeys are the keys of front matter "limits", in the order they
// are written.
var LimitKeys = []string{"tokens_per_run", "tokens_per_day", "tool_calls_per_run"}

// limitsFix is the fix of a "limits" that is not a mapping of LimitKeys.
const limitsFix = "write limits: {tokens_per_run: 200000, tokens_per_day: 1000000, tool_calls_per_run: 100}, each key optional (docs/limits.md#budgets)"

// checkLimitsNode refuses, before decoding, a "limits" that decoding would
// misread: YAML decodes 0.5 into an int as 0 (no limit) and a text or an
// unknown key into a message about the whole front matter. It wants a
// mapping of LimitKeys, each a whole number written as one; a missing or
// empty "limits" is no limits.
func (l *loader) checkLimitsNode(mpath string, m *yamlMap) *LoadError {
	at, msg, fix := limitsProblem(m.value("limits"))
	if at == nil {
		return nil
	}
	line, col := pos(at)
	return l.errf(mpath, line, col, fix, "%s", msg)
}

// limitsProblem finds what checkLimitsNode refuses in v, the value of
// "limits": the node at fault, the message and the fix; a nil node when
// there is none.
func limitsProblem(v ast.Node) (at ast.Node, msg, fix string) {
	switch v.(type) {
	case nil, *ast.NullNode:
		return nil, "", ""
	case *ast.MappingNode, *ast.MappingValueNode:
	default:
		return v, fmt.Sprintf("limits must be a mapping of %s, not %s", strings.Join(LimitKeys, ", "), nodeKind(v)), limitsFix
	}
	entries := []*ast.MappingValueNode{}
	switch n := v.(type) {
	case *ast.MappingNode:
		entries = n.Values
	case *ast.MappingValueNode:
		entries = append(entries, n)
	}
	for _, e := range entries {
		key := ""
		if e.Key != nil && e.Key.GetToken() != nil {
			key = e.Key.GetToken().Value
		}
		if !knownLimit(key) {
			return e.Key, fmt.Sprintf("limits: unknown key %s", strconv.QuoteToASCII(key)),
				didYouMean(key) + "The limits are tokens_per_run, tokens_per_day and tool_calls_per_run"
		}
		if msg, fix := limitValue(key, e.Value); msg != "" {
			at := ast.Node(e.Key) // an empty value has no position of its own
			if _, isNull := e.Value.(*ast.NullNode); !isNull && e.Value != nil {
				at = e.Value
			}
			return at, "limits: " + msg, fix
		}
	}
	return nil, "", ""
}

func knownLimit(key string) bool {
	for _, k := range LimitKeys {
		if k == key {
			return true
		}
	}
	return false
}

// didYouMean asks about the limit key that key misspells (one letter
// added, left out or changed), or is "".
func didYouMean(key string) string {
	for _, k := range LimitKeys {
		if closeTo(strings.ToLower(key), k) {
			return "did you mean " + k + "? "
		}
	}
	return ""
}

// closeTo reports whether a and b differ by at most one letter changed,
// added or left out.
func closeTo(a, b string) bool {
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[min(i+1, len(a)):] == b[min(i+1, len(b)):]
	}
	return a[i:] == b[i+1:]
}

// limitValue says what is wrong with v, the value of the limit key, and
// its fix; "" when it is a whole number from 0 to MaxLimit.
func limitValue(key string, v ast.Node) (msg, fix string) {
	whole := fmt.Sprintf("write a whole number from 0 (no limit of its own) to %d, such as %s: 200000, or leave the key out", MaxLimit, key)
	switch n := v.(type) {
	case nil, *ast.NullNode:
		return key + " has no value", whole
	case *ast.IntegerNode:
		i, err := strconv.ParseInt(strings.ReplaceAll(n.GetToken().Value, "_", ""), 0, 64)
		if err != nil || i < 0 || i > MaxLimit {
			return fmt.Sprintf("%s is %s, out of range", key, n.GetToken().Value), whole
		}
		return "", ""
	case *ast.FloatNode:
		return number(key, n.GetToken().Value, n.Value, whole)
	case *ast.StringNode:
		text := strconv.QuoteToASCII(n.Value)
		if tk := n.GetToken(); tk.Type != token.DoubleQuoteType && tk.Type != token.SingleQuoteType {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil { // 1e3, or past int64
				return number(key, n.Value, f, whole)
			}
		} else if _, err := strconv.ParseUint(n.Value, 10, 64); err == nil {
			return fmt.Sprintf("%s is the text %s, not a number", key, text), fmt.Sprintf("remove the quotes: %s: %s", key, n.Value)
		}
		return fmt.Sprintf("%s is the text %s, not a number", key, text), whole
	}
	if b, ok := v.(*ast.BoolNode); ok {
		return fmt.Sprintf("%s is %s, not a number", key, b.GetToken().Value), whole
	}
	return fmt.Sprintf("%s is %s, not a number", key, nodeKind(v)), whole
}

// number says what is wrong with a limit written as a number that is not
// a plain whole one (0.5, 1e3, 1.0, 99999999999999999999).
func number(key, written string, f float64, whole string) (msg, fix string) {
	switch {
	case f != math.Trunc(f):
		return fmt.Sprintf("%s is %s, not a whole number (it would be read as %d, and 0 is no limit)", key, written, int64(f)), whole
	case f < 0 || f > MaxLimit:
		return fmt.Sprintf("%s is %s, out of range", key, written), whole
	}
	return fmt.Sprintf("%s is %s, not written as a whole number", key, written), fmt.Sprintf("write it as %s: %d", key, int64(f))
}

// nodeKind names a YAML node's kind in words ("a list", "true or false").
func nodeKind(v ast.Node) string {
	switch v.(type) {
	case *ast.SequenceNode:
		return "a list"
	case *ast.MappingNode, *ast.MappingValueNode:
		return "a mapping"
	case *ast.StringNode, *ast.LiteralNode:
		return "text"
	case *ast.IntegerNode, *ast.FloatNode:
		return "a number"
	}
	return strings.ToLower(v.Type().String())
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
