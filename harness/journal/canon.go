package journal

import (
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// The chain's payload of a row is the RFC 8785 (JCS) canonical JSON of
//
//	{"table": <table>, "row": {<column>: <value as a string>, ...}}
//
// with NULL columns left out (see chain.go). Every value is a JSON string,
// so the canonical form is fixed by two rules of RFC 8785 alone: object
// members sorted by the UTF-16 code units of their names (§3.2.3), and
// strings written as ECMAScript's JSON.stringify does (§3.2.2.2: escape
// '"', '\\', \b \f \n \r \t, other characters below U+0020 as \u00hh in
// lower-case hex, everything else as UTF-8). canonicalPayload writes that
// form directly instead of marshalling a map and running a general JCS
// canonicalizer over it (which parsed and re-serialized the whole row):
// the bytes, hence every digest, are the same as the journal has always
// written (TestCanonicalMatchesJCS checks this against
// github.com/gowebpki/jcs), so chains written before stay verifiable with
// no format version. Invalid UTF-8 is written as U+FFFD per bad byte, as
// encoding/json did before JCS saw it.

// field is one non-NULL column of a row, its value in payload form.
type field struct{ col, val string }

// rowPayload is a row's fields sorted by column name (UTF-16 order).
type rowPayload []field

// set returns p with col set to val (added if absent), for pairs of
// column and value; p itself is not changed.
func (p rowPayload) set(colVals ...string) rowPayload {
	out := slices.Clone(p)
	added := false
next:
	for k := 0; k+1 < len(colVals); k += 2 {
		for i := range out {
			if out[i].col == colVals[k] {
				out[i].val = colVals[k+1]
				continue next
			}
		}
		out, added = append(out, field{colVals[k], colVals[k+1]}), true
	}
	if added {
		sortFields(out)
	}
	return out
}

// without drops col.
func (p rowPayload) without(col string) rowPayload {
	return slices.DeleteFunc(slices.Clone(p), func(f field) bool { return f.col == col })
}

func (p rowPayload) get(col string) (string, bool) {
	for _, f := range p {
		if f.col == col {
			return f.val, true
		}
	}
	return "", false
}

func sortFields(fs []field) {
	slices.SortFunc(fs, func(a, b field) int { return compareUTF16(a.col, b.col) })
}

// compareUTF16 orders strings by their UTF-16 code units (RFC 8785
// §3.2.3). For ASCII, and for any text without supplementary characters
// next to U+E000–U+FFFF, this is byte order; the slow path handles the
// rest.
func compareUTF16(a, b string) int {
	ascii := true
	for i := 0; i < len(a) && ascii; i++ {
		ascii = a[i] < utf8.RuneSelf
	}
	for i := 0; i < len(b) && ascii; i++ {
		ascii = b[i] < utf8.RuneSelf
	}
	if ascii {
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	return slices.Compare(utf16.Encode([]rune(a)), utf16.Encode([]rune(b)))
}

// canonicalPayload appends the canonical payload of table's row to dst.
func canonicalPayload(dst []byte, table string, row rowPayload) []byte {
	dst = append(dst, `{"row":{`...)
	for i, f := range row {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendJCSString(dst, f.col)
		dst = append(dst, ':')
		dst = appendJCSString(dst, f.val)
	}
	dst = append(dst, `},"table":`...)
	dst = appendJCSString(dst, table)
	return append(dst, '}')
}

const hexDigits = "0123456789abcdef"

// appendJCSString writes s as an RFC 8785 string.
func appendJCSString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\uFFFD"...)
			i++
			start = i
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// payloadDigest is the hex SHA-256 of the canonical payload.
func payloadDigest(table string, row rowPayload) string {
	var buf [1024]byte
	sum := sha256.Sum256(canonicalPayload(buf[:0], table, row))
	return hex.EncodeToString(sum[:])
}

// payloadValue maps a scanned SQLite value to its payload string; ok is
// false for NULL. Integers are decimal strings (exact beyond 2^53), blobs
// "base64:" + standard base64, reals Go's shortest 'g' form.
func payloadValue(v any) (s string, ok bool, err error) {
	switch x := v.(type) {
	case nil:
		return "", false, nil
	case int64:
		return strconv.FormatInt(x, 10), true, nil
	case string:
		return x, true, nil
	case []byte:
		return "base64:" + base64.StdEncoding.EncodeToString(x), true, nil
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64), true, nil
	default:
		return "", false, fmt.Errorf("unexpected SQLite value of type %T", v)
	}
}

// rowReader turns the rows of a SELECT * (or RETURNING *) of a chained
// table into (key, payload) pairs.
type rowReader struct {
	table string
	cols  []string
	order []int // column indexes in payload order
	key   int   // index of the key column
	vals  []any
	ptrs  []any
}

func newRowReader(table string, rows *sql.Rows) (*rowReader, error) {
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	r := &rowReader{table: table, cols: cols, key: -1, vals: make([]any, len(cols)), ptrs: make([]any, len(cols))}
	key := keyOf(table)
	for i := range cols {
		r.ptrs[i] = &r.vals[i]
		r.order = append(r.order, i)
		if cols[i] == key {
			r.key = i
		}
	}
	if r.key < 0 {
		return nil, fmt.Errorf("table %s has no key column %s", table, key)
	}
	slices.SortFunc(r.order, func(a, b int) int { return compareUTF16(cols[a], cols[b]) })
	return r, nil
}

// next scans the current row.
func (r *rowReader) next(rows *sql.Rows) (ref string, p rowPayload, err error) {
	if err := rows.Scan(r.ptrs...); err != nil {
		return "", nil, err
	}
	p = make(rowPayload, 0, len(r.cols))
	for _, i := range r.order {
		s, ok, err := payloadValue(r.vals[i])
		if err != nil {
			return "", nil, fmt.Errorf("column %s: %w", r.cols[i], err)
		}
		if i == r.key {
			ref = s
		}
		if ok {
			p = append(p, field{r.cols[i], s})
		}
	}
	return ref, p, nil
}
