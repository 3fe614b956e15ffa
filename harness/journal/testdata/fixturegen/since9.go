//go:build fixturegen && since9

package main

import "github.com/openworker/desktop/harness/journal"

// place records where the call went (schema 9).
func place(inv *journal.Invocation, where string) { inv.Placement = where }

// toolWarning is a session warning about one tool (schema 9: warnings.tool).
func toolWarning(g *gen, sid, tool, msg string) {
	must(g.j.AddWarning(g.ctx, journal.Warning{SessionID: sid, Code: "tool_left_out", Tool: tool, Message: msg}))
}
