package extension

import (
	"testing"
)

// TestRuntimeFits: a python server whose runtime range the found version
// is outside of does not fit (the dialog and the CLI say "does not
// match"), one inside does, a missing one does not, and a binary server
// needs none.
func TestRuntimeFits(t *testing.T) {
	python := zipBundle(t, "py", "1.0.0", func(m map[string]any) {
		m["server"] = map[string]any{"type": "python", "entry_point": "server/run.sh",
			"mcp_config": map[string]any{"command": "python3", "args": []any{"${__dirname}/server/run.sh"}}}
		m["compatibility"] = map[string]any{"runtimes": map[string]any{"python": ">=3.99"}}
	})
	s := &Store{Dir: t.TempDir(), Secrets: &MemorySecrets{}}
	for _, c := range []struct {
		runtimes map[string]string
		want     bool
	}{{map[string]string{"python": "3.11.2"}, false}, {map[string]string{"python": "3.99.1"}, true}, {map[string]string{}, false}} {
		in, err := s.Inspect(python, InspectOptions{Runtimes: c.runtimes})
		if err != nil {
			t.Fatal(err)
		}
		if got := in.RuntimeFits(); got != c.want {
			t.Errorf("runtimes %v: RuntimeFits = %v, want %v (warnings %q)", c.runtimes, got, c.want, in.Warnings)
		}
	}
	in, err := s.Inspect(zipBundle(t, "bin", "1.0.0", nil), InspectOptions{Runtimes: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if !in.RuntimeFits() {
		t.Error("a binary server needs no runtime, yet RuntimeFits is false")
	}
}
