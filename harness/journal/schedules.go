package journal

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Schedules (docs/schedules.md): one row of table schedules (schema v16)
// per schedule — a coworker, a prompt and when (every D, or a cron
// expression) — and one row of schedule_runs per slot a process claimed.
// A slot is claimed by inserting its row under UNIQUE (schedule_id, slot)
// in a BEGIN IMMEDIATE transaction: of two processes that find the same
// slot due, exactly one claims it (ClaimSlot), the lock in the database
// that keeps a slot from running twice. Both tables are chained.

// Schedule is one schedule.
type Schedule struct {
	ID       string        `json:"id"` // "sch_" + NewID; set by AddSchedule
	Coworker string        `json:"coworker"`
	Prompt   string        `json:"prompt"`
	Every    time.Duration `json:"every,omitempty"` // or Cron
	Cron     string        `json:"cron,omitempty"`
	TimeZone string        `json:"time_zone,omitempty"` // of Cron; "" is UTC
	// CatchUp: after missed slots, run once (marked caught up); false:
	// skip them and wait for the next slot.
	CatchUp   bool      `json:"catch_up"`
	CreatedAt time.Time `json:"created_at"`
	RemovedAt time.Time `json:"removed_at,omitzero"`
}

// ScheduleRun is one claimed slot of a schedule.
type ScheduleRun struct {
	ID         int64     `json:"id"`
	ScheduleID string    `json:"schedule_id"`
	Slot       time.Time `json:"slot"`
	Missed     int       `json:"missed"` // slots due at once when claimed (1: on time)
	SessionID  string    `json:"session_id,omitempty"`
	// Status: "claimed", then the run's: "waiting on you", "succeeded",
	// "failed: why", "missed" (the schedule's catch-up is off: Missed
	// slots passed without a run), "held: the last run is waiting on you
	// — inbox item N" (Missed slots passed without a run because the
	// schedule's previous run was parked); Status says "caught up (missed
	// N)" for a run that covered N > 1 missed slots and succeeded.
	Status    string    `json:"status"`
	ClaimedAt time.Time `json:"claimed_at"`
}

// AddSchedule writes a schedule and returns it with ID and CreatedAt set.
// Exactly one of Every (at least a minute) and Cron is required; the cron
// expression is checked by the caller (harness/schedule).
func (j *Journal) AddSchedule(ctx context.Context, s Schedule) (Schedule, error) {
	if err := checkSchedule(s); err != nil {
		return s, err
	}
	s.ID, s.CreatedAt = NewID("sch_"), j.now()
	catch := 0
	if s.CatchUp {
		catch = 1
	}
	var every any
	if s.Every > 0 {
		every = int64(s.Every)
	}
	err := j.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO schedules(id, coworker, prompt, every_ns, cron, time_zone, catch_up, created_at)
			VALUES (?,?,?,?,?,?,?,?)`, s.ID, s.Coworker, s.Prompt, every, nullString(s.Cron), s.TimeZone, catch, formatTime(s.CreatedAt)); err != nil {
			return fmt.Errorf("journal: add schedule: %w", err)
		}
		return j.chainRow(ctx, tx, "schedules", s.ID)
	})
	return s, err
}

// UpdateSchedule changes the coworker, prompt, when and catch-up of the
// schedule s.ID in use (its ID, CreatedAt and runs stay): the slots after
// the last one claimed follow the new "when". The same checks as
// AddSchedule; ErrNotFound if there is no such schedule in use.
func (j *Journal) UpdateSchedule(ctx context.Context, s Schedule) error {
	if err := checkSchedule(s); err != nil {
		return err
	}
	catch := 0
	if s.CatchUp {
		catch = 1
	}
	var every any
	if s.Every > 0 {
		every = int64(s.Every)
	}
	return j.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE schedules SET coworker=?, prompt=?, every_ns=?, cron=?, time_zone=?, catch_up=?
			WHERE id=? AND removed_at IS NULL`, s.Coworker, s.Prompt, every, nullString(s.Cron), s.TimeZone, catch, s.ID)
		if err != nil {
			return fmt.Errorf("journal: edit schedule %s: %w", s.ID, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("journal: schedule %s: %w", s.ID, ErrNotFound)
		}
		return j.chainRow(ctx, tx, "schedules", s.ID)
	})
}

