package cli

import (
	"context"
	"crypto/ed25519"
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
	cp, _, err := c.checkpointOptions(path)
	if err != nil {
		return nil, &exitError{ExitFailure, err}
	}
	j, err := journal.Open(path, &journal.Options{Reading: !writes, Checkpoints: cp})
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
	if !c.noCheckpointWarning {
		c.warnCheckpoint(j, cp)
	}
	return j, nil
}

// warnCheckpoint says once on stderr when the journal does not match its
// newest checkpoint (journal.CheckLatestCheckpoint: cheap, the latest
// only); journal verify, which checks every checkpoint, does not ask
// (docs/journal.md#checkpoints).
func (c *config) warnCheckpoint(j *journal.Journal, cp *journal.CheckpointOptions) {
	failed, err := j.CheckLatestCheckpoint(context.Background(), cp.Key.Public().(ed25519.PublicKey), cp.Dirs)
	if err != nil || len(failed) == 0 {
		return // a read error is the command's to meet and report
	}
	more := ""
	if len(failed) > 1 {
		more = fmt.Sprintf(" (and %d more checkpoint file)", len(failed)-1)
	}
	fmt.Fprintf(c.stderr, "warning: the journal does not match its newest checkpoint: %s%s; openworker journal verify --db %s checks it all (docs/journal.md#checkpoints)\n", failed[0].Message, more, j.Path())
}

// checkpointDirEnv names an extra folder for the journal's checkpoints
// (another disk, a synced folder; docs/journal.md#checkpoints).
const checkpointDirEnv = "OPENWORKER_CHECKPOINT_DIR"

// checkpointOptions are the checkpoints of the journal at path: its key
// (journal.LoadCheckpointKey) and the folder OPENWORKER_CHECKPOINT_DIR
// names, if any. Where the key is kept is said by journal verify (the
// where string), not by every command: a file key is created once per
// journal folder, and run's output is the model's and the tools'.
func (c *config) checkpointOptions(path string) (*journal.CheckpointOptions, string, error) {
	key, where, err := journal.LoadCheckpointKey(path, nil)
	if err != nil {
		return nil, "", err
	}
	return &journal.CheckpointOptions{Key: key, Dirs: c.checkpointDirs()}, where, nil
}

func (c *config) checkpointDirs() []string {
	if d := c.getenv(checkpointDirEnv); d != "" {
		return []string{d}
	}
	return nil
}
