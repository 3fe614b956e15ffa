package journal

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Paged lists (docs/journal.md#scale): sessions newest first and the
// invocations waiting for reconciliation oldest first, each page read
// through an index (schema v10) in time independent of the journal's size.
// A cursor is the (created_at, id) of the last item of a page, so paging is
// stable while sessions and calls are added: no item shows twice and none
// that was there is skipped.

// Page sizes of SessionQuery.Limit and UnknownQuery.Limit.
const (
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

// ErrBadCursor is returned (wrapped, with what to pass instead) for a
// Before or After cursor that no page of that list returned.
var ErrBadCursor = errors.New("bad page cursor")

// SessionQuery selects one page of sessions, newest first.
type SessionQuery struct {
	// Limit is the most sessions on the page: 0 means DefaultPageLimit
	// (100); 1 to MaxPageLimit (1000).
	Limit int
	// Before is "" for the newest page, else the Next of the page before.
	Before string
	// NeedsAttention keeps only sessions with at least one invocation
	// waiting for reconciliation (status "unknown", not reconciled).
	NeedsAttention bool
	// Visible leaves out the sessions hidden from the chat list
	// (Journal.HideSession); Activity and the CLI list them all.
	Visible bool
}

// SessionPage is one page of sessions, newest first, each with
// FirstPrompt, Interrupted and Unreconciled filled in.
type SessionPage struct {
	Sessions []Session `json:"sessions"`
	// Next is the Before of the following page; "" when this page is the
	// last.
	Next string `json:"next"`
}

// SessionPage returns one page of sessions, newest first (by created_at,
// then id). Limit outside 0..MaxPageLimit is an error; a Before that is
// not a Next of this list wraps ErrBadCursor.
func (j *Journal) SessionPage(ctx context.Context, q SessionQuery) (SessionPage, error) {
	limit, err := pageLimit(q.Limit)
	if err != nil {
		return SessionPage{}, err
	}
	var before *pageKey
	if q.Before != "" {
		k, err := parseCursor(q.Before, sessionCursor)
		if err != nil {
			return SessionPage{}, err
		}
		before = &k
	}
	ss, last, err := j.sessions(ctx, before, limit+1, q.NeedsAttention, q.Visible)
	if err != nil {
		return SessionPage{}, err
	}
	var page SessionPage
	page.Sessions, page.Next = cutPage(ss, last, limit, sessionCursor, func(s Session) string { return s.ID })
	return page, nil
}

// Sessions returns up to limit sessions, newest first, each with its
// FirstPrompt, Unreconciled and, for open ones, whether they are
// Interrupted; limit <= 0 means all. SessionPage reads the same list in
// pages.
func (j *Journal) Sessions(ctx context.Context, limit int) ([]Session, error) {
	if limit <= 0 {
		limit = -1 // SQLite: no limit
	}
	ss, _, err := j.sessions(ctx, nil, limit, false, false)
	return ss, err
}

// sqlSessionList reads sessions newest first through sessions_newest. The
// columns after sessionCols: the first prompt, the owner and the count of
// calls waiting for reconciliation (through invocations_session, a few
// rows per session), created_at as stored, for cursors, then the newest
// title and hidden flag (session_labels_session) and the time of the
// newest message (messages_session), each one index step.
const sqlSessionList = `SELECT ` + sessionCols + `,
	(SELECT prompt FROM turns WHERE turns.session_id = sessions.id ORDER BY seq LIMIT 1), owner,
	(SELECT count(*) FROM invocations i INDEXED BY invocations_session WHERE i.session_id = sessions.id AND i.status = 'unknown' AND i.reconciled = ''),
	created_at,
	(SELECT title FROM session_labels l WHERE l.session_id = sessions.id AND l.title IS NOT NULL ORDER BY l.id DESC LIMIT 1),
	` + sqlHidden + `,
	(SELECT created_at FROM messages m WHERE m.session_id = sessions.id ORDER BY m.id DESC LIMIT 1)
	FROM sessions`

// sqlHidden is 1 when the newest hidden label of the session hides it.
const sqlHidden = `coalesce((SELECT hidden FROM session_labels l WHERE l.session_id = sessions.id AND l.hidden IS NOT NULL ORDER BY l.id DESC LIMIT 1), 0)`

// sqlNotHidden keeps the sessions not hidden from the chat list.
const sqlNotHidden = sqlHidden + ` = 0`

// sqlNeedsAttention keeps sessions with a call waiting for reconciliation,
// found through the partial index invocations_unknown.
const sqlNeedsAttention = `id IN (SELECT session_id FROM invocations INDEXED BY invocations_unknown WHERE status = 'unknown' AND reconciled = '')`

// sessionListSQL is the query of sessions: newest first, older than a
// (created_at, id) when before, with a call waiting for reconciliation when
// needsAttention, not hidden when visible; its last parameter is the limit.
func sessionListSQL(before, needsAttention, visible bool) string {
	var where []string
	if before {
		where = append(where, `(created_at, id) < (?, ?)`)
	}
	if needsAttention {
		where = append(where, sqlNeedsAttention)
	}
	if visible {
		where = append(where, sqlNotHidden)
	}
	q := sqlSessionList
	if len(where) > 0 {
		q += ` WHERE ` + strings.Join(where, ` AND `)
	}
	return q + ` ORDER BY created_at DESC, id DESC LIMIT ?`
}

// sessions reads up to limit sessions (-1: all) older than before (nil:
// from the newest), and the created_at of each as stored.
func (j *Journal) sessions(ctx context.Context, before *pageKey, limit int, needsAttention, visible bool) ([]Session, []string, error) {
	var args []any
	if before != nil {
		args = append(args, before.created, before.id)
	}
	q := sessionListSQL(before != nil, needsAttention, visible)
	st, err := j.prepared(ctx, q)
	if err != nil {
		return nil, nil, err
	}
	return j.listSessions(ctx, preparedQuery{st}, q, append(args, limit))
}

// listSessions runs query, a sqlSessionList with its WHERE and ORDER BY,
// and fills in each session's list fields.
func (j *Journal) listSessions(ctx context.Context, qr querier, query string, args []any) ([]Session, []string, error) {
	alive := map[string]bool{}
	var created []string
	ss, err := queryAll(ctx, qr, "list sessions", func(sc scanner) (Session, error) {
		var first, owner, title, last sql.NullString
		var waiting, hidden int
		var stored string
		s, err := scanSession(scannerFunc(func(dest ...any) error {
			return sc.Scan(append(dest, &first, &owner, &waiting, &stored, &title, &hidden, &last)...)
		}))
		s.FirstPrompt, s.Unreconciled = first.String, waiting
		s.Interrupted = s.Status == SessionOpen && !j.ownerLive(alive, owner.String)
		s.Title, s.TitleSet = title.String, title.Valid
		if !title.Valid {
			s.Title = DefaultTitle(first.String)
		}
		s.Hidden = hidden == 1
		// The newest message, else the start: closing the session (which
		// quitting does) or hiding it is not activity.
		s.LastActivity = s.CreatedAt
		if t := parseTime(last); t.After(s.LastActivity) {
			s.LastActivity = t
		}
		created = append(created, stored)
		return s, err
	}, query, args...)
	return ss, created, err
}

// UnknownInvocation is an invocation waiting for reconciliation: its
// status is "unknown" (it may or may not have taken effect) and nobody has
// said yet which (docs/journal.md#reconciliation). Journal.Invocation has
// the rest of it (arguments, result).
type UnknownInvocation struct {
	ID        string    `json:"id"`
	SessionID string    `json:"session_id"`
	TurnID    string    `json:"turn_id,omitempty"`
	Coworker  string    `json:"coworker"` // of the session
	Tool      string    `json:"tool"`     // qualified name
	Placement string    `json:"placement,omitempty"`
	Origin    string    `json:"origin,omitempty"`     // who asked the call: "" the model, "view:<invocation id>" an app view
	ErrorCode string    `json:"error_code,omitempty"` // e.g. "interrupted" (RecoveredCode), "timeout"
	Reason    string    `json:"reason"`               // the invocation's error: why its outcome is unknown
	CreatedAt time.Time `json:"created_at"`           // prepared
	StartedAt time.Time `json:"started_at,omitzero"`  // executing
}

// UnknownQuery selects one page of the invocations waiting for
// reconciliation, oldest first.
type UnknownQuery struct {
	// Limit is the most invocations on the page: 0 means DefaultPageLimit
	// (100); 1 to MaxPageLimit (1000).
	Limit int
	// After is "" for the oldest page, else the Next of the page before.
	After string
}

// UnknownPage is one page of invocations waiting for reconciliation.
type UnknownPage struct {
	Invocations []UnknownInvocation `json:"invocations"`
	// Next is the After of the following page; "" when this page is the
	// last.
	Next string `json:"next"`
}

const sqlUnknown = `SELECT i.id, i.session_id, i.turn_id, coalesce(s.coworker, ''), i.tool, i.placement, i.origin, i.error_code, i.error,
	i.created_at, i.started_at
	FROM invocations i INDEXED BY invocations_unknown LEFT JOIN sessions s ON s.id = i.session_id
	WHERE i.status = 'unknown' AND i.reconciled = ''`

// unknownSQL is the query of Unknown, after a (created_at, id) when after;
// its last parameter is the limit.
func unknownSQL(after bool) string {
	q := sqlUnknown
	if after {
		q += ` AND (i.created_at, i.id) > (?, ?)`
	}
	return q + ` ORDER BY i.created_at, i.id LIMIT ?`
}

// Unknown returns one page of the invocations, in every session, waiting
// for reconciliation, oldest first (by created_at, then id). Limit outside
// 0..MaxPageLimit is an error; an After that is not a Next of this list
// wraps ErrBadCursor. An invocation that becomes unknown while pages are
// read (a call that timed out, one recovered at Open) and is older than
// the cursor shows in the next listing from the start.
func (j *Journal) Unknown(ctx context.Context, q UnknownQuery) (UnknownPage, error) {
	limit, err := pageLimit(q.Limit)
	if err != nil {
		return UnknownPage{}, err
	}
	var args []any
	if q.After != "" {
		k, err := parseCursor(q.After, unknownCursor)
		if err != nil {
			return UnknownPage{}, err
		}
		args = append(args, k.created, k.id)
	}
	query := unknownSQL(q.After != "")
	st, err := j.prepared(ctx, query)
	if err != nil {
		return UnknownPage{}, err
	}
	var stored []string
	invs, err := queryAll(ctx, preparedQuery{st}, "invocations waiting for reconciliation", func(sc scanner) (UnknownInvocation, error) {
		var v UnknownInvocation
		var turn, placement, origin, created, started sql.NullString
		err := sc.Scan(&v.ID, &v.SessionID, &turn, &v.Coworker, &v.Tool, &placement, &origin, &v.ErrorCode, &v.Reason, &created, &started)
		stored = append(stored, created.String)
		v.TurnID, v.Placement, v.Origin = turn.String, placement.String, origin.String
		v.CreatedAt, v.StartedAt = parseTime(created), parseTime(started)
		return v, err
	}, query, append(args, limit+1)...)
	if err != nil {
		return UnknownPage{}, err
	}
	var page UnknownPage
	page.Invocations, page.Next = cutPage(invs, stored, limit, unknownCursor, func(v UnknownInvocation) string { return v.ID })
	return page, nil
}

// preparedQuery is a querier running a statement prepared on the pool
// (Journal.prepared): the lists do not parse their SQL on every call.
type preparedQuery struct{ st *sql.Stmt }

func (p preparedQuery) QueryContext(ctx context.Context, _ string, args ...any) (*sql.Rows, error) {
	return p.st.QueryContext(ctx, args...)
}

func pageLimit(n int) (int, error) {
	switch {
	case n == 0:
		return DefaultPageLimit, nil
	case n < 0 || n > MaxPageLimit:
		return 0, fmt.Errorf("journal: page limit %d; want 1 to %d (or 0 for %d)", n, MaxPageLimit, DefaultPageLimit)
	}
	return n, nil
}

// pageKey is where a page ends: created_at as stored (timeLayout) and id.
type pageKey struct{ created, id string }

// cutPage turns the up to limit+1 items a list query read (with each
// one's created_at as stored) into a page of limit, never nil, and the
// cursor of the next page ("" when this is the last).
func cutPage[T any](items []T, created []string, limit int, kind string, id func(T) string) ([]T, string) {
	next := ""
	if len(items) > limit {
		items = items[:limit]
		next = pageKey{created[limit-1], id(items[limit-1])}.cursor(kind)
	}
	if items == nil {
		items = []T{}
	}
	return items, next
}

// Cursor kinds: a cursor names its list, so one list's cursor is not
// taken for a place in the other.
const (
	sessionCursor = "s1"
	unknownCursor = "u1"
)

// cursor encodes k as URL-safe base64 of "<kind>|<created_at>|<id>".
func (k pageKey) cursor(kind string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + "|" + k.created + "|" + k.id))
}

