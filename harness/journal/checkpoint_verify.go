package journal

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// CheckpointFinding is what VerifyCheckpoints says of one checkpoint file.
type CheckpointFinding struct {
	File string `json:"file"`
	// Status: "ok" (the database holds the entry it saw), "newer" (the
	// database holds it and entries after it, newer than every
	// checkpoint: allowed), "truncated" (the database ends before the
	// entry it saw), "replaced" (the database holds another entry at that
	// place: a restored older copy written to since, or a rewrite),
	// "unverifiable" (not a checkpoint, another key, a bad signature).
	Status     string      `json:"status"`
	Message    string      `json:"message"`
	Checkpoint *Checkpoint `json:"checkpoint,omitempty"`
}

// Failed reports whether f shows a problem (truncated, replaced or
// unverifiable).
func (f CheckpointFinding) Failed() bool {
	return f.Status != "ok" && f.Status != "newer"
}

// CheckpointReport is the result of VerifyCheckpoints.
type CheckpointReport struct {
	Head     int64               `json:"head"` // the database's newest chain entry
	Findings []CheckpointFinding `json:"findings"`
	// None is true when no checkpoint file exists: nothing to compare with.
	None bool `json:"none,omitempty"`
	// Key says where the checkpoint key is kept (set by the caller that
	// loaded it: LoadCheckpointKey's where).
	Key string `json:"key,omitempty"`
}

// OK reports whether no finding failed.
func (r CheckpointReport) OK() bool {
	for _, f := range r.Findings {
		if f.Failed() {
			return false
		}
	}
	return true
}

// CheckpointFiles lists every checkpoint file of the journal at dbPath,
// beside it and in dirs: the newest (<name>.checkpoint) and those set
// aside (<name>.checkpoint-<time>), sorted by path.
func CheckpointFiles(dbPath string, dirs []string) []string {
	var out []string
	for _, p := range checkpointPaths(dbPath, dirs) {
		m, _ := filepath.Glob(globEscape(p) + "*")
		for _, f := range m {
			base := filepath.Base(f)
			if base == filepath.Base(p) || strings.HasPrefix(base, filepath.Base(p)+"-") {
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out
}

func globEscape(p string) string {
	r := strings.NewReplacer(`*`, `\*`, `?`, `\?`, `[`, `\[`)
	if filepath.Separator == '\\' {
		return p // Windows: \ is the separator, not an escape; such names are rare there
	}
	return r.Replace(p)
}

// VerifyCheckpoints compares the database with every checkpoint file
// (CheckpointFiles of dirs), verified with pub (docs/journal.md#checkpoints).
// The error is only for failing to read the database.
func (j *Journal) VerifyCheckpoints(ctx context.Context, pub ed25519.PublicKey, dirs []string) (CheckpointReport, error) {
	var rep CheckpointReport
	_, head, err := j.Head(ctx)
	if err != nil {
		return rep, err
	}
	rep.Head = head
	files := CheckpointFiles(j.path, dirs)
	rep.None = len(files) == 0
	newest := int64(-1)
	newestAt := -1
	for _, file := range files {
		f, err := j.checkFile(ctx, file, pub, head)
		if err != nil {
			return rep, err
		}
		if f.Status == "ok" && f.Checkpoint.Seq > newest {
			newest, newestAt = f.Checkpoint.Seq, len(rep.Findings)
		}
		rep.Findings = append(rep.Findings, f)
	}
	if newestAt >= 0 && newest < head {
		f := &rep.Findings[newestAt]
		f.Status = "newer"
		f.Message = fmt.Sprintf("the journal holds %d entries newer than the newest checkpoint (from %s, entry %d): allowed (written by a process without checkpoints, or its checkpoint could not be written)",
			head-newest, f.Checkpoint.Time.Format("2006-01-02 15:04:05 UTC"), newest)
	}
	return rep, nil
}

// CheckLatestCheckpoint compares the database with its newest checkpoint
// only — <name>.checkpoint beside it and in dirs, not the files set
// aside — verified with pub: a read of each file, a signature check and
// one query, cheap enough for every command that opens the journal. It
// returns the findings that failed (nil: they match, or there are none
// yet); VerifyCheckpoints is the whole check.
func (j *Journal) CheckLatestCheckpoint(ctx context.Context, pub ed25519.PublicKey, dirs []string) ([]CheckpointFinding, error) {
	var failed []CheckpointFinding
	head := int64(-1)
	for _, file := range checkpointPaths(j.path, dirs) {
		if _, err := os.Stat(file); err != nil {
			continue
		}
		if head < 0 {
			_, h, err := j.Head(ctx)
			if err != nil {
				return nil, err
			}
			head = h
		}
		f, err := j.checkFile(ctx, file, pub, head)
		if err != nil {
			return nil, err
		}
		if f.Failed() {
			failed = append(failed, f)
		}
	}
	return failed, nil
}

// checkFile is the finding of one checkpoint file.
func (j *Journal) checkFile(ctx context.Context, file string, pub ed25519.PublicKey, head int64) (CheckpointFinding, error) {
	f := CheckpointFinding{File: file}
	c, err := readCheckpoint(file)
	if err == nil {
		err = verifyCheckpoint(c, pub)
	}
	if err != nil {
		if os.IsNotExist(err) {
			err = fmt.Errorf("it disappeared while being read")
		}
		f.Status, f.Message = "unverifiable", fmt.Sprintf("checkpoint %s does not verify: %v; it was not written by this journal's key: someone forged or changed it, or the key was replaced (docs/journal.md#checkpoints)", file, err)
		return f, nil
	}
	f.Checkpoint = &c
	when := c.Time.Format("2006-01-02 15:04:05 UTC")
	held, err := j.entryHash(ctx, c.Seq)
	if err != nil {
		return f, err
	}
	switch {
	case held == c.Hash:
		f.Status, f.Message = "ok", fmt.Sprintf("checkpoint from %s (entry %d) matches", when, c.Seq)
	case c.Seq > head:
		f.Status, f.Message = "truncated", fmt.Sprintf("the journal ends at entry %d but a checkpoint from %s saw entry %d (%s): entries were removed since (truncation, or a restored older copy)", head, when, c.Seq, file)
	default:
		f.Status, f.Message = "replaced", fmt.Sprintf("the journal's entry %d is not the one a checkpoint from %s saw (%s): this file is a rewritten or replaced journal (a restored older copy written to since?)", c.Seq, when, file)
	}
	return f, nil
}