// checkSchedule is what AddSchedule and UpdateSchedule require.
func checkSchedule(s Schedule) error {
	switch {
	case s.Coworker == "" || strings.TrimSpace(s.Prompt) == "":
		return errors.New("journal: a schedule needs a coworker and a prompt")
	case (s.Every == 0) == (s.Cron == ""):
		return errors.New("journal: a schedule needs either an interval or a cron expression, not both")
	case s.Cron == "" && s.Every < time.Minute:
		return fmt.Errorf("journal: a schedule's interval %s is under a minute", s.Every)
	}
	return nil
}

// ScheduleByID returns the schedule id in use; ErrNotFound if there is
// none.
func (j *Journal) ScheduleByID(ctx context.Context, id string) (Schedule, error) {
	all, err := j.Schedules(ctx)
	if err != nil {
		return Schedule{}, err
	}
	for _, s := range all {
		if s.ID == id {
			return s, nil
		}
	}
	return Schedule{}, fmt.Errorf("journal: schedule %s: %w", id, ErrNotFound)
}

// RemoveSchedule marks a schedule removed (its rows stay, for the
// record); ErrNotFound if there is no such schedule in use.
func (j *Journal) RemoveSchedule(ctx context.Context, id string) error {
	return j.write(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE schedules SET removed_at=? WHERE id=? AND removed_at IS NULL`, j.stamp(), id)
		if err != nil {
			return fmt.Errorf("journal: remove schedule %s: %w", id, err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("journal: schedule %s: %w", id, ErrNotFound)
		}
		return j.chainRow(ctx, tx, "schedules", id)
	})
}

// Schedules returns the schedules in use, oldest first.
func (j *Journal) Schedules(ctx context.Context) ([]Schedule, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT id, coworker, prompt, coalesce(every_ns, 0), coalesce(cron, ''), time_zone, catch_up, created_at
		FROM schedules WHERE removed_at IS NULL ORDER BY created_at, id`)
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	var out []Schedule
	for rows.Next() {
		var s Schedule
		var every int64
		var created sql.NullString
		if err := rows.Scan(&s.ID, &s.Coworker, &s.Prompt, &every, &s.Cron, &s.TimeZone, &s.CatchUp, &created); err != nil {
			return nil, err
		}
		s.Every, s.CreatedAt = time.Duration(every), parseTime(created)
		out = append(out, s)
	}
	return out, rows.Err()
}

// LastSlot returns the newest slot claimed for a schedule (zero: none).
func (j *Journal) LastSlot(ctx context.Context, scheduleID string) (time.Time, error) {
	var slot sql.NullString
	err := j.db.QueryRowContext(ctx, `SELECT max(slot) FROM schedule_runs WHERE schedule_id=?`, scheduleID).Scan(&slot)
	return parseTime(slot), err
}

// LastScheduledSession returns the session of the newest run of a
// schedule that opened one ("": none yet), passing over the slots held,
// missed or left without a session.
func (j *Journal) LastScheduledSession(ctx context.Context, scheduleID string) (string, error) {
	var id sql.NullString
	err := j.db.QueryRowContext(ctx, `SELECT session_id FROM schedule_runs WHERE schedule_id=? AND session_id IS NOT NULL
		ORDER BY slot DESC LIMIT 1`, scheduleID).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id.String, j.Explain(err)
}

