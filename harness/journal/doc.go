// Package journal is OpenWorker's durable record (docs/journal.md): sessions with
// their execution identity, turns, messages, consent decisions, tool
// invocations, warnings and the user's saved policies, in one SQLite file
// (github.com/mattn/go-sqlite3, cgo).
//
// The rule it exists for: a tool call's "executing" row is committed, and
// fsynced, before the call does any I/O.
//
//	j, err := journal.Open(path, nil) // WAL, synchronous=FULL, migrations, recovery
//	...
//	inv := journal.Invocation{ID: journal.NewID("inv_"), SessionID: s, Tool: "notes.append", Arguments: args}
//	a := &journal.Approval{SessionID: s, Decision: "allow_once", Source: "prompt"}
//	err = j.BeginInvocation(ctx, inv, a)          // one commit: approval, prepared, executing; durable
//	out, callErr := provider.Call(ctx, ...)       // exactly one call
//	err = j.FinishInvocation(ctx, inv.ID, journal.Finish{Status: "succeeded", Result: out})
//
// Two durable commits per call, the minimum docs/journal.md allows.
// PrepareInvocation + MarkExecuting write the same history in two commits;
// RefuseInvocation records a call refused before any I/O with its consent
// decision, in one commit.
//
// If the process dies between BeginInvocation and FinishInvocation, the
// next Open marks the row "unknown" (Recovered counts them); it is never
// re-run, and a person records the real outcome with Reconcile. Turns left
// "running" by a dead process become "failed" (RecoveredTurns).
//
// Every row written is also appended to a hash chain in the same
// transaction; Verify recomputes it from the rows and reports the first
// break, streaming, in memory that does not grow with the file. Lists page
// through indexes: SessionPage (sessions, newest first) and Unknown (calls
// waiting for reconciliation, oldest first) take and return cursors
// (docs/journal.md#scale). Stored times are UTC text with nanoseconds (see timeLayout).
// Image bytes and secrets are never stored: callers pass digests, and JSON
// fields are bounded by MaxJSONBytes.
//
// A Journal is safe for concurrent use; several processes may share a file.
package journal
