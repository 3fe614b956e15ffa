package cli

import (
	"fmt"

	"github.com/openworker/desktop/harness/journal"
)

// openJournal opens the journal at path for one subcommand, the same way
// for all of them (docs/cli.md#exit-codes, docs/journal.md#degraded): a
// journal that cannot be opened is a runtime failure (exit 1) whatever
// the subcommand. A degraded journal is said on stderr; when the
// subcommand is about to write (run, serve), it is refused instead, with
// what to do, and exits 1. A backup made before a schema upgrade is said
// on stderr too (sayBackup).
func (c *config) openJournal(path string, writes bool) (*journal.Journal, error) {
	// A subcommand that only reads skips the quick_check of the whole file
	// until it writes (journal.Options.Reading): journal show stays as
	// fast at 20,000 sessions as at 1,000.
	j, err := journal.Open(path, &journal.Options{Reading: !writes})
	if err != nil {
		return nil, &exitError{ExitFailure, err}
	}
	sayBackup(c.stderr, j)
	if h := j.Health(); !h.OK() {
		if writes {
			j.Close()
			return nil, &exitError{ExitFailure, fmt.Errorf("%s Nothing was run: nothing new is written into this journal. %s %s", h.Summary, h.Fix, healthHint(h, j.Path()))}
		}
		fmt.Fprintf(c.stderr, "warning: %s %s\n", h, healthHint(h, j.Path()))
	}
	return j, nil
}
