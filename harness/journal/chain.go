package journal

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// The hash chain (docs/journal.md#hash-chain-and-verify: tampering
// with a journaled row is detectable).
//
// Every insert into or update of a chained table appends, in the same
// transaction, one entry to table chain:
//
//	seq            1, 2, 3, ... with no gaps
//	kind, ref      the table and the row's key
//	payload_digest hex SHA-256 of the row's canonical payload
//	prev_hash      the previous entry's hash (64 zeros for seq 1)
//	hash           hex SHA-256 of prev_hash + ":" + payload_digest
//
// The canonical payload is the RFC 8785 (JCS) form of
// {"table": kind, "row": {column: value}} built from the row as stored
// (returned by the INSERT or UPDATE itself with RETURNING *, or read back
// inside the transaction), with NULL columns left out (so a nullable
// column added by a later migration does not change old rows' payloads);
// canon.go writes it. A status change appends a new entry whose payload is the new
// row state, so the newest entry of each row must match the row now.
//
// The chain hashes the payload through its digest, so it needs no second
// copy of results and messages. Its limit: someone able to rewrite the file
// can recompute the whole chain after a change. Compare Head() with a value
// kept elsewhere to detect that.

// chainedTables lists the tables under the chain and their key column;
// rowid is true where the key is an INTEGER PRIMARY KEY (Verify orders
// those keys as numbers).
var chainedTables = []struct {
	name, key string
	rowid     bool
}{
	{"sessions", "id", false},
	{"turns", "id", false},
	{"messages", "id", true},
	{"invocations", "id", false},
	{"approvals", "id", true},
	{"user_policies", "id", true},
	{"warnings", "id", true},
	{"session_labels", "id", true},
	{"elicitations", "id", true},
	{"inbox", "id", false},
	{"schedules", "id", false},
	{"schedule_runs", "id", true},
	{"model_usage", "id", true},
}

const genesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

func linkHash(prev, payloadDigest string) string {
	sum := sha256.Sum256([]byte(prev + ":" + payloadDigest))
	return hex.EncodeToString(sum[:])
}

// link is one chain entry to append: a table, the row's key and the
// digest of the row's payload.
type link struct{ table, ref, digest string }

// linkOf is the link of a row whose payload the caller holds.
func linkOf(table, ref string, p rowPayload) link {
	return link{table, ref, payloadDigest(table, p)}
}

// chainRow appends the current state of table's row ref to the chain,
// reading the row back. Hot paths use RETURNING * and appendChain instead.
func (j *Journal) chainRow(ctx context.Context, tx *sql.Tx, table string, ref any) error {
	refText := fmt.Sprint(ref)
	rows, err := tx.QueryContext(ctx, `SELECT * FROM `+table+` WHERE `+keyOf(table)+` = ?`, ref)
	if err != nil {
		return fmt.Errorf("journal: chain %s %s: %w", table, refText, err)
	}
	l, err := returnedLink(table, rows)
	if err != nil {
		return fmt.Errorf("journal: chain %s %s: %w", table, refText, err)
	}
	return j.appendChain(ctx, tx, l)
}

// returnedRow reads the one row of rows (a SELECT * or RETURNING * of
// table) and closes rows. It returns errNoRow when there is none.
func returnedRow(table string, rows *sql.Rows) (ref string, p rowPayload, err error) {
	defer rows.Close()
	r, err := newRowReader(table, rows)
	if err != nil {
		return "", nil, err
	}
	if !rows.Next() {
		if err := rows.Err(); err != nil {
			return "", nil, err
		}
		return "", nil, errNoRow
	}
	if ref, p, err = r.next(rows); err != nil {
		return "", nil, err
	}
	for rows.Next() {
	}
	return ref, p, rows.Close()
}

func returnedLink(table string, rows *sql.Rows) (link, error) {
	ref, p, err := returnedRow(table, rows)
	if err != nil {
		return link{}, err
	}
	return linkOf(table, ref, p), nil
}

var errNoRow = errors.New("row not found")

const sqlChainHead = `SELECT seq, hash FROM chain ORDER BY seq DESC LIMIT 1`

