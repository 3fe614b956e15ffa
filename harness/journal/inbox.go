package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// The inbox (docs/inbox.md): one row of table inbox (schema v15) per thing
// that waits on the person — a tool approval, a server's question, a
// sign-in, a budget pause, a "was this applied?" reconciliation. A row is
// written (durably) before anyone is asked, so a question outlives the
// process that asked it; it is closed exactly once by a compare-and-set on
// answered_at (AnswerInboxItem, CloseInboxItem), so two answers at once —
// the window and the terminal, two processes on one file — give one winner
// and an *AnsweredError for the other. An answered item is then consumed
// exactly once (ConsumeInboxItem, or in the commit that begins or refuses
// the approved call: Approval.InboxItem), so a run parked on it resumes
// the call once, never twice. Rows are chained like every journal row:
// each insert and each change appends the row's new state.
//
//	open ──answer──▶ answered ──consume──▶ consumed
//	  └──cancel / expire──▶ cancelled / expired

// InboxKind says what an inbox item waits for.
type InboxKind string

// The kinds of inbox item.
const (
	InboxApproval  InboxKind = "approval"  // may this tool call run? (consent.Decision)
	InboxQuestion  InboxKind = "question"  // a server's question (elicitation)
	InboxSignIn    InboxKind = "signin"    // a server needs the person to sign in
	InboxBudget    InboxKind = "budget"    // a run reached a limit: continue or stop?
	InboxReconcile InboxKind = "reconcile" // was this call applied?
)

// InboxKinds lists the kinds, in the order the docs give them.
func InboxKinds() []InboxKind {
	return []InboxKind{InboxApproval, InboxQuestion, InboxSignIn, InboxBudget, InboxReconcile}
}

// InboxStatus is where an inbox item is in its life.
type InboxStatus string

// The statuses of an inbox item.
const (
	InboxOpen      InboxStatus = "open"      // waiting on the person
	InboxAnswered  InboxStatus = "answered"  // answered; the work that waited has not taken the answer yet
	InboxConsumed  InboxStatus = "consumed"  // the answer was taken (an approved call began, a denial went back to the model)
	InboxCancelled InboxStatus = "cancelled" // withdrawn by the asker (the turn ended, the prompt timed out)
	InboxExpired   InboxStatus = "expired"   // its deadline passed unanswered
)

// InboxItem is one thing that waits (or waited) on the person.
type InboxItem struct {
	ID   string    `json:"id"` // "inb_" + NewID; set by AddInboxItem
	Kind InboxKind `json:"kind"`
	// Coworker, SessionID, TurnID, InvocationID, CallID and Tool say whose
	// work waits: all optional but Coworker; SessionID must name a
	// journaled session when set. InvocationID may name a call not yet
	// journaled (approval is asked before the call's row exists).
	Coworker     string `json:"coworker"`
	SessionID    string `json:"session_id,omitempty"`
	TurnID       string `json:"turn_id,omitempty"`
	InvocationID string `json:"invocation_id,omitempty"`
	CallID       string `json:"call_id,omitempty"`
	Tool         string `json:"tool,omitempty"`
	// Asked is exactly what is asked, as JSON (for an approval, the
	// consent.Request), at most MaxJSONBytes.
	Asked     json.RawMessage `json:"asked"`
	CreatedAt time.Time       `json:"created_at"`
	Deadline  time.Time       `json:"deadline,omitzero"` // zero: none
	// Answer is the person's answer as JSON (for an approval, the
	// consent.Decision as a JSON string); null while open and for a
	// cancelled or expired item.
	Answer     json.RawMessage `json:"answer,omitempty"`
	AnsweredBy string          `json:"answered_by,omitempty"` // "terminal", "window", "cli: inbox answer", "stdio", ...
	AnsweredAt time.Time       `json:"answered_at,omitzero"`  // also when it was cancelled or expired
	Status     InboxStatus     `json:"status"`
	ConsumedAt time.Time       `json:"consumed_at,omitzero"`
}

// Open reports whether the item still waits on the person.
func (it InboxItem) Open() bool { return it.Status == InboxOpen }

// ErrAlreadyAnswered is matched (errors.Is) by the *AnsweredError an
// answer gets when the item was closed first — answered by someone else,
// withdrawn or expired.
var ErrAlreadyAnswered = errors.New("already answered")

