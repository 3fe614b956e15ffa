package harness

import (
	"errors"
	"io/fs"
	"strconv"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/bundle"
)

// ruleBundle is a coworker whose tools.json selects one native tool, one
// MCP tool and one A2A skill by name (v3), each at its own line.
func ruleBundle() *bundle.Bundle {
	return &bundle.Bundle{ID: "tester", Dir: "/cw/tester", Tools: bundle.Selection{Version: 3, File: "/cw/tester/coworker/tools.json",
		Names: []string{"kit.long", "files.long", "helper.long"},
		Pos: map[string]bundle.Position{
			"kit.long": {Line: 2, Col: 3}, "files.long": {Line: 3, Col: 3}, "helper.long": {Line: 4, Col: 3},
			"files": {Line: 7, Col: 5}, "helper": {Line: 8, Col: 5}, // where a v1 selection would name the providers
		}}}
}

// TestRefuseNameForEachProviderKind: the one rule for a name the model
// cannot take. Selected by name, a native tool, an MCP tool and an A2A
// skill all fail at their position in tools.json with nameFix; as a tool
// of a whole provider, an MCP tool and an A2A skill are left out (nil
// error), each LeftOut naming its provider's kind, at the provider's
// position, with the rule broken as its reason.
func TestRefuseNameForEachProviderKind(t *testing.T) {
	const why = "the alias is 77 bytes long, more than 64"
	for _, tc := range []struct {
		name  string
		agent bool
		line  int
	}{{"kit.long", false, 2}, {"files.long", false, 3}, {"helper.long", true, 4}} {
		r := &resolver{b: ruleBundle(), res: &Resolution{byAlias: map[string]int{}}}
		e := r.refuseName(tc.name, why, false, tc.agent)
		if e == nil || e.Fix != nameFix || e.Msg != why || e.Tool != tc.name || e.Line != tc.line || e.Col != 3 || e.File != r.b.Tools.File {
			t.Errorf("explicit %s: refuseName = %+v; want an error at line %d with nameFix", tc.name, e, tc.line)
		}
		if len(r.res.LeftOut) != 0 {
			t.Errorf("explicit %s: left out %+v; want nothing left out", tc.name, r.res.LeftOut)
		}
	}

	for _, tc := range []struct {
		name, provider, of, others string
		agent                      bool
		line                       int
	}{
		{"files.long", "mcp:files", `of MCP provider "files"`, "the other tools of the provider are selected", false, 7},
		{"helper.long", "a2a:helper", `of A2A agent "helper"`, "the other skills of the agent are selected", true, 8},
	} {
		r := &resolver{b: ruleBundle(), res: &Resolution{byAlias: map[string]int{}}}
		r.b.Tools.Pos = map[string]bundle.Position{"files": {Line: 7, Col: 5}, "helper": {Line: 8, Col: 5}} // a v1 selection names only providers
		if e := r.refuseName(tc.name, why, true, tc.agent); e != nil {
			t.Errorf("whole %s: refuseName = %v; want it left out", tc.name, e)
			continue
		}
		if len(r.res.LeftOut) != 1 {
			t.Fatalf("whole %s: left out %+v; want one", tc.name, r.res.LeftOut)
		}
		l := r.res.LeftOut[0]
		if l.Tool != tc.name || l.Provider != tc.provider || l.Reason != why || l.Line != tc.line || l.Col != 5 || l.File != r.b.Tools.File {
			t.Errorf("whole %s: LeftOut = %+v", tc.name, l)
		}
		for _, want := range []string{r.b.Tools.File + ":" + strconv.Itoa(tc.line) + ":5: ", `coworker "tester" leaves out "` + tc.name + `"`, tc.of, why, tc.others} {
			if !strings.Contains(l.Message, want) {
				t.Errorf("whole %s: message %q lacks %q", tc.name, l.Message, want)
			}
		}
	}
}

// TestStartFailedForEachProviderKind: a provider that did not start (an
// MCP provider, or an A2A agent whose card could not be read) fails the
// selection as a runtime failure naming the provider, at the selected
// name's position, with the provider's error as its message and cause.
func TestStartFailedForEachProviderKind(t *testing.T) {
	cause := &fs.PathError{Op: "exec", Path: "/no/such/server", Err: fs.ErrNotExist}
	for _, tc := range []struct{ name, ns string }{{"files.long", "files"}, {"helper.long", "helper"}, {"files", "files"}} {
		b := ruleBundle()
		e := startFailed(b, tc.name, tc.ns, cause)
		var pe *fs.PathError
		at := b.Tools.At(tc.name)
		if !e.StartFailed || e.Provider != tc.ns || e.Msg != cause.Error() || e.Tool != tc.name || e.Line != at.Line || !errors.As(e, &pe) || !errors.Is(e, fs.ErrNotExist) {
			t.Errorf("startFailed(%s) = %+v; want a start failure of %s caused by %v", tc.name, e, tc.ns, cause)
		}
	}
}
