package bundle

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// TestLimits: front matter "limits" loads into Bundle.Limits and Draft;
// a value out of range or a misspelt key is refused at its line; the
// editor's Save writes the limits as one flow mapping and removes the key
// when none is set; Or fills zero fields from the defaults.
func TestLimits(t *testing.T) {
	const tools = `{"version": 3, "tools": []}`
	manifest := func(limits string) string {
		return "---\nid: budgeted\nname: Budgeted\n" + limits + "---\n\nDo the work.\n"
	}
	dir := writeBundle(t, "budgeted", map[string]string{
		"coworker/manifest.md": manifest("limits: {tokens_per_run: 5000, tool_calls_per_run: 3}\n"),
		"coworker/tools.json":  tools,
	})
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := (Limits{TokensPerRun: 5000, ToolCallsPerRun: 3}); b.Limits != want {
		t.Fatalf("Limits = %+v; want %+v", b.Limits, want)
	}
	if got := b.Limits.Or(Limits{TokensPerRun: 1, TokensPerDay: 90000, ToolCallsPerRun: 7}); got != (Limits{5000, 90000, 3}) {
		t.Errorf("Or = %+v", got)
	}
	d := mustDraft(t, dir)
	if d.Limits != b.Limits {
		t.Fatalf("Draft.Limits = %+v", d.Limits)
	}
	d.Limits.TokensPerDay = 100000
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	m, _ := bundleFiles(t, dir)
	if !strings.Contains(m, "limits: {tokens_per_run: 5000, tokens_per_day: 100000, tool_calls_per_run: 3}\n") {
		t.Fatalf("manifest after Save:\n%s", m)
	}
	if b, err := Load(dir); err != nil || b.Limits.TokensPerDay != 100000 {
		t.Fatalf("Load after Save = %+v, %v", b, err)
	}
	d.Limits = Limits{}
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if m, _ := bundleFiles(t, dir); strings.Contains(m, "limits") {
		t.Fatalf("limits kept after clearing them:\n%s", m)
	}

	for _, c := range []struct{ limits, want string }{
		{"limits:\n  tokens_per_run: -1\n", "manifest.md:5:"},
		{"limits: {tokens_per_day: 2000000000}\n", "tokens_per_day is 2000000000, out of range"},
	} {
		dir := writeBundle(t, "budgeted", map[string]string{"coworker/manifest.md": manifest(c.limits), "coworker/tools.json": tools})
		_, err := Load(dir)
		var le *LoadError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Join("coworker", "manifest.md")) {
			t.Errorf("limits %q: Load = %v; want a LoadError naming manifest.md and %q", c.limits, err, c.want)
		}
	}
}

