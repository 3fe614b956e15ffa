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
		{"limits: {tokens_per_day: 2000000000}\n", "tokens_per_day is 2000000000"},
		{"limits: {token_per_run: 10}\n", "token_per_run"},
		{"limits: {tokens_per_run: lots}\n", "limits"},
	} {
		dir := writeBundle(t, "budgeted", map[string]string{"coworker/manifest.md": manifest(c.limits), "coworker/tools.json": tools})
		_, err := Load(dir)
		var le *LoadError
		if !errors.As(err, &le) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Join("coworker", "manifest.md")) {
			t.Errorf("limits %q: Load = %v; want a LoadError naming manifest.md and %q", c.limits, err, c.want)
		}
	}
}
