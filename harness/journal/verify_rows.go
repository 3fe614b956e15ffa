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
	m := &rowMerge{ctx: ctx, conn: conn, b: b, opened: map[string]bool{}}
	defer func() { m.t.close() }()
	var kind, digest string
	var n sql.NullInt64
	var e entryKey
	var seq int64
	for entries.Next() {
		if err := entries.Scan(&kind, &n, &e.ref, &seq, &digest); err != nil {
			return m.rows, fmt.Errorf("journal: verify: read chain: %w", err)
		}
		e.n = n.Int64
		if err := m.entry(kind, e, seq, digest); err != nil {
			return m.rows, err
		}
	}
	if err := entries.Err(); err != nil {
		return m.rows, fmt.Errorf("journal: verify: read chain: %w", err)
	}
	if err := m.finish(); err != nil {
		return m.rows, err
	}
	err = m.unentered()
	return m.rows, err
}

// rowMerge is the state of checkRows's merge: the table being read and the
// tables already opened.
type rowMerge struct {
	ctx    context.Context
	conn   *sql.Conn
	b      *breaks
	opened map[string]bool
	t      *tableReader // the table of the current entries, nil for one not chained
	rows   int64        // rows read so far
}

// entry merges one chain entry: it moves to the entry's table if it is new
// and records the entry's row as deleted or changed.
func (m *rowMerge) entry(kind string, e entryKey, seq int64, digest string) error {
	if (m.t == nil || m.t.table != kind) && !m.opened[kind] {
		if err := m.open(kind); err != nil {
			return err
		}
	}
	found, changed := false, false
	if m.t != nil && m.t.table == kind {
		var err error
		if found, changed, err = m.t.match(e, digest, m.b); err != nil {
			return err
		}
	}
	switch {
	case !found:
		m.b.row(Break{Seq: seq, Table: kind, RowID: e.ref, Reason: ReasonRowDeleted})
	case changed:
		m.b.row(Break{Seq: seq, Table: kind, RowID: e.ref, Reason: ReasonRowChanged})
	}
	return nil
}

// open finishes the current table and starts reading kind, if the chain
// covers it.
func (m *rowMerge) open(kind string) error {
	if err := m.finish(); err != nil {
		return err
	}
	m.opened[kind] = true
	if _, ok := chainedKey(kind); !ok {
		return nil
	}
	var err error
	m.t, err = openTable(m.ctx, m.conn, kind, m.b)
	return err
}

// finish records the rest of the current table's rows as having no entry
// and closes it.
func (m *rowMerge) finish() error {
	if m.t == nil {
		return nil
	}
	err := m.t.drain(m.b)
	m.rows += m.t.count
	m.t.close()
	m.t = nil
	return err
}

// unentered reads the chained tables without a single entry: each of their
// rows is outside the chain.
func (m *rowMerge) unentered() error {
	for _, ct := range chainedTables {
		if m.opened[ct.name] {
			continue
		}
		var n int // a file below the version that added the table (a test's migrate to N)
		if err := m.conn.QueryRowContext(m.ctx, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?`, ct.name).Scan(&n); err != nil {
			return fmt.Errorf("journal: verify: read %s: %w", ct.name, err)
		}
		if n == 0 {
			continue
		}
		var err error
		if m.t, err = openTable(m.ctx, m.conn, ct.name, m.b); err != nil {
			return err
		}
		if err := m.finish(); err != nil {
			return err
		}
	}
	return nil
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
