package journal

import (
	"context"
	"database/sql"
	"fmt"
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

type chainEntry struct {
	seq                           int64
	kind, ref, digest, prev, hash string
}

// Verify recomputes the chain from the rows as they are now, in one read
// snapshot: each entry must link to the one before (no gap in seq, prev
// hash equal, hash recomputed), the newest entry of each row must match the
// row's canonical payload, and every row must have an entry. Tampering is
// reported in the VerifyReport (first break by seq, then up to 100); the
// error is only for failing to read. Cost: one pass over every chained row.
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

	if rep.Integrity, err = integrityCheck(ctx, conn); err != nil {
		return rep, fmt.Errorf("journal: verify: integrity_check: %w", err)
	}
	entries, err := readChain(ctx, conn)
	if err != nil {
		if len(rep.Integrity) > 0 { // the damage is what stopped the read: report it
			return rep, nil
		}
		return rep, err
	}
	current := map[string]string{}
	for _, t := range chainedTables {
		rows, err := conn.QueryContext(ctx, `SELECT * FROM `+t.name)
		var digests map[string]string
		if err == nil {
			digests, err = rowDigests(t.name, rows)
		}
		if err != nil {
			if len(rep.Integrity) > 0 { // the damage is what stopped the read: report it
				return rep, nil
			}
			return rep, fmt.Errorf("journal: verify: read %s: %w", t.name, err)
		}
		for ref, d := range digests {
			current[chainKey(t.name, ref)] = d
		}
		rep.Rows += int64(len(digests))
	}

	latest := map[string]int64{}
	for _, e := range entries {
		latest[chainKey(e.kind, e.ref)] = e.seq
	}
	add := func(b Break) {
		if len(rep.Breaks) < maxBreaks {
			rep.Breaks = append(rep.Breaks, b)
		}
	}
	prev, want := genesisHash, int64(1)
	for _, e := range entries {
		k := chainKey(e.kind, e.ref)
		br := Break{Seq: e.seq, Table: e.kind, RowID: e.ref}
		switch {
		case e.seq != want:
			br.Reason = ReasonLinkMissing
		case e.prev != prev:
			br.Reason = ReasonPrevMismatch
		case linkHash(e.prev, e.digest) != e.hash:
			br.Reason = ReasonHashMismatch
		case latest[k] == e.seq:
			if d, ok := current[k]; !ok {
				br.Reason = ReasonRowDeleted
			} else if d != e.digest {
				br.Reason = ReasonRowChanged
			}
		}
		if br.Reason != "" {
			add(br)
		}
		prev, want = e.hash, e.seq+1
	}
	for _, t := range chainedTables { // stable order for rows outside the chain
		for k := range current {
			if table, ref := splitChainKey(k); table == t.name {
				if _, ok := latest[k]; !ok {
					add(Break{Table: table, RowID: ref, Reason: ReasonRowUnchained})
				}
			}
		}
	}
	rep.Entries, rep.Head = int64(len(entries)), prev
	rep.OK = len(rep.Breaks) == 0 && len(rep.Integrity) == 0
	if !rep.OK {
		rep.First = &rep.Breaks[0]
	}
	return rep, nil
}

func readChain(ctx context.Context, conn *sql.Conn) ([]chainEntry, error) {
	rows, err := conn.QueryContext(ctx, `SELECT seq, kind, ref, payload_digest, prev_hash, hash FROM chain ORDER BY seq`)
	if err != nil {
		return nil, fmt.Errorf("journal: verify: read chain: %w", err)
	}
	defer rows.Close()
	var out []chainEntry
	for rows.Next() {
		var e chainEntry
		if err := rows.Scan(&e.seq, &e.kind, &e.ref, &e.digest, &e.prev, &e.hash); err != nil {
			return nil, fmt.Errorf("journal: verify: read chain: %w", err)
		}
		out = append(out, e)
	}
	return out, rows.Err()
}

// integrityCheck runs PRAGMA integrity_check(100) on conn: nil when SQLite
// answers "ok", else its lines. The error is for failing to run it.
func integrityCheck(ctx context.Context, conn *sql.Conn) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `PRAGMA integrity_check(100)`)
	if err != nil {
		if isCorrupt(err) {
			return []string{err.Error()}, nil
		}
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		if line != "ok" {
			out = append(out, line)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return append(out, err.Error()), nil
		}
		return nil, err
	}
	return out, nil
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
