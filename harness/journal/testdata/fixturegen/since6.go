//go:build fixturegen && since6

package main

import "github.com/openworker/desktop/harness/journal"

// reopen continues the closed session with another model (schema 6:
// session owners) and runs one more turn in it.
func reopen(g *gen, sid string) {
	must(g.j.ReopenSession(g.ctx, sid, journal.Reopening{Model: "test-model-2"}))
	t2 := sid + "-t2"
	must(g.j.StartTurn(g.ctx, turnWith(journal.Turn{ID: t2, SessionID: sid, Prompt: "And now?"}, "test-model-2", "bypass")))
	g.message(sid, t2, "user", `{"text":"And now?"}`)
	g.message(sid, t2, "assistant", `{"text":"Nothing else to do."}`)
	must(g.j.FinishTurn(g.ctx, t2, "completed", "", 1, 0))
	must(g.j.FinishSession(g.ctx, sid, "closed", ""))
}
