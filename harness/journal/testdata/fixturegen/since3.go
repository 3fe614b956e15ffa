//go:build fixturegen && since3

package main

import "github.com/openworker/desktop/harness/journal"

// From schema 3 the approval, prepared and executing rows are one commit.
func begin(g *gen, inv journal.Invocation, a *journal.Approval) {
	must(g.j.BeginInvocation(g.ctx, inv, a))
}

func refuse(g *gen, inv journal.Invocation, a *journal.Approval) {
	must(g.j.RefuseInvocation(g.ctx, inv, a))
}
