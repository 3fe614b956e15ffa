package journal

import (
	"context"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// MCP Apps (docs/journal.md#app-views, docs/mcp-apps.md): a tool whose
// result comes with a view (a ui:// HTML page the app shows next to the
// result), and the calls that view asks for. The journal keeps the view's
// URI, size and digest, never its bytes, and says of each call who asked
// it: the model, or the app view shown for an earlier invocation.

// OriginViewPrefix starts the Origin of a call asked by an app view:
// "view:" + the ID of the invocation whose view asked.
const OriginViewPrefix = "view:"

// MaxUIURIBytes bounds the URI SetUIResource records.
const MaxUIURIBytes = 2 << 10

// migrate14 adds to invocations the origin of each call (NULL: the model)
// and the view of its result (ui_uri, ui_size, ui_digest), all nullable
// with no default: rows from before have NULL, left out of chain payloads,
// so they still verify.
func migrate14(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE invocations ADD COLUMN origin TEXT`,
		`ALTER TABLE invocations ADD COLUMN ui_uri TEXT`,
		`ALTER TABLE invocations ADD COLUMN ui_size INTEGER`,
		`ALTER TABLE invocations ADD COLUMN ui_digest TEXT`,
	)
}

// ViewOrigin is the Origin of a call asked by the app view shown for the
// invocation id: "view:" + id.
func ViewOrigin(id string) string { return OriginViewPrefix + id }

// OriginInvocation returns the ID of the invocation whose app view asked
// a call of origin (ViewOrigin), and false for the model's calls ("") or
// any other origin.
func OriginInvocation(origin string) (string, bool) {
	id, ok := strings.CutPrefix(origin, OriginViewPrefix)
	return id, ok && id != ""
}

// checkOrigin accepts "" (the model) and "view:<invocation id>".
func checkOrigin(op, id, origin string) error {
	if origin == "" {
		return nil
	}
	if _, ok := OriginInvocation(origin); !ok || len(origin) > 256 || strings.ContainsAny(origin, " \t\r\n") {
		return fmt.Errorf("journal: %s %s: origin %q; want \"\" (the model) or \"view:<invocation id>\" (the app view of that invocation, docs/journal.md#app-views)", op, id, oneLineText(origin, 80))
	}
	return nil
}

// oneLineText cuts s to n bytes for an error message.
func oneLineText(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// checkDigest accepts "sha256:" + 64 lowercase hex digits.
func checkDigest(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(h) != 64 || strings.ToLower(h) != h {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// SetUIResource records, in one durable commit chained like every change
// of the row, the app view of invocation invocationID's result: its
// ui:// URI (at most MaxUIURIBytes), its size in bytes (≥ 0) and digest
// ("sha256:" + hex SHA-256 of the HTML); never the bytes
// (docs/journal.md#app-views). The invocation must be executing or
// succeeded: another status is ErrBadTransition, an unknown ID
// ErrNotFound, bad values an error naming the invocation and the value. A
// row takes one view: recording the same values again is a no-op, other
// values are ErrBadTransition. Cancelling ctx does not stop the commit.
func (j *Journal) SetUIResource(ctx context.Context, invocationID, uri string, size int, digest string) error {
	ctx = context.WithoutCancel(ctx)
	id := invocationID
	switch {
	case !strings.HasPrefix(uri, "ui://") || len(uri) > MaxUIURIBytes || strings.ContainsAny(uri, " \t\r\n"):
		return fmt.Errorf("journal: the view of invocation %s: URI %q; want ui://… of at most %d bytes, without spaces", id, oneLineText(uri, 80), MaxUIURIBytes)
	case size < 0:
		return fmt.Errorf("journal: the view of invocation %s: size %d bytes; want 0 or more", id, size)
	case !checkDigest(digest):
		return fmt.Errorf("journal: the view of invocation %s: digest %q; want sha256: and 64 lowercase hex digits of the HTML", id, oneLineText(digest, 80))
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `UPDATE invocations SET ui_uri=?, ui_size=?, ui_digest=?
			WHERE id=? AND status IN ('executing', 'succeeded') AND ui_uri IS NULL RETURNING *`, uri, size, digest, id)
		if err != nil {
			return fmt.Errorf("journal: set the view of invocation %s: %w", id, err)
		}
		_, p, err := returnedRow("invocations", rows)
		if errors.Is(err, errNoRow) {
			var status string
			var haveURI, haveDigest sql.NullString
			var haveSize sql.NullInt64
			err := tx.QueryRowContext(ctx, `SELECT status, ui_uri, ui_size, ui_digest FROM invocations WHERE id=?`, id).
				Scan(&status, &haveURI, &haveSize, &haveDigest)
			if errors.Is(err, sql.ErrNoRows) {
				return fmt.Errorf("journal: invocation %s: %w", id, ErrNotFound)
			}
			if err != nil {
				return fmt.Errorf("journal: set the view of invocation %s: %w", id, err)
			}
			if haveURI.Valid {
				if haveURI.String == uri && int(haveSize.Int64) == size && haveDigest.String == digest {
					return nil // the same view again
				}
				return fmt.Errorf("journal: invocation %s has the view %s (%d bytes, %s) already: %w",
					id, haveURI.String, haveSize.Int64, haveDigest.String, ErrBadTransition)
			}
			return fmt.Errorf("journal: invocation %s is %s; only an executing or succeeded call has a view: %w", id, status, ErrBadTransition)
		}
		if err != nil {
			return fmt.Errorf("journal: set the view of invocation %s: %w", id, err)
		}
		return j.chainRowChange(ctx, tx, id, p)
	})
}
