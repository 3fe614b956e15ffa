package app

import (
	"os"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestEventsMirroredInTypeScript checks that frontend/src/lib/events.ts
// lists exactly the Go event names, in the same order.
func TestEventsMirroredInTypeScript(t *testing.T) {
	src, err := os.ReadFile("../frontend/src/lib/events.ts")
	if err != nil {
		t.Fatal(err)
	}
	block := func(name string) []string {
		re := regexp.MustCompile(`(?s)export const ` + name + ` = \{(.*?)\} as const;`)
		m := re.FindSubmatch(src)
		if m == nil {
			t.Fatalf("events.ts has no `export const %s = {...} as const;`", name)
		}
		var out []string
		for _, v := range regexp.MustCompile(`\w+:\s*"([^"]+)"`).FindAllSubmatch(m[1], -1) {
			out = append(out, string(v[1]))
		}
		return out
	}
	var app, harness []string
	for _, e := range AppEvents {
		app = append(app, string(e))
	}
	for _, e := range HarnessEvents {
		harness = append(harness, string(e))
	}
	if d := cmp.Diff(app, block("AppEvent")); d != "" {
		t.Errorf("AppEvent in events.ts differs from app.AppEvents (-go +ts):\n%s", d)
	}
	if d := cmp.Diff(harness, block("HarnessEventType")); d != "" {
		t.Errorf("HarnessEventType in events.ts differs from app.HarnessEvents (-go +ts):\n%s", d)
	}
}
