package journal

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// Checkpoints anchor the journal's head outside the database
// (docs/journal.md#checkpoints): after each commit the newest chain entry
// (its seq and hash) is written, signed with an Ed25519 key, to a small
// file beside the database (<db>.checkpoint) and to each extra folder.
// VerifyCheckpoints compares the database with them: a database that
// ends before an entry a checkpoint saw, or holds another entry at that
// place, was truncated, rolled back or replaced.

// CheckpointFormat names the format of a checkpoint file and starts the
// signed message.
const CheckpointFormat = "openworker-journal-checkpoint/1"

// CheckpointOptions turns checkpoints on (Options.Checkpoints).
type CheckpointOptions struct {
	// Key signs and verifies the checkpoints (LoadCheckpointKey). Required.
	Key ed25519.PrivateKey
	// Dirs are extra folders that also get a copy (another disk, a synced
	// folder), named <db file name>.checkpoint there.
	Dirs []string
}

// Checkpoint is one checkpoint file as stored.
type Checkpoint struct {
	Format    string    `json:"format"`
	Journal   string    `json:"journal"` // the database's path when written; informative, not signed
	Seq       int64     `json:"seq"`
	Hash      string    `json:"hash"`
	Time      time.Time `json:"time"`
	PublicKey string    `json:"public_key"` // hex Ed25519 public key
	Signature string    `json:"signature"`  // hex Ed25519 signature of signedMessage
	File      string    `json:"file,omitempty"`
}

// signedMessage is what a checkpoint's signature covers: the format, the
// head and the time, one per line.
func (c Checkpoint) signedMessage() []byte {
	return []byte(CheckpointFormat + "\n" + strconv.FormatInt(c.Seq, 10) + "\n" + c.Hash + "\n" + formatTime(c.Time) + "\n")
}

// signCheckpoint makes the checkpoint of (seq, hash) at t.
func signCheckpoint(key ed25519.PrivateKey, journal string, seq int64, hash string, t time.Time) Checkpoint {
	c := Checkpoint{Format: CheckpointFormat, Journal: journal, Seq: seq, Hash: hash, Time: t.UTC()}
	c.PublicKey = hex.EncodeToString(key.Public().(ed25519.PublicKey))
	c.Signature = hex.EncodeToString(ed25519.Sign(key, c.signedMessage()))
	return c
}

// Reasons a checkpoint does not verify.
var (
	errCheckpointFormat = errors.New("not a checkpoint file")
	errCheckpointKey    = errors.New("signed with another key, not this journal's checkpoint key")
	errCheckpointSig    = errors.New("its signature does not verify (the file was changed or forged)")
)

// verifyCheckpoint checks c's signature with pub.
func verifyCheckpoint(c Checkpoint, pub ed25519.PublicKey) error {
	if c.Format != CheckpointFormat || c.Seq < 0 || len(c.Hash) != 64 {
		return errCheckpointFormat
	}
	if c.PublicKey != hex.EncodeToString(pub) {
		return errCheckpointKey
	}
	sig, err := hex.DecodeString(c.Signature)
	if err != nil || !ed25519.Verify(pub, c.signedMessage(), sig) {
		return errCheckpointSig
	}
	return nil
}

// readCheckpoint reads and parses one checkpoint file (not its signature).
func readCheckpoint(path string) (Checkpoint, error) {
	var c Checkpoint
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("%w: %v", errCheckpointFormat, err)
	}
	c.File = path
	return c, nil
}

// anchor is the checkpoint state of an open Journal.
type anchor struct {
	o    CheckpointOptions
	pub  ed25519.PublicKey
	mu   sync.Mutex
	last error // the newest failure to write a checkpoint; nil after a success
}

// checkpointPaths are the newest-checkpoint files of the journal at
// dbPath: beside it, then one per extra folder.
func checkpointPaths(dbPath string, dirs []string) []string {
	out := []string{dbPath + ".checkpoint"}
	for _, d := range dirs {
		if d != "" {
			out = append(out, filepath.Join(d, filepath.Base(dbPath)+".checkpoint"))
		}
	}
	return out
}

// checkpoint writes the journal's head to each checkpoint file, after a
// commit. A file whose checkpoint the database does not contain (it was
// truncated or replaced since) or that does not verify is not
// overwritten but set aside beside it (<file>-<time>), so that
// VerifyCheckpoints still reports it; a file newer than this process's
// view of the head (another process committed since) is left as it is.
// A failure is kept (CheckpointError), never returned: the commit it
// follows has happened.
func (j *Journal) checkpoint(ctx context.Context) {
	a := j.anchor
	if a == nil {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	hash, seq, err := j.Head(ctx)
	if err == nil && seq > 0 {
		for _, p := range checkpointPaths(j.path, a.o.Dirs) {
			if err = j.checkpointTo(ctx, p, seq, hash); err != nil {
				break
			}
		}
	}
	a.last = err
}

func (j *Journal) checkpointTo(ctx context.Context, path string, seq int64, hash string) error {
	a := j.anchor
	old, err := readCheckpoint(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err == nil && verifyCheckpoint(old, a.pub) == nil:
		held, herr := j.entryHash(ctx, old.Seq)
		if herr != nil {
			return herr
		}
		if held == old.Hash {
			if old.Seq >= seq {
				return nil // as new as this head, or newer: another process wrote it
			}
			break
		}
		if err := setAside(path, j.now()); err != nil {
			return err
		}
	default:
		if err := setAside(path, j.now()); err != nil {
			return err
		}
	}
	c := signCheckpoint(a.o.Key, j.path, seq, hash, j.now())
	b, _ := json.MarshalIndent(c, "", "  ")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("journal: checkpoint: %w", err)
	}
	if err := replaceFile(path, append(b, '\n')); err != nil {
		return fmt.Errorf("journal: checkpoint: %w", err)
	}
	return nil
}

// setAside renames a checkpoint file the journal will not overwrite to
// <file>-<UTC time>, where VerifyCheckpoints finds it.
func setAside(path string, t time.Time) error {
	to := path + "-" + t.UTC().Format("20060102T150405.000000000Z")
	if err := os.Rename(path, to); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("journal: checkpoint: set aside %s: %w", path, err)
	}
	return nil
}

// entryHash is the hash of chain entry seq, "" when there is none.
func (j *Journal) entryHash(ctx context.Context, seq int64) (string, error) {
	var h string
	err := j.db.QueryRowContext(ctx, `SELECT hash FROM chain WHERE seq = ?`, seq).Scan(&h)
	if err == sql.ErrNoRows {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("journal: checkpoint: read chain entry %d: %w", seq, err)
	}
	return h, nil
}

// CheckpointError is the newest failure to write a checkpoint after a
// commit (a full disk, an extra folder that is gone), nil when the last
// one was written or checkpoints are off.
func (j *Journal) CheckpointError() error {
	if j.anchor == nil {
		return nil
	}
	j.anchor.mu.Lock()
	defer j.anchor.mu.Unlock()
	return j.anchor.last
}

// replaceFile replaces path with data through a temporary file renamed
// over it (a reader sees the old checkpoint or the new, never a part),
// without the fsync atomicfile.WriteFile does: that fsync cost about ten
// times the commit itself, and a checkpoint lost to a power cut leaves
// the one before, which still anchors everything up to it.
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("journal: checkpoint: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("journal: checkpoint %s: %w", path, err)
	}
	return nil
}
