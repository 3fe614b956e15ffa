package harness

import (
	"go/ast"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// TestEventTypesListsEveryConstant: every EventType constant declared in
// events.go is in EventTypes, in declaration order, so the window and the
// protocol, which take the list from there, miss none.
func TestEventTypesListsEveryConstant(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "events.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var declared []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "EventType" {
				for _, n := range v.Names {
					declared = append(declared, n.Name)
				}
			}
		}
	}
	if len(declared) < 10 {
		t.Fatalf("found only %d EventType constants in events.go: %v", len(declared), declared)
	}
	values := map[string]EventType{
		"EventTurnStarted": EventTurnStarted, "EventText": EventText, "EventAssistantMessage": EventAssistantMessage,
		"EventToolProposed": EventToolProposed, "EventApprovalRequired": EventApprovalRequired,
		"EventApprovalDecided": EventApprovalDecided, "EventToolStarted": EventToolStarted,
		"EventToolProgress": EventToolProgress, "EventElicitationRequired": EventElicitationRequired,
		"EventElicitationAnswered": EventElicitationAnswered, "EventToolFinished": EventToolFinished,
		"EventWarning": EventWarning, "EventTurnFinished": EventTurnFinished, "EventError": EventError,
	}
	var want []EventType
	for _, n := range declared {
		v, ok := values[n]
		if !ok {
			t.Fatalf("events.go declares %s: add it to this test's table and to EventTypes", n)
		}
		want = append(want, v)
	}
	if got := EventTypes(); !slices.Equal(got, want) {
		t.Errorf("EventTypes() = %q\nevents.go declares %q", got, want)
	}
}
