package cli

import (
	"fmt"
	"io"

	"github.com/openworker/desktop/harness/journal"
)

// sayBackup writes, on w (stderr), the backup Open made before upgrading
// the journal's schema, if it made one: "journal: backed up schema v6 to
// PATH before upgrading to v9" (docs/journal.md#backups-and-upgrades).
func sayBackup(w io.Writer, j *journal.Journal) {
	if b := j.Backup(); b.Path != "" {
		fmt.Fprintln(w, "journal:", b)
	}
}
