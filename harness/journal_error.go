package harness

// JournalError is a session or turn that did not start because the
// journal refused to record it (a full disk, a degraded file, a lock held
// too long; docs/journal.md): a runtime failure, not bad input, so the
// CLI exits 1 for it (docs/cli.md#exit-codes).
type JournalError struct {
	Op  string // "journal the session", "journal the turn"
	Err error  // the journal's error: names the file and what to do
}

func (e *JournalError) Error() string { return e.Op + ": " + e.Err.Error() }
func (e *JournalError) Unwrap() error { return e.Err }