// ErrAlreadyConsumed is returned when an item's answer was already taken
// (ConsumeInboxItem, BeginInvocation or RefuseInvocation with
// Approval.InboxItem), or the item is not answered: the work it held must
// not go ahead a second time.
var ErrAlreadyConsumed = errors.New("the inbox item's answer was already taken")

// AnsweredError is the loser's side of a race to close an inbox item: Item
// is the item as the winner left it (its Answer, AnsweredBy, AnsweredAt
// and Status).
type AnsweredError struct{ Item InboxItem }

func (e *AnsweredError) Error() string {
	it := e.Item
	switch it.Status {
	case InboxCancelled, InboxExpired:
		return fmt.Sprintf("inbox item %s was %s at %s (%s); it no longer takes an answer", it.ID, it.Status,
			it.AnsweredAt.Format(time.RFC3339), it.AnsweredBy)
	}
	return fmt.Sprintf("inbox item %s was already answered %s by %s at %s", it.ID, string(it.Answer), it.AnsweredBy,
		it.AnsweredAt.Format(time.RFC3339))
}

// Is makes errors.Is(err, ErrAlreadyAnswered) hold.
func (e *AnsweredError) Is(target error) bool { return target == ErrAlreadyAnswered }

const inboxColumns = `id, kind, coworker, coalesce(session_id,''), coalesce(turn_id,''), coalesce(invocation_id,''),
	coalesce(call_id,''), coalesce(tool,''), asked, created_at, deadline, answer, answered_by, answered_at, status, consumed_at`

func scanInboxItem(sc scanner) (InboxItem, error) {
	var it InboxItem
	var asked string
	var answer, by, created, deadline, answered, consumed sql.NullString
	err := sc.Scan(&it.ID, &it.Kind, &it.Coworker, &it.SessionID, &it.TurnID, &it.InvocationID, &it.CallID, &it.Tool,
		&asked, &created, &deadline, &answer, &by, &answered, &it.Status, &consumed)
	if err != nil {
		return it, err
	}
	it.Asked = json.RawMessage(asked)
	if answer.Valid {
		it.Answer = json.RawMessage(answer.String)
	}
	it.AnsweredBy = by.String
	it.CreatedAt, it.Deadline = parseTime(created), parseTime(deadline)
	it.AnsweredAt, it.ConsumedAt = parseTime(answered), parseTime(consumed)
	return it, nil
}

// AddInboxItem writes it as an open item, durably, and returns it with ID,
// CreatedAt and Status set (an ID given is kept: callers that must name
// the item before writing it pass one made with NewID("inb_")). Kind,
// Coworker and Asked (JSON) are required. Cancelling ctx does not stop the
// commit: once asked, the question is on record.
func (j *Journal) AddInboxItem(ctx context.Context, it InboxItem) (InboxItem, error) {
	ctx = context.WithoutCancel(ctx)
	switch it.Kind {
	case InboxApproval, InboxQuestion, InboxSignIn, InboxBudget, InboxReconcile:
	default:
		return it, fmt.Errorf("journal: inbox item kind %q; want one of %s", it.Kind, kindList())
	}
	if it.Coworker == "" {
		return it, errors.New("journal: inbox item: empty coworker (whose work waits?)")
	}
	if err := checkJSON("what inbox item asks", it.Asked); err != nil {
		return it, err
	}
	if len(it.Asked) == 0 {
		return it, errors.New("journal: inbox item: empty Asked; want the JSON of what is asked")
	}
	if it.ID == "" {
		it.ID = NewID("inb_")
	}
	it.CreatedAt, it.Status = j.now(), InboxOpen
	it.Answer, it.AnsweredBy, it.AnsweredAt, it.ConsumedAt = nil, "", time.Time{}, time.Time{}
	err := j.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO inbox(id, kind, coworker, session_id, turn_id, invocation_id, call_id, tool,
			asked, created_at, deadline, status) VALUES (?,?,?,?,?,?,?,?,?,?,?,'open')`,
			it.ID, string(it.Kind), it.Coworker, nullString(it.SessionID), nullString(it.TurnID), nullString(it.InvocationID),
			nullString(it.CallID), nullString(it.Tool), string(it.Asked), formatTime(it.CreatedAt), nullTime(it.Deadline))
		if err != nil {
			return fmt.Errorf("journal: add inbox item %s: %w", it.ID, err)
		}
		return j.chainRow(ctx, tx, "inbox", it.ID)
	})
	return it, err
}

func kindList() string {
	var s []string
	for _, k := range InboxKinds() {
		s = append(s, string(k))
	}
	return strings.Join(s, ", ")
}

// InboxItem returns one item (ErrNotFound if there is none).
func (j *Journal) InboxItem(ctx context.Context, id string) (InboxItem, error) {
	return inboxItem(ctx, j.db, id)
}

func inboxItem(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}, id string) (InboxItem, error) {
	it, err := scanInboxItem(q.QueryRowContext(ctx, `SELECT `+inboxColumns+` FROM inbox WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return it, fmt.Errorf("journal: inbox item %s: %w", id, ErrNotFound)
	}
	return it, err
}

