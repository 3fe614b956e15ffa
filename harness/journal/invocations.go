package journal

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os/user"
	"time"
)

// Invocation is one tool call (docs/journal.md). Its Status moves
//
//	prepared → executing → succeeded | failed | unknown
//
// or is "refused" from the start (refused before any I/O). The executing
// row is committed durably before the provider is called, so a crash
// leaves evidence: Open turns a leftover "executing" into "unknown", and
// only a person may then record what really happened (Reconcile).
type Invocation struct {
	ID         string `json:"id"`
	SessionID  string `json:"session_id"`
	TurnID     string `json:"turn_id,omitempty"`
	CallID     string `json:"call_id"` // the model's tool call ID
	Tool       string `json:"tool"`    // qualified name; "" if the alias was unknown
	Alias      string `json:"alias"`   // the name the model used
	Provider   string `json:"provider"`
	RemoteName string `json:"remote_name"`
	// Placement says where the call goes: "on this computer" or a remote
	// host name (docs/consent.md#placement); "" in rows from before
	// schema version 9 and for an alias that names no selected tool.
	Placement        string           `json:"placement,omitempty"`
	Risk             string           `json:"risk"`
	DescriptorDigest string           `json:"descriptor_digest"`
	Arguments        json.RawMessage  `json:"arguments"`
	Status           InvocationStatus `json:"status"`
	Result           json.RawMessage  `json:"result,omitempty"`
	ResultDigest     string           `json:"result_digest,omitempty"` // "sha256:<hex>" of Result's bytes
	ErrorCode        string           `json:"error_code,omitempty"`
	Error            string           `json:"error,omitempty"`
	Effect           Effect           `json:"effect"`     // "", "applied", "not_applied", "unknown"
	Reconciled       Effect           `json:"reconciled"` // "" (not reconciled), "applied", "not_applied"
	ReconciledBy     string           `json:"reconciled_by,omitempty"`
	ReconciledAt     time.Time        `json:"reconciled_at,omitzero"`
	DurationMS       int64            `json:"duration_ms"`
	CreatedAt        time.Time        `json:"created_at"`
	StartedAt        time.Time        `json:"started_at,omitzero"`
	FinishedAt       time.Time        `json:"finished_at,omitzero"`
	// Origin says who asked the call (docs/journal.md#app-views): "" for
	// the model, "view:<invocation id>" (ViewOrigin) for the app view shown
	// for that invocation of the same session. "" in rows from before
	// schema version 14.
	Origin string `json:"origin,omitempty"`
	// UIURI, UISize (bytes) and UIDigest ("sha256:<hex>" of the HTML) name
	// the app view of the result (SetUIResource); never its bytes. Empty
	// when the result has no view, and in rows from before schema 14.
	UIURI    string `json:"ui_uri,omitempty"`
	UISize   int    `json:"ui_size,omitempty"`
	UIDigest string `json:"ui_digest,omitempty"`
}

// Finish is the terminal evidence of an executing invocation.
type Finish struct {
	Status    InvocationStatus // succeeded | failed | unknown
	Result    json.RawMessage  // normalized result JSON (no image bytes); may be empty
	ErrorCode string
	Error     string
	// Effect defaults to "applied" for succeeded, "unknown" for unknown and
	// "" (not stated) for failed; set "not_applied" only when certain.
	Effect     Effect
	DurationMS int64 // 0 means measured from the executing commit
}

// FinishInvocation commits the terminal row of an executing invocation:
// status succeeded, failed or unknown, the result and its digest
// ("sha256:" + hex SHA-256 of the result bytes, computed here), the error
// and the effect. Any other current status returns ErrBadTransition.
//
// Cancelling ctx does not stop this commit: a cancelled call still needs
// its terminal evidence (the write waits at most the 5 s busy timeout).
//
// A journal still busy after every retry (busyretry.go) does not lose the
// outcome: it is kept (outbox.go) and written by this Journal's next write
// or its Close, or else by the next Open, and FinishInvocation returns an
// error wrapping ErrFinishDeferred (docs/journal.md#busy).
func (j *Journal) FinishInvocation(ctx context.Context, id string, f Finish) error {
	err := j.finishInvocation(ctx, id, f)
	if isBusy(err) {
		return j.deferFinish(id, f, err)
	}
	return err
}

