package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/openworker/desktop/harness/journal"
	"github.com/spf13/cobra"
)

// journalExportCommand is "journal export [--to FILE]": every session the
// file still yields, in full, as JSON Lines (one journal.SessionDetail per
// line, newest first; journal.Journal.SessionIDs): what to save of a damaged journal before moving it
// aside (docs/journal.md#degraded). A session that cannot be read is named
// on stderr and skipped; the export then exits 1 after writing the rest.
func (c *config) journalExportCommand(f *journalFlags) *cobra.Command {
	var to string
	cmd := &cobra.Command{
		Use:   "export [--to FILE]",
		Short: "write every readable session as JSON Lines (to save what a damaged journal still holds)",
		Args:  cobra.NoArgs,
		RunE: f.withJournal(func(cmd *cobra.Command, _ []string, j *journal.Journal) error {
			ids, err := j.SessionIDs(cmd.Context())
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
			w := c.stdout
			if to != "" {
				file, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
				if err != nil {
					return usageErr("--to %s: %v (export never overwrites a file; name a new one)", to, err)
				}
				defer file.Close()
				w = file
			}
			n, bad, err := exportSessions(cmd, j, ids, w)
			if err != nil {
				return err
			}
			if n == 0 && to != "" {
				os.Remove(to) // nothing saved: leave the name free for a retry
			}
			fmt.Fprintf(c.stderr, "exported %d of %d sessions from %s\n", n, len(ids), j.Path())
			if bad > 0 {
				return &exitError{ExitFailure, fmt.Errorf("%d sessions could not be read (named above); the others were exported", bad)}
			}
			return nil
		}),
	}
	cmd.Flags().StringVar(&to, "to", "", "write to this new file instead of stdout (0600; never overwritten)")
	return cmd
}

func exportSessions(cmd *cobra.Command, j *journal.Journal, ids []string, w io.Writer) (n, bad int, err error) {
	for _, id := range ids {
		d, err := j.Detail(cmd.Context(), id)
		var line []byte
		if err == nil {
			line, err = marshalLine(d)
		}
		if err != nil {
			fmt.Fprintf(cmd.ErrOrStderr(), "session %s: not exported: %v\n", id, err)
			bad++
			continue
		}
		if _, err := w.Write(line); err != nil {
			return n, bad, fmt.Errorf("export: write: %w", err)
		}
		n++
	}
	return n, bad, nil
}

// marshalLine is v as one line of JSON, without HTML escaping; a value
// the journal holds as JSON that is no longer valid (damage inside a
// cell) is an error, so that one session's damage stops only that session.
func marshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("its journaled JSON is damaged: %w", err)
	}
	return b.Bytes(), nil
}
