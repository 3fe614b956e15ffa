package app

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// tsStrings returns the string literals of the first match of re's first
// group in the TypeScript file, in order.
func tsStrings(t *testing.T, file, re string) []string {
	t.Helper()
	src, err := os.ReadFile("../frontend/src/lib/" + file)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(re).FindSubmatch(src)
	if m == nil {
		t.Fatalf("%s has nothing matching %s: the test reads the union from there", file, re)
	}
	var out []string
	for _, v := range regexp.MustCompile(`"([^"]*)"`).FindAllSubmatch(m[1], -1) {
		out = append(out, string(v[1]))
	}
	return out
}

func strs[T ~string](vs []T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = string(v)
	}
	return out
}

// TestVocabulariesMirroredInTypeScript: the window's TypeScript unions of
// consent's and the journal's values are the Go values, defined once in
// those packages (docs/architecture.md#where-to-add).
func TestVocabulariesMirroredInTypeScript(t *testing.T) {
	var savedPolicies []string // Settings → Permissions lists allow and deny; a saved "ask" is a removed answer (policies.go)
	for _, p := range consent.Policies() {
		if p != consent.PolicyAsk {
			savedPolicies = append(savedPolicies, string(p))
		}
	}
	var finished []string // the statuses a call's card can end in: every status but the two before the call returns
	for _, s := range journal.InvocationStatuses() {
		if s != journal.InvPrepared && s != journal.InvExecuting {
			finished = append(finished, string(s))
		}
	}
	for _, c := range []struct {
		name, file, re string
		want           []string
		subsetOf       bool // the TS union may hold more (the window's own states)
	}{
		{"Decision", "types.ts", `export type Decision =([^;]*);`, strs(consent.Decisions()), false},
		{"ApprovalMode", "types.ts", `export type ApprovalMode =([^;]*);`, strs(consent.Modes()), false},
		{"SavedPolicy.policy", "types_journal.ts", `(?s)interface SavedPolicy \{.*?\bpolicy:([^;]*);`, savedPolicies, false},
		{"Outcome", "types_journal.ts", `export type Outcome =([^;]*);`, []string{string(journal.OutcomeApplied), string(journal.OutcomeNotApplied)}, false},
		{"journalStatuses", "chat.ts", `const journalStatuses: ToolStatus\[\] = \[([^\]]*)\]`, finished, false},
		{"ToolStatus", "chat.ts", `(?s)export type ToolStatus =(.*?);`, finished, true},
		{"ToolPolicy", "types_editor.ts", `export type ToolPolicy =([^;]*);`, strs(consent.Policies()), false},
		{"Effect", "types_editor.ts", `export type Effect =([^;]*);`, []string{harness.EffectReadOnly, harness.EffectChangesData, harness.EffectDestructive, harness.EffectUnknown}, false},
		{"ToolProvider.kind", "types_editor.ts", `(?s)interface ToolProvider \{.*?\bkind:([^;]*);`, []string{ProviderBuiltIn, ProviderServer, ProviderExtension, ProviderAgent}, false},
	} {
		got := tsStrings(t, c.file, c.re)
		if c.subsetOf {
			for _, w := range c.want {
				if !slices.Contains(got, w) {
					t.Errorf("%s in %s lacks %q (Go: %s)", c.name, c.file, w, strings.Join(c.want, ", "))
				}
			}
			continue
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s in %s is %q; the Go values are %q", c.name, c.file, got, c.want)
		}
	}
}