// ClaimSlot claims slot of a schedule for this process, durably: it
// reports false (and writes nothing) when the slot, or a later one, was
// claimed already — by another process a moment ago, say. missed is how
// many slots were due at once; status is "claimed", or "missed" for
// slots passed over without a run.
func (j *Journal) ClaimSlot(ctx context.Context, scheduleID string, slot time.Time, missed int, status string) (ScheduleRun, bool, error) {
	r := ScheduleRun{ScheduleID: scheduleID, Slot: slot.UTC(), Missed: missed, Status: status}
	claimed := false
	err := j.write(ctx, func(tx *sql.Tx) error {
		var later int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schedule_runs WHERE schedule_id=? AND slot >= ?`,
			scheduleID, formatTime(slot)).Scan(&later); err != nil {
			return fmt.Errorf("journal: claim a slot of schedule %s: %w", scheduleID, err)
		}
		if later > 0 {
			return nil
		}
		r.ClaimedAt = j.now()
		res, err := tx.ExecContext(ctx, `INSERT INTO schedule_runs(schedule_id, slot, missed, status, claimed_at) VALUES (?,?,?,?,?)`,
			scheduleID, formatTime(slot), missed, status, formatTime(r.ClaimedAt))
		if err != nil {
			return fmt.Errorf("journal: claim a slot of schedule %s: %w", scheduleID, err)
		}
		if r.ID, err = res.LastInsertId(); err != nil {
			return err
		}
		claimed = true
		return j.chainRow(ctx, tx, "schedule_runs", r.ID)
	})
	return r, claimed, err
}

// SetScheduleRun records the session and status of a claimed run.
func (j *Journal) SetScheduleRun(ctx context.Context, id int64, sessionID, status string) error {
	return j.writeFinal(context.WithoutCancel(ctx), func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `UPDATE schedule_runs SET session_id=?, status=? WHERE id=?`, nullString(sessionID), status, id); err != nil {
			return fmt.Errorf("journal: record schedule run %d: %w", id, err)
		}
		return j.chainRow(ctx, tx, "schedule_runs", id)
	})
}

// ScheduleRuns returns the runs of a schedule, newest first, at most limit.
func (j *Journal) ScheduleRuns(ctx context.Context, scheduleID string, limit int) ([]ScheduleRun, error) {
	rows, err := j.db.QueryContext(ctx, `SELECT id, schedule_id, slot, missed, coalesce(session_id,''), status, claimed_at
		FROM schedule_runs WHERE schedule_id=? ORDER BY slot DESC LIMIT ?`, scheduleID, limit)
	if err != nil {
		return nil, j.Explain(err)
	}
	defer rows.Close()
	var out []ScheduleRun
	for rows.Next() {
		var r ScheduleRun
		var slot, claimed sql.NullString
		if err := rows.Scan(&r.ID, &r.ScheduleID, &slot, &r.Missed, &r.SessionID, &r.Status, &claimed); err != nil {
			return nil, err
		}
		r.Slot, r.ClaimedAt = parseTime(slot), parseTime(claimed)
		out = append(out, r)
	}
	return out, rows.Err()
}

// migrate16 adds schedules and their claimed slots (docs/schedules.md),
// chained. UNIQUE (schedule_id, slot) is the lock that keeps one slot
// from running twice.
func migrate16(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE schedules (
			id         TEXT PRIMARY KEY,
			coworker   TEXT NOT NULL,
			prompt     TEXT NOT NULL,
			every_ns   INTEGER,
			cron       TEXT,
			time_zone  TEXT NOT NULL,
			catch_up   INTEGER NOT NULL CHECK (catch_up = 0 OR catch_up = 1),
			created_at TEXT NOT NULL,
			removed_at TEXT,
			CHECK ((every_ns IS NULL) <> (cron IS NULL))
		)`,
		`CREATE TABLE schedule_runs (
			id          INTEGER PRIMARY KEY,
			schedule_id TEXT NOT NULL REFERENCES schedules(id),
			slot        TEXT NOT NULL,
			missed      INTEGER NOT NULL,
			session_id  TEXT REFERENCES sessions(id),
			status      TEXT NOT NULL,
			claimed_at  TEXT NOT NULL,
			UNIQUE (schedule_id, slot)
		)`,
	)
}
