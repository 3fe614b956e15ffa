package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/openworker/desktop/harness/journal"
	"github.com/spf13/cobra"
)

// exportedCheckpoints is the last line of an export when the journal has
// checkpoint files (docs/journal.md#checkpoints): each one as stored, its
// path in "file", or its read error.
type exportedCheckpoints struct {
	Checkpoints []exportedCheckpoint `json:"checkpoints"`
}

type exportedCheckpoint struct {
	File  string          `json:"file"`
	Data  json.RawMessage `json:"data,omitempty"`
	Error string          `json:"error,omitempty"`
}

// exportCheckpoints writes the exportedCheckpoints line, if there are any
// checkpoint files: as they are, unverified (journal verify checks them).
func (c *config) exportCheckpoints(j *journal.Journal, w io.Writer) error {
	files := journal.CheckpointFiles(j.Path(), c.checkpointDirs())
	if len(files) == 0 {
		return nil
	}
	var out exportedCheckpoints
	for _, f := range files {
		e := exportedCheckpoint{File: f}
		b, err := os.ReadFile(f)
		switch {
		case err != nil:
			e.Error = err.Error()
		case json.Valid(b):
			e.Data = json.RawMessage(bytes.TrimSpace(b))
		default:
			e.Error = "not JSON: not a checkpoint file"
		}
		out.Checkpoints = append(out.Checkpoints, e)
	}
	line, err := marshalLine(out)
	if err != nil {
		return err
	}
	if _, err := w.Write(line); err != nil {
		return fmt.Errorf("export: write: %w", err)
	}
	fmt.Fprintf(c.stderr, "exported %d checkpoint files (the last line)\n", len(files))
	return nil
}

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
			if to == "" {
				return c.exportTo(cmd, j, ids, c.stdout, "")
			}
			if _, err := os.Lstat(to); err == nil {
				return usageErr("--to %s: the file exists (export never overwrites a file; name a new one)", to)
			}
			// Written beside it and renamed when done, so that a failed
			// export (a full disk) leaves no part file in the way of a retry.
			part := to + ".part"
			file, err := os.OpenFile(part, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
			if err != nil {
				return usageErr("--to %s: %v", to, err)
			}
			err = c.exportTo(cmd, j, ids, file, to)
			if cerr := file.Close(); cerr != nil && err == nil {
				err = fmt.Errorf("export: write %s: %w", to, cerr)
			}
			var ee *exitError
			if err != nil && !errors.As(err, &ee) { // not written: nothing kept
				os.Remove(part)
				return err
			}
			if rerr := os.Rename(part, to); rerr != nil {
				os.Remove(part)
				return fmt.Errorf("export: %w", rerr)
			}
			return err
		}),
	}
	cmd.Flags().StringVar(&to, "to", "", "write to this new file instead of stdout (0600; never overwritten)")
	return cmd
}

// exportTo writes the sessions to w and says how many it saved; a
// session it could not read makes it an exit 1 after the rest.
func (c *config) exportTo(cmd *cobra.Command, j *journal.Journal, ids []string, w io.Writer, to string) error {
	n, bad, err := exportSessions(cmd, j, ids, w)
	if err == nil {
		err = c.exportCheckpoints(j, w)
	}
	if err != nil {
		if strings.Contains(err.Error(), "no space left on device") {
			err = fmt.Errorf("%w: the disk holding %s is full; free some space, or name a file on another disk", err, to)
		}
		return err
	}
	fmt.Fprintf(c.stderr, "exported %d of %d sessions from %s\n", n, len(ids), j.Path())
	if bad > 0 {
		return &exitError{ExitFailure, fmt.Errorf("%d of %d sessions could not be read (named above); the %d others were exported", bad, len(ids), n)}
	}
	return nil
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