// sqlChainInsert inserts n chain entries in one statement.
func sqlChainInsert(n int) string {
	q := `INSERT INTO chain(seq, kind, ref, payload_digest, prev_hash, hash, created_at) VALUES (?,?,?,?,?,?,?)`
	return q + strings.Repeat(`,(?,?,?,?,?,?,?)`, n-1)
}

// maxLinksPerInsert bounds the entries one chain INSERT carries (the call
// path appends at most 3 at once).
const maxLinksPerInsert = 4

// appendChain appends links, in order, after the current head: one read of
// the head and one insert for up to four links, on prepared statements.
func (j *Journal) appendChain(ctx context.Context, tx *sql.Tx, links ...link) error {
	head, err := j.stmt(ctx, tx, sqlChainHead)
	if err != nil {
		return err
	}
	var seq int64
	prev := genesisHash
	err = head.QueryRowContext(ctx).Scan(&seq, &prev)
	if err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("journal: chain head: %w", err)
	}
	now := j.stamp()
	for len(links) > 0 {
		n := min(len(links), maxLinksPerInsert)
		ins, err := j.stmt(ctx, tx, sqlChainInsert(n))
		if err != nil {
			return err
		}
		args := make([]any, 0, 7*n)
		for _, l := range links[:n] {
			seq++
			h := linkHash(prev, l.digest)
			args = append(args, seq, l.table, l.ref, l.digest, prev, h, now)
			prev = h
		}
		if _, err := ins.ExecContext(ctx, args...); err != nil {
			return fmt.Errorf("journal: append chain entry for %s %s: %w", links[0].table, links[0].ref, err)
		}
		links = links[n:]
	}
	return nil
}

func keyOf(table string) string {
	key, ok := chainedKey(table)
	if !ok {
		panic("journal: table not chained: " + table)
	}
	return key
}

// chainedKey is the key column of a chained table; false for any other
// name (a chain entry written outside the journal may name anything).
func chainedKey(table string) (string, bool) {
	for _, t := range chainedTables {
		if t.name == table {
			return t.key, true
		}
	}
	return "", false
}

// chainEntry is one row of table chain.
type chainEntry struct {
	seq                           int64
	kind, ref, digest, prev, hash string
}

// sqlChainEntries selects chain entries as scanEntry reads them.
const sqlChainEntries = `SELECT seq, kind, ref, payload_digest, prev_hash, hash FROM chain`

func scanEntry(rows *sql.Rows) (chainEntry, error) {
	var e chainEntry
	err := rows.Scan(&e.seq, &e.kind, &e.ref, &e.digest, &e.prev, &e.hash)
	return e, err
}

// linkReason says why e does not link to the entry before it, whose seq
// is want-1 and whose hash is prev: a Reason constant, "" when it links.
func linkReason(e chainEntry, want int64, prev string) string {
	switch {
	case e.seq != want:
		return ReasonLinkMissing
	case e.prev != prev:
		return ReasonPrevMismatch
	case linkHash(e.prev, e.digest) != e.hash:
		return ReasonHashMismatch
	}
	return ""
}

// rowDigests reads rows (a SELECT * of table) and returns, for each row's
// key as text, the hex SHA-256 of its canonical payload. It closes rows.
func rowDigests(table string, rows *sql.Rows) (map[string]string, error) {
	defer rows.Close()
	r, err := newRowReader(table, rows)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for rows.Next() {
		ref, p, err := r.next(rows)
		if err != nil {
			return nil, err
		}
		out[ref] = payloadDigest(table, p)
	}
	return out, rows.Err()
}

// Head returns the hash of the newest chain entry and its seq (genesis and
// 0 for an empty journal). Keeping a copy elsewhere lets a later Verify
// detect a rewritten or truncated chain.
func (j *Journal) Head(ctx context.Context) (hash string, seq int64, err error) {
	err = j.db.QueryRowContext(ctx, `SELECT seq, hash FROM chain ORDER BY seq DESC LIMIT 1`).Scan(&seq, &hash)
	if err == sql.ErrNoRows {
		return genesisHash, 0, nil
	}
	if err != nil {
		return "", 0, fmt.Errorf("journal: chain head: %w", err)
	}
	return hash, seq, nil
}

// chainKey joins a table and a row key for maps.
func chainKey(table, ref string) string { return table + "\x00" + ref }