// InboxFilter selects items for Inbox; the zero filter selects the open
// items.
type InboxFilter struct {
	Statuses  []InboxStatus // nil: open only
	SessionID string        // "": every session
	Since     time.Time     // zero: any time; else items created at or after it
	Limit     int           // 0: 1000
}

// Inbox returns the items f selects, oldest first.
func (j *Journal) Inbox(ctx context.Context, f InboxFilter) ([]InboxItem, error) {
	statuses := f.Statuses
	if len(statuses) == 0 {
		statuses = []InboxStatus{InboxOpen}
	}
	q := `SELECT ` + inboxColumns + ` FROM inbox WHERE status IN (?` + strings.Repeat(",?", len(statuses)-1) + `)`
	var args []any
	for _, s := range statuses {
		args = append(args, string(s))
	}
	if f.SessionID != "" {
		q += ` AND session_id = ?`
		args = append(args, f.SessionID)
	}
	if !f.Since.IsZero() {
		q += ` AND created_at >= ?`
		args = append(args, formatTime(f.Since))
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 1000
	}
	q += ` ORDER BY created_at, id LIMIT ?`
	args = append(args, limit)
	rows, err := j.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	var out []InboxItem
	for rows.Next() {
		it, err := scanInboxItem(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, it)
	}
	return out, rows.Err()
}

// AnswerInboxItem closes an open item with answer (JSON), by whom, in one
// compare-and-set (UPDATE … WHERE answered_at IS NULL) under the
// journal's write lock, durably. Exactly one of any number of answers at
// once — goroutines or processes — wins and gets the answered item; every
// other gets an *AnsweredError (errors.Is ErrAlreadyAnswered) holding the
// winner's answer. ErrNotFound if there is no such item. It does not check
// what the answer means: the kind's owner does (harness/inbox).
func (j *Journal) AnswerInboxItem(ctx context.Context, id string, answer json.RawMessage, by string) (InboxItem, error) {
	ctx = context.WithoutCancel(ctx)
	if err := checkJSON("answer of inbox item "+id, answer); err != nil {
		return InboxItem{}, err
	}
	if len(answer) == 0 || string(answer) == "null" {
		return InboxItem{}, fmt.Errorf("journal: answer inbox item %s: empty answer", id)
	}
	if by == "" {
		return InboxItem{}, fmt.Errorf("journal: answer inbox item %s: empty answered_by (who answered?)", id)
	}
	return j.closeInboxItem(ctx, id, InboxAnswered, answer, by)
}

// CloseInboxItem withdraws an open item without an answer: status
// InboxCancelled (the asker stopped waiting) or InboxExpired (its
// deadline passed), by saying who or why. It races answers by the same
// compare-and-set: if an answer won, it returns an *AnsweredError holding
// that answer, which the asker should then honour.
func (j *Journal) CloseInboxItem(ctx context.Context, id string, status InboxStatus, by string) (InboxItem, error) {
	ctx = context.WithoutCancel(ctx)
	if status != InboxCancelled && status != InboxExpired {
		return InboxItem{}, fmt.Errorf("journal: close inbox item %s as %q; want %q or %q", id, status, InboxCancelled, InboxExpired)
	}
	if by == "" {
		return InboxItem{}, fmt.Errorf("journal: close inbox item %s: empty by (who withdrew it?)", id)
	}
	return j.closeInboxItem(ctx, id, status, nil, by)
}