// TestLimitsRefused: a "limits" that YAML would misread is refused at its
// line and column with the key and the fix: a fraction (0.5 would be read
// as 0, no limit), an unknown key (the three limit keys are named, not the
// front matter's fields), text ("lots", quoted or not), a number in
// quotes, 1e3, an empty value, and limits that are not a mapping.
func TestLimitsRefused(t *testing.T) {
	const tools = `{"version": 3, "tools": []}`
	for _, c := range []struct {
		limits    string
		line, col int
		msg, fix  string
	}{
		{"limits: {tokens_per_run: 0.5}\n", 4, 26, "limits: tokens_per_run is 0.5, not a whole number (it would be read as 0, and 0 is no limit)",
			"write a whole number from 0 (no limit of its own) to 1000000000, such as tokens_per_run: 200000, or leave the key out"},
		{"limits:\n  tokens_per_day: 2.5\n", 5, 19, "tokens_per_day is 2.5, not a whole number", "such as tokens_per_day: 200000"},
		{"limits: {token_per_run: 10}\n", 4, 10, `limits: unknown key "token_per_run"`,
			"did you mean tokens_per_run? The limits are tokens_per_run, tokens_per_day and tool_calls_per_run"},
		{"limits:\n  tokens_per_run: 5\n  max_cost: 3\n", 6, 3, `limits: unknown key "max_cost"`, "; The limits are tokens_per_run, tokens_per_day and tool_calls_per_run"},
		{"limits: {tokens_per_run: \"lots\"}\n", 4, 26, `limits: tokens_per_run is the text "lots", not a number`, "write a whole number"},
		{"limits:\n  tool_calls_per_run: lots\n", 5, 23, `limits: tool_calls_per_run is the text "lots", not a number`, "such as tool_calls_per_run: 200000"},
		{"limits: {tokens_per_run: \"5000\"}\n", 4, 26, `tokens_per_run is the text "5000"`, "remove the quotes: tokens_per_run: 5000"},
		{"limits: {tokens_per_run: 1e3}\n", 4, 26, "tokens_per_run is 1e3, not written as a whole number", "write it as tokens_per_run: 1000"},
		{"limits: {tokens_per_run: true}\n", 4, 26, "tokens_per_run is true, not a number", "write a whole number"},
		{"limits: {tokens_per_run: }\n", 4, 10, "tokens_per_run has no value", "or leave the key out"},
		{"limits: 50000\n", 4, 9, "limits must be a mapping of tokens_per_run, tokens_per_day, tool_calls_per_run, not a number", "write limits: {tokens_per_run: 200000"},
		{"limits: [tokens_per_run]\n", 4, 9, "not a list", "each key optional"},
	} {
		dir := writeBundle(t, "budgeted", map[string]string{
			"coworker/manifest.md": "---\nid: budgeted\nname: Budgeted\n" + c.limits + "---\n\nDo the work.\n", "coworker/tools.json": tools})
		_, err := Load(dir)
		var le *LoadError
		if !errors.As(err, &le) {
			t.Errorf("limits %q: Load = %v; want a LoadError", c.limits, err)
			continue
		}
		if le.File != filepath.Join(dir, "coworker", "manifest.md") || le.Line != c.line || le.Col != c.col ||
			!strings.Contains(le.Msg, c.msg) || !strings.Contains(le.Msg+"; "+le.Fix, c.fix) {
			t.Errorf("limits %q: Load = %s:%d:%d: %s (fix %q); want manifest.md:%d:%d, %q, fix %q", c.limits, le.File, le.Line, le.Col, le.Msg, le.Fix, c.line, c.col, c.msg, c.fix)
		}
	}
	// The editor marks the problem at its limits and, once a limit is
	// set there, saves a manifest that loads.
	dir := writeBundle(t, "budgeted", map[string]string{
		"coworker/manifest.md": "---\nid: budgeted\nname: Budgeted\nlimits: {tokens_per_run: 0.5}\n---\n\nDo the work.\n", "coworker/tools.json": tools})
	d, problems, err := ReadDraft(dir)
	if err != nil || len(problems) != 1 || problems[0].Field != FieldLimits {
		t.Fatalf("ReadDraft = %+v, %v; want one problem in the limits field", problems, err)
	}
	if ps := Validate(dir, d); len(ps) != 0 { // left empty, it is no limit: Save drops the line
		t.Fatalf("Validate with the limit left empty = %+v", ps)
	}
	d.Limits.TokensPerRun = 500
	if err := Save(dir, d); err != nil {
		t.Fatal(err)
	}
	if b, err := Load(dir); err != nil || b.Limits.TokensPerRun != 500 {
		t.Fatalf("Load after fixing the limit in the editor = %+v, %v", b, err)
	}
	// Written as whole numbers in any YAML form, they load.
	for _, ok := range []string{"limits: {tokens_per_run: 2_000}\n", "limits:\n", "limits: {}\n"} {
		dir := writeBundle(t, "budgeted", map[string]string{
			"coworker/manifest.md": "---\nid: budgeted\nname: Budgeted\n" + ok + "---\n\nDo the work.\n", "coworker/tools.json": tools})
		if _, err := Load(dir); err != nil {
			t.Errorf("limits %q: Load = %v", ok, err)
		}
	}
}
