package journal

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/gowebpki/jcs"
)

// The hash chain (SPEC §8: "journal rows are hash-chained so that tampering
// is detectable").
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
// {"table": kind, "row": {column: value}} built from the row as stored,
// read back inside the transaction, with NULL columns left out (so a
// nullable column added by a later migration does not change old rows'
// payloads). A status change appends a new entry whose payload is the new
// row state, so the newest entry of each row must match the row now.
//
// The chain hashes the payload through its digest, so it needs no second
// copy of results and messages. Its limit: someone able to rewrite the file
// can recompute the whole chain after a change. Compare Head() with a value
// kept elsewhere to detect that.

// chainedTables lists the tables under the chain and their key column.
var chainedTables = []struct{ name, key string }{
	{"sessions", "id"},
	{"turns", "id"},
	{"messages", "id"},
	{"invocations", "id"},
	{"approvals", "id"},
	{"user_policies", "id"},
	{"warnings", "id"},
}

const genesisHash = "0000000000000000000000000000000000000000000000000000000000000000"

func linkHash(prev, payloadDigest string) string {
	sum := sha256.Sum256([]byte(prev + ":" + payloadDigest))
	return hex.EncodeToString(sum[:])
}

// chainRow appends the current state of table's row ref to the chain.
func (j *Journal) chainRow(ctx context.Context, tx *sql.Tx, table string, ref any) error {
	refText := fmt.Sprint(ref)
	rows, err := tx.QueryContext(ctx, `SELECT * FROM `+table+` WHERE `+keyOf(table)+` = ?`, ref)
	if err != nil {
		return fmt.Errorf("journal: chain %s %s: %w", table, refText, err)
	}
	payloads, err := rowDigests(table, rows)
	if err != nil {
		return fmt.Errorf("journal: chain %s %s: %w", table, refText, err)
	}
	digest, ok := payloads[refText]
	if !ok {
		return fmt.Errorf("journal: chain %s %s: row not found", table, refText)
	}
	var seq int64
	prev := genesisHash
	err = tx.QueryRowContext(ctx, `SELECT seq, hash FROM chain ORDER BY seq DESC LIMIT 1`).Scan(&seq, &prev)
	if err != nil && err != sql.ErrNoRows {
		return fmt.Errorf("journal: chain head: %w", err)
	}
	_, err = tx.ExecContext(ctx,
		`INSERT INTO chain(seq, kind, ref, payload_digest, prev_hash, hash, created_at) VALUES (?,?,?,?,?,?,?)`,
		seq+1, table, refText, digest, prev, linkHash(prev, digest), j.stamp())
	if err != nil {
		return fmt.Errorf("journal: append chain entry for %s %s: %w", table, refText, err)
	}
	return nil
}

func keyOf(table string) string {
	for _, t := range chainedTables {
		if t.name == table {
			return t.key
		}
	}
	panic("journal: table not chained: " + table)
}

// rowDigests reads rows (a SELECT * of table) and returns, for each row's
// key as text, the hex SHA-256 of its canonical payload. It closes rows.
func rowDigests(table string, rows *sql.Rows) (map[string]string, error) {
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	key := keyOf(table)
	out := map[string]string{}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		row := make(map[string]any, len(cols))
		var ref string
		for i, c := range cols {
			v, err := payloadValue(vals[i])
			if err != nil {
				return nil, fmt.Errorf("column %s: %w", c, err)
			}
			if c == key {
				ref = fmt.Sprint(v)
			}
			if v != nil {
				row[c] = v
			}
		}
		digest, err := payloadDigest(table, row)
		if err != nil {
			return nil, err
		}
		out[ref] = digest
	}
	return out, rows.Err()
}

// payloadValue maps a scanned SQLite value to a JSON value. Integers are
// written as decimal strings so that values beyond 2^53 stay exact under
// RFC 8785 number rules; blobs as base64.
func payloadValue(v any) (any, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case int64:
		return strconv.FormatInt(x, 10), nil
	case string:
		return x, nil
	case []byte:
		return "base64:" + base64.StdEncoding.EncodeToString(x), nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), nil
	default:
		return nil, fmt.Errorf("unexpected SQLite value of type %T", v)
	}
}

func payloadDigest(table string, row map[string]any) (string, error) {
	raw, err := json.Marshal(map[string]any{"table": table, "row": row})
	if err != nil {
		return "", err
	}
	canon, err := jcs.Transform(raw)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
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

func splitChainKey(k string) (table, ref string) {
	table, ref, _ = strings.Cut(k, "\x00")
	return table, ref
}
