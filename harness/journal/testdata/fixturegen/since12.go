//go:build fixturegen && since12

package main

import "github.com/openworker/desktop/harness/journal"

// elicitations records two questions of one call (accepted, then declined
// by the bound) and one asked outside any call (schema 12: elicitations).
func elicitations(g *gen, sid, inv string) {
	must(g.j.RecordElicitation(g.ctx, journal.Elicitation{SessionID: sid, InvocationID: inv, Namespace: "notes", ServerName: "notes-server",
		Seq: 1, Fields: []string{"name", "pin"}, Action: "accept", Source: journal.ElicitByPerson}))
	must(g.j.RecordElicitation(g.ctx, journal.Elicitation{SessionID: sid, InvocationID: inv, Namespace: "notes", ServerName: "notes-server",
		Seq: 2, Fields: []string{"confirm"}, Action: "decline", Source: journal.ElicitByBound, Reason: "unanswered before the call's time bound"}))
	must(g.j.RecordElicitation(g.ctx, journal.Elicitation{Namespace: "notes", Fields: []string{"x"}, Action: "decline", Source: journal.ElicitByStray, Reason: "no call"}))
}