func (j *Journal) closeInboxItem(ctx context.Context, id string, status InboxStatus, answer json.RawMessage, by string) (InboxItem, error) {
	var out InboxItem
	err := j.write(ctx, func(tx *sql.Tx) error {
		var ans any
		if answer != nil {
			ans = string(answer)
		}
		res, err := tx.ExecContext(ctx, `UPDATE inbox SET answer = ?, answered_by = ?, answered_at = ?, status = ?
			WHERE id = ? AND answered_at IS NULL`, ans, by, j.stamp(), string(status), id)
		if err != nil {
			return fmt.Errorf("journal: answer inbox item %s: %w", id, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("journal: answer inbox item %s: %w", id, err)
		}
		it, err := inboxItem(ctx, tx, id)
		if err != nil {
			return err
		}
		if n == 0 {
			return &AnsweredError{Item: it}
		}
		out = it
		return j.chainRow(ctx, tx, "inbox", id)
	})
	return out, err
}

// ConsumeInboxItem marks an answered item consumed, durably: the work that
// waited on it has taken the answer. It fails with ErrAlreadyConsumed if
// the item is not answered (consumed already, still open, withdrawn), so
// that work parked on an item goes ahead once. An approved call consumes
// its item in the commit that begins it instead (Approval.InboxItem).
func (j *Journal) ConsumeInboxItem(ctx context.Context, id string) (InboxItem, error) {
	var out InboxItem
	err := j.write(ctx, func(tx *sql.Tx) error {
		if err := j.consumeInboxItem(ctx, tx, id); err != nil {
			return err
		}
		var err error
		out, err = inboxItem(ctx, tx, id)
		return err
	})
	return out, err
}

// consumeInboxItem is ConsumeInboxItem inside tx (chained).
func (j *Journal) consumeInboxItem(ctx context.Context, tx *sql.Tx, id string) error {
	res, err := tx.ExecContext(ctx, `UPDATE inbox SET status = 'consumed', consumed_at = ? WHERE id = ? AND status = 'answered'`,
		j.stamp(), id)
	if err != nil {
		return fmt.Errorf("journal: consume inbox item %s: %w", id, err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return fmt.Errorf("journal: consume inbox item %s: %w", id, err)
	} else if n == 0 {
		it, err := inboxItem(ctx, tx, id)
		if err != nil {
			return err
		}
		return fmt.Errorf("journal: inbox item %s is %s: %w", id, it.Status, ErrAlreadyConsumed)
	}
	return j.chainRow(ctx, tx, "inbox", id)
}

// migrate15 adds the inbox (docs/inbox.md): everything that waits on the
// person, chained. answered_at is the compare-and-set's guard: NULL while
// open, set by the one answer (or withdrawal) that closes the item. The
// partial index holds only open items, the ones lists read.
func migrate15(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE inbox (
			id            TEXT PRIMARY KEY,
			kind          TEXT NOT NULL CHECK (kind = 'approval' OR kind = 'question' OR kind = 'signin'
			                                  OR kind = 'budget' OR kind = 'reconcile'),
			coworker      TEXT NOT NULL,
			session_id    TEXT REFERENCES sessions(id),
			turn_id       TEXT,
			invocation_id TEXT, -- no foreign key: approval is asked before the invocation row exists
			call_id       TEXT,
			tool          TEXT,
			asked         TEXT NOT NULL,
			created_at    TEXT NOT NULL,
			deadline      TEXT,
			answer        TEXT,
			answered_by   TEXT,
			answered_at   TEXT,
			status        TEXT NOT NULL CHECK (status = 'open' OR status = 'answered' OR status = 'consumed'
			                                   OR status = 'cancelled' OR status = 'expired'),
			consumed_at   TEXT,
			CHECK ((status = 'open') = (answered_at IS NULL))
		)`,
		`CREATE INDEX inbox_open ON inbox(created_at, id) WHERE status = 'open'`,
		`CREATE INDEX inbox_session ON inbox(session_id, created_at)`,
	)
}