func parseCursor(c, kind string) (pageKey, error) {
	bad := func(why string) (pageKey, error) {
		return pageKey{}, fmt.Errorf("journal: cursor %q %s; pass the next value a page of this list returned, or no cursor for the first page: %w",
			clipCursor(c), why, ErrBadCursor)
	}
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return bad("is not one this journal made")
	}
	k, rest, ok := strings.Cut(string(raw), "|")
	created, id, ok2 := strings.Cut(rest, "|")
	switch {
	case !ok || !ok2:
		return bad("is not one this journal made")
	case k != kind && (k == sessionCursor || k == unknownCursor):
		other := map[string]string{sessionCursor: "sessions", unknownCursor: "invocations waiting for reconciliation"}[k]
		return bad("is a cursor of the list of " + other)
	case k != kind:
		return bad("is not one this journal made")
	}
	if _, err := time.Parse(timeLayout, created); err != nil || id == "" {
		return bad("is not one this journal made")
	}
	return pageKey{created, id}, nil
}

// clipCursor shortens a cursor for an error message.
func clipCursor(c string) string {
	if len(c) > 80 {
		return c[:80] + "…"
	}
	return c
}

// Waiting counts the calls waiting for reconciliation (status "unknown",
// not reconciled) and the sessions they are in, through the partial index
// invocations_unknown: its cost grows with those calls, not the journal.
func (j *Journal) Waiting(ctx context.Context) (sessions, calls int, err error) {
	err = j.db.QueryRowContext(ctx, `SELECT count(DISTINCT session_id), count(*) FROM invocations INDEXED BY invocations_unknown
		WHERE status = 'unknown' AND reconciled = ''`).Scan(&sessions, &calls)
	if err != nil {
		return 0, 0, j.Explain(fmt.Errorf("journal: count the calls waiting for reconciliation: %w", err))
	}
	return sessions, calls, nil
}
