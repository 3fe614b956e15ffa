package journal

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// Reasons a Break gives.
const (
	ReasonRowChanged   = "row changed after it was written"
	ReasonRowDeleted   = "row deleted after it was written"
	ReasonRowUnchained = "row not in the chain (written outside the journal)"
	ReasonLinkMissing  = "link missing"
	ReasonPrevMismatch = "prev hash mismatch"
	ReasonHashMismatch = "entry hash mismatch (chain entry changed)"
)

// maxBreaks bounds VerifyReport.Breaks.
const maxBreaks = 100

// Break is one place where the journal does not match its chain.
type Break struct {
	Seq    int64  `json:"seq"` // chain entry; 0 for a row with no entry at all
	Table  string `json:"table"`
	RowID  string `json:"row_id"`
	Reason string `json:"reason"` // one of the Reason constants
}

func (b Break) String() string {
	if b.Seq == 0 {
		return fmt.Sprintf("%s row %s: %s", b.Table, b.RowID, b.Reason)
	}
	return fmt.Sprintf("chain entry %d (%s row %s): %s", b.Seq, b.Table, b.RowID, b.Reason)
}

// VerifyReport is the result of Verify.
type VerifyReport struct {
	OK      bool    `json:"ok"`
	Entries int64   `json:"entries"` // chain entries checked
	Rows    int64   `json:"rows"`    // table rows checked
	Head    string  `json:"head"`    // hash of the last entry
	First   *Break  `json:"first,omitempty"`
	Breaks  []Break `json:"breaks,omitempty"` // in chain order, at most 100; First == &Breaks[0]
	// Integrity holds what SQLite's PRAGMA integrity_check found wrong
	// with the file itself (a damaged page, a broken index), at most 100
	// lines; empty when the file is sound. A damaged file is not OK even
	// when its chain still verifies (docs/journal.md#verify).
	Integrity []string `json:"integrity,omitempty"`
}

// Verify recomputes the chain from the rows as they are now, in one read
// snapshot: each entry must link to the one before (no gap in seq, prev
// hash equal, hash recomputed), the newest entry of each row must match the
// row's canonical payload, and every row must have an entry. Tampering is
// reported in the VerifyReport (first break by seq, then up to 100; rows
// outside the chain come last, by table and key); the error is only for
// failing to read.
//
// It streams (docs/journal.md#scale): one pass over the chain in seq
// order for the links, then one over the newest entry of each row, sorted
// by table and key (SQLite's sorter, which spills to temporary files),
// merged with each table read in key order. Its memory does not grow with
// the journal: it holds a few hundred breaks at most, never the chain or
// the rows.
func (j *Journal) Verify(ctx context.Context) (VerifyReport, error) {
	var rep VerifyReport
	conn, err := j.db.Conn(ctx)
	if err != nil {
		return rep, fmt.Errorf("journal: verify: %w", err)
	}
	defer conn.Close()
	// A deferred (read) transaction gives one snapshot without taking the
	// write lock that the connection's BEGIN IMMEDIATE would.
	if _, err := conn.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		return rep, fmt.Errorf("journal: verify: %w", err)
	}
	defer conn.ExecContext(context.Background(), `ROLLBACK`)

	if rep.Integrity, err = pragmaCheck(ctx, conn, "integrity_check"); err != nil {
		return rep, fmt.Errorf("journal: verify: integrity_check: %w", err)
	}
	var b breaks
	rep.Entries, rep.Head, err = checkLinks(ctx, conn, &b)
	if err == nil {
		rep.Rows, err = checkRows(ctx, conn, &b)
	}
	if err != nil {
		if len(rep.Integrity) > 0 { // the damage is what stopped the read: report it
			j.degrade(ProblemDamaged, rep.Integrity)
			return rep, nil
		}
		return rep, err
	}
	rep.Breaks = b.list()
	rep.OK = len(rep.Breaks) == 0 && len(rep.Integrity) == 0
	if len(rep.Breaks) > 0 {
		rep.First = &rep.Breaks[0]
	}
	// What Verify finds is what the journal is (docs/journal.md#degraded):
	// it checks all that the checks at open do, so a sound report also
	// clears a state an earlier check left (a file restored in place).
	switch {
	case rep.OK:
		if h := j.health.Load(); h != nil && h.Problem != ProblemNotDurable {
			j.health.CompareAndSwap(h, nil)
		}
		os.Remove(markerPath(j.path))
	case len(rep.Integrity) > 0:
		j.degrade(ProblemDamaged, rep.Integrity)
	case len(rep.Breaks) > 0:
		j.degrade(ProblemChainBroken, breakLines(rep.Breaks))
	}
	return rep, nil
}

// checkLinks reads the chain in seq order and records in b every entry
// that does not link to the one before. It returns the number of entries
// and the hash of the last one (genesis for none).
func checkLinks(ctx context.Context, conn *sql.Conn, b *breaks) (entries int64, head string, err error) {
	rows, err := conn.QueryContext(ctx, sqlChainEntries+` ORDER BY seq`)
	if err != nil {
		return 0, "", fmt.Errorf("journal: verify: read chain: %w", err)
	}
	defer rows.Close()
	prev, want := genesisHash, int64(1)
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return 0, "", fmt.Errorf("journal: verify: read chain: %w", err)
		}
		if reason := linkReason(e, want, prev); reason != "" {
			b.link(Break{Seq: e.seq, Table: e.kind, RowID: e.ref, Reason: reason})
		}
		prev, want = e.hash, e.seq+1
		entries++
	}
	if err := rows.Err(); err != nil {
		return 0, "", fmt.Errorf("journal: verify: read chain: %w", err)
	}
	return entries, prev, nil
}

// isCorrupt reports whether err is SQLite's "database disk image is
// malformed" (SQLITE_CORRUPT), "file is not a database" (SQLITE_NOTADB)
// or "unsupported file format" (a header whose schema format is damaged).
// It reads the message: go-sqlite3's typed errors do not exist in a
// cgo-free build, which the cgo-free packages that import this one vet.
func isCorrupt(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "database disk image is malformed") || strings.Contains(msg, "file is not a database") ||
		strings.Contains(msg, "unsupported file format") // a damaged header: the schema format number
}
