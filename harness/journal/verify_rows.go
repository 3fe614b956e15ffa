package journal

import (
	"cmp"
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// The second pass of Verify: the newest chain entry of each row against the
// row, and every row against the chain, without holding either in memory.
//
// sqlNewestEntries lists the newest entry of every (table, key) in the
// chain, sorted as checkRows reads each table: by table, then by key as a
// number for tables keyed by rowid (CAST(ref AS INTEGER), then the text, so
// that "02" is not taken for row 2) and by key as text (BINARY, byte
// order, as Go compares strings) for the others. The chain has no index by
// key (it would cost a page write on every commit of the call path), so
// SQLite sorts: its sorter spills to temporary files past the page cache's
// size. The bare payload_digest column comes from the row holding max(seq).
func sqlNewestEntries() string {
	var rowid []string
	for _, t := range chainedTables {
		if t.rowid {
			rowid = append(rowid, "'"+t.name+"'")
		}
	}
	return `SELECT CAST(kind AS TEXT) AS k,
		CASE WHEN CAST(kind AS TEXT) IN (` + strings.Join(rowid, ",") + `) THEN CAST(ref AS INTEGER) END AS n,
		CAST(ref AS TEXT) AS r, max(seq), payload_digest
		FROM chain GROUP BY k, n, r ORDER BY k, n, r`
}

// entryKey is a row key in the order of sqlNewestEntries: n (rowid tables
// only), then the key as text.
type entryKey struct {
	n   int64
	ref string
}

func (a entryKey) compare(b entryKey) int {
	return cmp.Or(cmp.Compare(a.n, b.n), strings.Compare(a.ref, b.ref))
}

// checkRows merges the newest chain entry of each row with the tables, read
// in key order, and records in b each changed row (its digest differs),
// deleted row (an entry and no row; so is every entry naming a table the
// chain does not cover) and row outside the chain (a row and no entry). It
// returns the number of rows read.
func checkRows(ctx context.Context, conn *sql.Conn, b *breaks) (rows int64, err error) {
	entries, err := conn.QueryContext(ctx, sqlNewestEntries())
	if err != nil {
		return 0, fmt.Errorf("journal: verify: read chain: %w", err)
	}
	defer entries.Close()
	opened := map[string]bool{}
	var t *tableReader       // the table of the current entries, nil for one not chained
	finish := func() error { // the rest of t's rows have no entry
		if t == nil {
			return nil
		}
		err := t.drain(b)
		rows += t.count
		t.close()
		t = nil
		return err
	}
	defer func() { t.close() }()
	var kind, digest string
	var n sql.NullInt64
	var e entryKey
	var seq int64
	for entries.Next() {
		if err := entries.Scan(&kind, &n, &e.ref, &seq, &digest); err != nil {
			return rows, fmt.Errorf("journal: verify: read chain: %w", err)
		}
		e.n = n.Int64
		if (t == nil || t.table != kind) && !opened[kind] {
			if err := finish(); err != nil {
				return rows, err
			}
			opened[kind] = true
			if _, ok := chainedKey(kind); ok {
				if t, err = openTable(ctx, conn, kind, b); err != nil {
					return rows, err
				}
			}
		}
		found, changed := false, false
		if t != nil && t.table == kind {
			if found, changed, err = t.match(e, digest, b); err != nil {
				return rows, err
			}
		}
		switch {
		case !found:
			b.row(Break{Seq: seq, Table: kind, RowID: e.ref, Reason: ReasonRowDeleted})
		case changed:
			b.row(Break{Seq: seq, Table: kind, RowID: e.ref, Reason: ReasonRowChanged})
		}
	}
	if err := entries.Err(); err != nil {
		return rows, fmt.Errorf("journal: verify: read chain: %w", err)
	}
	if err := finish(); err != nil {
		return rows, err
	}
	for _, ct := range chainedTables { // tables without a single entry
		if !opened[ct.name] {
			var n int // a file below the version that added the table (a test's migrate to N)
			if err := conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?`, ct.name).Scan(&n); err != nil {
				return rows, fmt.Errorf("journal: verify: read %s: %w", ct.name, err)
			}
			if n == 0 {
				continue
			}
			if t, err = openTable(ctx, conn, ct.name, b); err != nil {
				return rows, err
			}
			if err := finish(); err != nil {
				return rows, err
			}
		}
	}
	return rows, nil
}

// tableReader reads one chained table in key order, one row ahead.
type tableReader struct {
	table string
	rowid bool
	rows  *sql.Rows
	r     *rowReader
	has   bool       // there is a current row
	key   entryKey   // its key
	p     rowPayload // its payload
	read  bool       // a row was read before the current one
	count int64      // rows read
}

// openTable starts reading table and reads its first row.
func openTable(ctx context.Context, conn *sql.Conn, table string, b *breaks) (*tableReader, error) {
	t := &tableReader{table: table}
	for _, ct := range chainedTables {
		if ct.name == table {
			t.rowid = ct.rowid
		}
	}
	var err error
	t.rows, err = conn.QueryContext(ctx, `SELECT * FROM `+table+` ORDER BY `+keyOf(table))
	if err != nil {
		return nil, fmt.Errorf("journal: verify: read %s: %w", table, err)
	}
	if t.r, err = newRowReader(table, t.rows); err != nil {
		t.close()
		return nil, fmt.Errorf("journal: verify: read %s: %w", table, err)
	}
	if err := t.next(b); err != nil {
		t.close()
		return nil, err
	}
	return t, nil
}

// next moves to the next row whose key is above the one before. A key
// that is not (a NULL or a BLOB where a text key belongs, or a repeat: a
// row only a hand edit can write) cannot be merged; that row is recorded
// as outside the chain.
func (t *tableReader) next(b *breaks) error {
	for {
		prev, hadPrev := t.key, t.read
		if t.has = t.rows.Next(); !t.has {
			if err := t.rows.Err(); err != nil {
				return fmt.Errorf("journal: verify: read %s: %w", t.table, err)
			}
			return nil
		}
		ref, p, err := t.r.next(t.rows)
		if err != nil {
			return fmt.Errorf("journal: verify: read %s: %w", t.table, err)
		}
		t.count++
		t.key, t.p, t.read = entryKey{ref: ref}, p, true
		if t.rowid {
			t.key.n, _ = strconv.ParseInt(ref, 10, 64) // an INTEGER PRIMARY KEY is an int64
		}
		if !hadPrev || t.key.compare(prev) > 0 {
			return nil
		}
		b.unchained(Break{Table: t.table, RowID: ref, Reason: ReasonRowUnchained})
	}
}

// match moves past the rows before key e (each outside the chain) and
// reports whether a row has key e and, if so, whether its digest differs
// from digest; it then moves past that row too.
func (t *tableReader) match(e entryKey, digest string, b *breaks) (found, changed bool, err error) {
	for t.has && t.key.compare(e) < 0 {
		b.unchained(Break{Table: t.table, RowID: t.key.ref, Reason: ReasonRowUnchained})
		if err := t.next(b); err != nil {
			return false, false, err
		}
	}
	if !t.has || t.key.compare(e) != 0 {
		return false, false, nil
	}
	changed = payloadDigest(t.table, t.p) != digest
	return true, changed, t.next(b)
}

// drain records every row left as outside the chain.
func (t *tableReader) drain(b *breaks) error {
	for t.has {
		b.unchained(Break{Table: t.table, RowID: t.key.ref, Reason: ReasonRowUnchained})
		if err := t.next(b); err != nil {
			return err
		}
	}
	return nil
}

func (t *tableReader) close() {
	if t != nil && t.rows != nil {
		t.rows.Close()
	}
}

// breaks collects what Verify reports, in bounded memory: the first
// maxBreaks link breaks (in seq order, as the chain is read), the
// maxBreaks row breaks with the lowest seq, and up to maxBreaks rows
// outside the chain per table.
type breaks struct {
	links    []Break
	linksCut bool // there were more link breaks than maxBreaks
	rows     []Break
	outside  map[string][]Break
}

func (b *breaks) link(br Break) {
	if len(b.links) < maxBreaks {
		b.links = append(b.links, br)
	} else {
		b.linksCut = true
	}
}

// row records a changed or deleted row at its newest entry br.Seq, unless
// that entry already broke a link (one reason per entry, links first) or
// maxBreaks link breaks come before it.
func (b *breaks) row(br Break) {
	if b.linksCut && br.Seq > b.links[len(b.links)-1].Seq {
		return
	}
	if _, found := slices.BinarySearchFunc(b.links, br.Seq, func(l Break, seq int64) int { return cmp.Compare(l.Seq, seq) }); found {
		return
	}
	b.rows = append(b.rows, br)
	if len(b.rows) >= 4*maxBreaks {
		sortBySeq(b.rows)
		b.rows = b.rows[:maxBreaks]
	}
}

func (b *breaks) unchained(br Break) {
	if b.outside == nil {
		b.outside = map[string][]Break{}
	}
	if len(b.outside[br.Table]) < maxBreaks {
		b.outside[br.Table] = append(b.outside[br.Table], br)
	}
}

// list is the report's Breaks: link and row breaks by seq, then rows
// outside the chain by table (in chainedTables order) and key, at most
// maxBreaks in all; nil for none.
func (b *breaks) list() []Break {
	out := append(slices.Clone(b.links), b.rows...)
	sortBySeq(out)
	out = out[:min(len(out), maxBreaks)]
	for _, t := range chainedTables {
		for _, br := range b.outside[t.name] {
			if len(out) == maxBreaks {
				break
			}
			out = append(out, br)
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func sortBySeq(bs []Break) {
	slices.SortFunc(bs, func(a, b Break) int { return cmp.Compare(a.Seq, b.Seq) })
}
