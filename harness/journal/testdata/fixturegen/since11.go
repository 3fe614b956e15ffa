//go:build fixturegen && since11

package main

// labels renames one session and hides another, then shows it again
// (schema 11: session_labels).
func labels(g *gen, renamed, hidden string) {
	must(g.j.SetTitle(g.ctx, renamed, "Notes of the week", "user:fixture"))
	must(g.j.HideSession(g.ctx, hidden, true, "user:fixture"))
	must(g.j.HideSession(g.ctx, hidden, false, "user:fixture"))
	must(g.j.HideSession(g.ctx, hidden, true, "user:fixture"))
}
