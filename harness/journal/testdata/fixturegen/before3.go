//go:build fixturegen && !since3

package main

import "github.com/openworker/desktop/harness/journal"

// Before schema 3 a call took three commits: approval, prepared, executing.
func begin(g *gen, inv journal.Invocation, a *journal.Approval) {
	_, err := g.j.RecordApproval(g.ctx, *a)
	must(err)
	must(g.j.PrepareInvocation(g.ctx, inv))
	must(g.j.MarkExecuting(g.ctx, inv.ID))
}

// refuse journals a refused call: PrepareInvocation with status refused.
func refuse(g *gen, inv journal.Invocation, a *journal.Approval) {
	_, err := g.j.RecordApproval(g.ctx, *a)
	must(err)
	must(g.j.PrepareInvocation(g.ctx, inv))
}
