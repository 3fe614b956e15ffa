//go:build fixturegen && since7

package main

import "github.com/openworker/desktop/harness/journal"

// turnWith records the model and approval mode the turn ran with (schema 7).
func turnWith(t journal.Turn, model, approve string) journal.Turn {
	t.Model, t.Approve = model, approve
	return t
}