func (j *Journal) finishInvocation(ctx context.Context, id string, f Finish) error {
	ctx = context.WithoutCancel(ctx)
	effect, err := finishEffect(id, f)
	if err != nil {
		return err
	}
	if err := checkJSON("result of invocation "+id, f.Result); err != nil {
		return err
	}
	digest := ""
	if len(f.Result) > 0 {
		sum := sha256.Sum256(f.Result)
		digest = "sha256:" + hex.EncodeToString(sum[:])
	}
	now := j.now()
	var cached *executingRow
	if v, ok := j.executing.Load(id); ok {
		e := v.(executingRow)
		cached = &e
	}
	err = j.writeFinal(ctx, func(tx *sql.Tx) error {
		dur := finishDuration(ctx, tx, id, f.DurationMS, cached, now)
		args := []any{string(f.Status), jsonOrNull(f.Result), digest, f.ErrorCode, f.Error, string(effect), dur, formatTime(now), id}
		if cached == nil {
			return j.finishReturning(ctx, tx, id, f.Status, args)
		}
		// This Journal wrote the executing row: its payload is known.
		st, err := j.stmt(ctx, tx, sqlFinishInvocation)
		if err != nil {
			return err
		}
		res, err := st.ExecContext(ctx, args...)
		if err != nil {
			return fmt.Errorf("journal: finish invocation %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return finishError(ctx, tx, id, f.Status)
		}
		p := finishedPayload(cached.payload, string(f.Status), f.Result, digest, f.ErrorCode, f.Error, string(effect), dur, formatTime(now))
		return j.appendChain(ctx, tx, linkOf("invocations", id, p))
	})
	if err == nil {
		j.executing.Delete(id)
	}
	return err
}

// finishEffect checks f's status and effect and returns the effect to
// record: applied for a success and unknown for an unknown outcome when f
// names none.
func finishEffect(id string, f Finish) (Effect, error) {
	effect := f.Effect
	switch f.Status {
	case InvSucceeded:
		effect = cmp.Or(effect, EffectApplied)
	case InvUnknown:
		effect = cmp.Or(effect, EffectUnknown)
	case InvFailed:
	default:
		return "", fmt.Errorf("journal: FinishInvocation %s: status %q; want succeeded, failed or unknown", id, f.Status)
	}
	switch effect {
	case "", EffectApplied, EffectNotApplied, EffectUnknown:
		return effect, nil
	default:
		return "", fmt.Errorf("journal: FinishInvocation %s: effect %q; want applied, not_applied or unknown", id, effect)
	}
}

// finishDuration is dur, or when it is 0 the time since the invocation
// started executing (from cached, else from its row), or 0 if unknown.
func finishDuration(ctx context.Context, tx *sql.Tx, id string, dur int64, cached *executingRow, now time.Time) int64 {
	if dur != 0 {
		return dur
	}
	started := time.Time{}
	if cached != nil {
		started = cached.started
	} else { // begun by another Journal: read its executing commit time
		var s sql.NullString
		tx.QueryRowContext(ctx, `SELECT started_at FROM invocations WHERE id=?`, id).Scan(&s)
		started = parseTime(s)
	}
	if started.IsZero() {
		return 0
	}
	return max(now.Sub(started).Milliseconds(), 0)
}

// finishReturning finishes an invocation another Journal began: the update
// returns the row, whose payload the chain link needs.
func (j *Journal) finishReturning(ctx context.Context, tx *sql.Tx, id string, status InvocationStatus, args []any) error {
	st, err := j.stmt(ctx, tx, sqlFinishInvocation+` RETURNING *`)
	if err != nil {
		return err
	}
	rows, err := st.QueryContext(ctx, args...)
	if err != nil {
		return fmt.Errorf("journal: finish invocation %s: %w", id, err)
	}
	_, p, err := returnedRow("invocations", rows)
	if errors.Is(err, errNoRow) {
		return finishError(ctx, tx, id, status)
	}
	if err != nil {
		return fmt.Errorf("journal: finish invocation %s: %w", id, err)
	}
	return j.appendChain(ctx, tx, linkOf("invocations", id, p))
}

const sqlFinishInvocation = `UPDATE invocations SET status=?, result=?, result_digest=?, error_code=?, error=?,
	effect=?, duration_ms=?, finished_at=? WHERE id=? AND status='executing'`

// finishError says why FinishInvocation updated no row.
func finishError(ctx context.Context, tx *sql.Tx, id string, to InvocationStatus) error {
	var status string
	err := tx.QueryRowContext(ctx, `SELECT status FROM invocations WHERE id=?`, id).Scan(&status)
	if err == sql.ErrNoRows {
		return fmt.Errorf("journal: invocation %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return fmt.Errorf("journal: finish invocation %s: %w", id, err)
	}
	return fmt.Errorf("journal: invocation %s is %s; only an executing invocation can become %s: %w",
		id, status, to, ErrBadTransition)
}

// ReconcileAs records, for an invocation whose status is "unknown", what
// really happened: outcome OutcomeApplied ("applied") or OutcomeNotApplied
// ("not_applied"; the older spelling "not-applied" is accepted and stored
// as "not_applied"), who said so and when. The status stays "unknown" (the
// harness never learned it); Effect becomes the outcome. Reconciling any
// other status, or twice, is an error wrapping ErrBadTransition.
func (j *Journal) ReconcileAs(ctx context.Context, id string, outcome Effect, who string) error {
	return j.reconcile(ctx, id, outcome, who, nil)
}

// reconcile is ReconcileAs; also, when set, it runs in the same
// transaction after the checks and before the row is chained.
func (j *Journal) reconcile(ctx context.Context, id string, outcome Effect, who string, also func(tx *sql.Tx) error) error {
	outcome, err := ParseOutcome(string(outcome))
	if err != nil {
		return fmt.Errorf("journal: reconcile invocation %s: %w", id, err)
	}
	if who == "" {
		return fmt.Errorf("journal: reconcile invocation %s: say who records the outcome", id)
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		var status InvocationStatus
		var prior Effect
		var by string
		var at sql.NullString
		err := tx.QueryRowContext(ctx, `SELECT status, reconciled, reconciled_by, reconciled_at FROM invocations WHERE id=?`, id).
			Scan(&status, &prior, &by, &at)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("journal: invocation %s: %w", id, ErrNotFound)
		}
		if err != nil {
			return fmt.Errorf("journal: reconcile invocation %s: %w", id, err)
		}
		if status != InvUnknown {
			return fmt.Errorf("journal: invocation %s is %s, not unknown; only unknown invocations need reconciliation: %w",
				id, status, ErrBadTransition)
		}
		if prior != "" {
			return fmt.Errorf("journal: invocation %s was already reconciled as %s by %s at %s: %w",
				id, prior.normalize(), by, at.String, ErrBadTransition)
		}
		if err := j.checkUnchanged(ctx, tx, "invocations", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE invocations SET reconciled=?, reconciled_by=?, reconciled_at=?, effect=?
			WHERE id=?`, string(outcome), who, j.stamp(), string(outcome), id); err != nil {
			return fmt.Errorf("journal: reconcile invocation %s: %w", id, err)
		}
		if also != nil {
			if err := also(tx); err != nil {
				return fmt.Errorf("journal: reconcile invocation %s: %w", id, err)
			}
		}
		return j.chainRow(ctx, tx, "invocations", id)
	})
}

// Reconcile is ReconcileAs with who = "user:" + the operating-system user
// name (or "user" when it cannot be read).
func (j *Journal) Reconcile(ctx context.Context, id string, outcome Effect) error {
	return j.ReconcileAs(ctx, id, outcome, currentUser())
}

func currentUser() string {
	if u, err := user.Current(); err == nil && u.Username != "" {
		return "user:" + u.Username
	}
	return "user"
}

const invocationCols = `id, session_id, turn_id, call_id, tool, alias, provider, remote_name, risk, descriptor_digest,
	arguments, status, result, result_digest, error_code, error, effect, reconciled, reconciled_by, reconciled_at,
	duration_ms, created_at, started_at, finished_at, placement, origin, ui_uri, ui_size, ui_digest`

func scanInvocation(sc scanner) (Invocation, error) {
	var v Invocation
	var turn, result, recAt, created, started, finished, placement, origin, uiURI, uiDigest sql.NullString
	var uiSize sql.NullInt64
	var args string
	err := sc.Scan(&v.ID, &v.SessionID, &turn, &v.CallID, &v.Tool, &v.Alias, &v.Provider, &v.RemoteName, &v.Risk,
		&v.DescriptorDigest, &args, &v.Status, &result, &v.ResultDigest, &v.ErrorCode, &v.Error, &v.Effect,
		&v.Reconciled, &v.ReconciledBy, &recAt, &v.DurationMS, &created, &started, &finished, &placement,
		&origin, &uiURI, &uiSize, &uiDigest)
	v.TurnID, v.Arguments, v.Placement = turn.String, json.RawMessage(args), placement.String
	v.Origin, v.UIURI, v.UISize, v.UIDigest = origin.String, uiURI.String, int(uiSize.Int64), uiDigest.String
	v.Reconciled = v.Reconciled.normalize() // rows reconciled before schema v8 say "not-applied"
	if result.Valid {
		v.Result = json.RawMessage(result.String)
	}
	v.ReconciledAt, v.CreatedAt = parseTime(recAt), parseTime(created)
	v.StartedAt, v.FinishedAt = parseTime(started), parseTime(finished)
	return v, err
}

// Invocation returns the invocation with the given ID, or ErrNotFound.
func (j *Journal) Invocation(ctx context.Context, id string) (Invocation, error) {
	v, err := scanInvocation(j.db.QueryRowContext(ctx, `SELECT `+invocationCols+` FROM invocations WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return Invocation{}, fmt.Errorf("journal: invocation %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return Invocation{}, fmt.Errorf("journal: invocation %s: %w", id, err)
	}
	return v, nil
}

// Invocations returns the invocations of a session in the order they were
// prepared.
func (j *Journal) Invocations(ctx context.Context, sessionID string) ([]Invocation, error) {
	return queryAll(ctx, j.db, "invocations of "+sessionID, scanInvocation,
		`SELECT `+invocationCols+` FROM invocations WHERE session_id=? ORDER BY created_at, rowid`, sessionID)
}

// Unreconciled returns every invocation, in any session, whose status is
// "unknown" and that nobody has reconciled yet, oldest first (by
// created_at, then id), in full. Unknown reads the same list in pages.
func (j *Journal) Unreconciled(ctx context.Context) ([]Invocation, error) {
	return queryAll(ctx, j.db, "unreconciled invocations", scanInvocation,
		`SELECT `+invocationCols+` FROM invocations INDEXED BY invocations_unknown
		WHERE status='unknown' AND reconciled='' ORDER BY created_at, id`)
}
