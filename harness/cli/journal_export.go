package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/openworker/desktop/harness/journal"
	"github.com/spf13/cobra"
)

// journalExportCommand is "journal export [--to FILE]": every session the
// file still yields, in full, as JSON Lines (one journal.SessionDetail per
// line, newest first): what to save of a damaged journal before moving it
// aside (docs/journal.md#degraded). A session that cannot be read is named
// on stderr and skipped; the export then exits 1 after writing the rest.
func (c *config) journalExportCommand(f *journalFlags) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "export [--to FILE]",
		Short: "write every readable session as JSON Lines (to save what a damaged journal still holds)",
		Args:  cobra.NoArgs,
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			w := c.stdout
			if to != "" {
				file, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
				if err != nil {
					return usageErr("--to %s: %v (export never overwrites a file; name a new one)", to, err)
				}
				defer file.Close()
				w = file
			}
			ss, err := j.Sessions(cmd.Context(), 0)
			if err != nil {
				return fmt.Errorf("export: the list of sessions in %s cannot be read: %w", j.Path(), err)
			}
			n, bad, err := exportSessions(cmd, j, ss, w)
			if err != nil {
				return err
			}
			fmt.Fprintf(c.stderr, "exported %d of %d sessions from %s\n", n, len(ss), j.Path())
			if bad > 0 {
				return &exitError{ExitFailure, fmt.Errorf("%d sessions could not be read (named above); the others were exported", bad)}
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&to, "to", "", "write to this new file instead of stdout (0600; never overwritten)")
	return cmd
}

func exportSessions(cmd *cobra.Command, j *journal.Journal, ss []journal.Session, w io.Writer) (n, bad int, err error) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, s := range ss {
		d, err := j.Detail(cmd.Context(), s.ID)
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "session %s: not exported: %v\n", s.ID, err)
			bad++
			continue
		}
		if err := enc.Encode(d); err != nil {
			return n, bad, fmt.Errorf("export: write: %w", err)
		}
		n++
	}
	return n, bad, nil
}
