package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// ErrDegraded is returned (wrapped, with the problem and what to do) by
// every write to a journal in the degraded state: nothing new is written
// into a file that is damaged, whose chain is broken or that cannot keep
// its durability promise (docs/journal.md#degraded).
var ErrDegraded = errors.New("nothing new is written into it")

// Problem names why a journal is degraded.
type Problem string

const (
	// ProblemDamaged: SQLite found the file itself damaged (quick_check,
	// integrity_check, or "database disk image is malformed" on a read).
	ProblemDamaged Problem = "damaged"
	// ProblemChainBroken: rows differ from the hash chain: they were
	// changed, removed or added outside the journal.
	ProblemChainBroken Problem = "chain_broken"
	// ProblemNotDurable: a setting a durable commit needs (WAL,
	// synchronous=FULL, on macOS fullfsync) did not hold when read back.
	ProblemNotDurable Problem = "not_durable"
)

// Health is what the checks at Open (or Check) found. The zero value
// (Problem "") is a sound journal.
type Health struct {
	Problem Problem `json:"problem,omitempty"`
	// Summary is one sentence naming the file and what is wrong.
	Summary string `json:"summary,omitempty"`
	// Details are SQLite's integrity lines, the chain breaks or the
	// settings that did not hold; at most 100.
	Details []string `json:"details,omitempty"`
	// Fix says what the person can do (restore a backup, move the file
	// aside, export what is readable).
	Fix string `json:"fix,omitempty"`
}

// OK reports whether the journal is sound.
func (h Health) OK() bool { return h.Problem == "" }

// String is Summary and Fix in one line.
func (h Health) String() string {
	if h.OK() {
		return "ok"
	}
	return h.Summary + " " + h.Fix
}

// tailEntries is how many of the newest chain entries Check verifies: a
// bounded cost at every Open (milliseconds), against a full Verify whose
// cost grows with the journal. Breaks in older rows are Verify's to find.
var tailEntries = 1000 // a variable for tests

// Health returns the journal's state: sound until a check or a read found
// a problem. Once degraded, a Journal stays degraded until it is closed.
func (j *Journal) Health() Health {
	if h := j.health.Load(); h != nil {
		return *h
	}
	return Health{}
}

// degrade puts the journal in the degraded state, keeping the first
// problem found. It returns the state now in force.
func (j *Journal) degrade(p Problem, details []string) Health {
	if len(details) > maxBreaks {
		details = details[:maxBreaks]
	}
	h := &Health{Problem: p, Details: details}
	switch p {
	case ProblemDamaged:
		h.Summary = fmt.Sprintf("The journal %s is damaged (SQLite's check: %s).", j.path, firstLine(details))
		h.Fix = fmt.Sprintf("Close OpenWorker, then restore a backup (%s.*-backup, if there is one) or move the file aside so that a new journal starts; "+
			"export the journal first to save what is still readable.", j.path)
	case ProblemChainBroken:
		h.Summary = fmt.Sprintf("The journal %s does not match its hash chain: rows were changed, removed or added outside OpenWorker (%s).", j.path, firstLine(details))
		h.Fix = fmt.Sprintf("Verify the journal %s to list every break; keep the file as evidence and move it aside (or restore a backup) so that a new journal starts.", j.path)
	case ProblemNotDurable:
		h.Summary = fmt.Sprintf("The journal %s cannot commit durably: %s.", j.path, strings.Join(details, "; "))
		h.Fix = "Keep the journal on a local disk: choose another journal file, or another folder with OPENWORKER_CONFIG_DIR."
	}
	if j.health.CompareAndSwap(nil, h) && p != ProblemNotDurable { // a setting is read anew at each open
		j.writeMarker(*h)
	}
	return j.Health()
}

func firstLine(lines []string) string {
	if len(lines) == 0 {
		return "unknown"
	}
	if len(lines) == 1 {
		return lines[0]
	}
	return fmt.Sprintf("%s; and %d more", lines[0], len(lines)-1)
}

// degradedError is what a write returns on a degraded journal.
func (j *Journal) degradedError() error {
	h := j.health.Load()
	if h == nil {
		return nil
	}
	return fmt.Errorf("journal: %s Until then %w. %s", h.Summary, ErrDegraded, h.Fix)
}

// Explain is for an error a read of this journal returned: if the file
// is damaged, it degrades the journal and adds the file and what to do
// (Health); any other error is returned as it is.
func (j *Journal) Explain(err error) error { return j.readError(err) }

// readError names the file and the next step for a read that failed
// because the file is damaged, and degrades the journal; other errors pass
// through unchanged.
func (j *Journal) readError(err error) error {
	if err == nil || !isCorrupt(err) || strings.Contains(err.Error(), j.path) {
		return err // not damage, or already explained
	}
	h := j.degrade(ProblemDamaged, []string{err.Error()})
	return fmt.Errorf("%w (%s)", err, h.String())
}

// Check runs SQLite's PRAGMA quick_check on the file and verifies the
// newest 1,000 chain entries (links, hashes, and each of their rows as it
// is now); on a problem the journal becomes degraded and Health says what
// to do. Open runs it unless Options.DeferCheck; its cost is one read of
// the file (about 0.15 s for 300 MB in the page cache, seconds when cold).
// The error is only for failing to run the checks.
func (j *Journal) Check(ctx context.Context) (Health, error) {
	return j.check(ctx, true)
}

// check is Check, with or without the quick_check of the whole file.
func (j *Journal) check(ctx context.Context, quick bool) (Health, error) {
	conn, err := j.db.Conn(ctx)
	if err != nil {
		return j.Health(), fmt.Errorf("journal: check %s: %w", j.path, err)
	}
	defer conn.Close()
	if quick {
		lines, err := pragmaCheck(ctx, conn, "quick_check")
		if err != nil {
			return j.Health(), fmt.Errorf("journal: check %s: quick_check: %w", j.path, err)
		}
		if len(lines) > 0 {
			return j.degrade(ProblemDamaged, lines), nil
		}
	}
	// One snapshot for the chain's tail and the rows it names (a deferred
	// read transaction, as Verify): read statement by statement, a commit
	// of another process in between would look like a row changed after
	// it was written.
	if _, err := conn.ExecContext(ctx, `BEGIN DEFERRED`); err != nil {
		return j.Health(), j.readError(err)
	}
	defer conn.ExecContext(context.Background(), `ROLLBACK`)
	if v, err := schemaVersion(ctx, conn); err != nil || v == 0 { // a new file: nothing chained yet
		return j.Health(), j.readError(err)
	}
	breaks, err := verifyTail(ctx, conn, tailEntries)
	if err != nil {
		if isCorrupt(err) {
			return j.degrade(ProblemDamaged, []string{err.Error()}), nil
		}
		return j.Health(), fmt.Errorf("journal: check %s: chain: %w", j.path, err)
	}
	if len(breaks) > 0 {
		return j.degrade(ProblemChainBroken, breakLines(breaks)), nil
	}
	return j.Health(), nil
}

// quickCheckBeforeWriting is the quick_check an Options.Reading open
// skips, run before the first write such a journal makes after all (a
// migration, a recovery, a reconciliation): nothing is written into a
// damaged file.
func (j *Journal) quickCheckBeforeWriting(ctx context.Context) error {
	if !j.reading.CompareAndSwap(true, false) || !j.Health().OK() { // once
		return nil
	}
	_, err := j.Check(ctx)
	return err
}

func breakLines(bs []Break) []string {
	out := make([]string, len(bs))
	for i, b := range bs {
		out[i] = b.String()
	}
	return out
}

// verifyTail checks the newest n chain entries as Verify does: each links
// to the one before, its hash recomputes, and the newest entry of each row
// matches the row now (or the row was deleted).
func verifyTail(ctx context.Context, conn *sql.Conn, n int) ([]Break, error) {
	rows, err := conn.QueryContext(ctx, sqlChainEntries+` WHERE seq >= (SELECT coalesce(max(seq), 0) FROM chain) - ? ORDER BY seq`, n)
	if err != nil {
		return nil, err
	}
	var entries []chainEntry
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			rows.Close()
			return nil, err
		}
		entries = append(entries, e)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	latest := map[string]int64{}
	for _, e := range entries {
		latest[chainKey(e.kind, e.ref)] = e.seq
	}
	var breaks []Break
	for i, e := range entries {
		// The first entry read links to one older than the tail, which is
		// Verify's to check, unless it is the first of all.
		want, prev := e.seq, e.prev
		if i > 0 {
			want, prev = entries[i-1].seq+1, entries[i-1].hash
		} else if e.seq == 1 {
			prev = genesisHash
		}
		br := Break{Seq: e.seq, Table: e.kind, RowID: e.ref, Reason: linkReason(e, want, prev)}
		if br.Reason == "" && latest[chainKey(e.kind, e.ref)] == e.seq {
			d, ok, err := rowDigest(ctx, conn, e.kind, e.ref)
			if err != nil {
				return nil, err
			}
			if !ok {
				br.Reason = ReasonRowDeleted
			} else if d != e.digest {
				br.Reason = ReasonRowChanged
			}
		}
		if br.Reason != "" {
			breaks = append(breaks, br)
		}
	}
	return breaks, nil
}

// checkUnchanged is the check before an update of a row this process did
// not just write (recovery, reconciliation): the row as it is now must
// match its newest chain entry. Otherwise the update would chain an edit
// made outside the journal and a later Verify would call it sound; the
// journal becomes degraded (chain_broken) and the update is refused.
func (j *Journal) checkUnchanged(ctx context.Context, tx *sql.Tx, table, ref string) error {
	var want string
	err := tx.QueryRowContext(ctx, `SELECT payload_digest FROM chain WHERE kind = ? AND ref = ? ORDER BY seq DESC LIMIT 1`, table, ref).Scan(&want)
	reason := ReasonRowChanged
	switch {
	case errors.Is(err, sql.ErrNoRows):
		reason = ReasonRowUnchained
	case err != nil:
		return err
	}
	got, ok, err := rowDigest(ctx, tx, table, ref)
	if err != nil {
		return err
	}
	if ok && got == want {
		return nil
	}
	j.degrade(ProblemChainBroken, []string{Break{Table: table, RowID: ref, Reason: reason}.String()})
	return j.degradedError()
}

// rowDigest is the payload digest of one row as it is now.
func rowDigest(ctx context.Context, conn querier, table, ref string) (string, bool, error) {
	key, ok := chainedKey(table)
	if !ok {
		return "", false, fmt.Errorf("chain entry names table %q, which is not chained", table)
	}
	rows, err := conn.QueryContext(ctx, `SELECT * FROM `+table+` WHERE `+key+` = ?`, ref)
	if err != nil {
		return "", false, err
	}
	ds, err := rowDigests(table, rows)
	if err != nil {
		return "", false, err
	}
	d, ok := ds[ref]
	return d, ok, nil
}

// pragmaCheck runs PRAGMA name(100) (quick_check or integrity_check) on
// conn: nil when SQLite answers "ok", else its lines. The error is for
// failing to run it; a file too damaged to run it is a line, not an error.
func pragmaCheck(ctx context.Context, conn *sql.Conn, name string) ([]string, error) {
	rows, err := conn.QueryContext(ctx, `PRAGMA `+name+`(100)`)
	if err != nil {
		if isCorrupt(err) {
			return []string{err.Error()}, nil
		}
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return nil, err
		}
		// SQLite heads the findings of each database with a line of its
		// own ("*** in database main ***"): it says nothing here.
		line = strings.TrimSpace(strings.TrimPrefix(line, "*** in database main ***"))
		if line != "ok" && line != "" {
			out = append(out, line)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return append(out, err.Error()), nil
		}
		return nil, err
	}
	return out, nil
}

// The degraded state outlives the process that found it (a break that
// journal verify reported must not be forgotten by the next run): degrade
// writes PATH.degraded, JSON of the Health and of the chain head the file
// had, and Open of the same file (the same head) starts degraded. A file
// whose head differs, such as a backup restored over it or a new journal,
// drops the marker (docs/journal.md#degraded).
type degradedMarker struct {
	Health Health `json:"health"`
	Head   string `json:"head,omitempty"` // "" when the damage kept it from being read
	Seq    int64  `json:"seq,omitempty"`
}

func markerPath(dbPath string) string { return dbPath + ".degraded" }

func (j *Journal) writeMarker(h Health) {
	m := degradedMarker{Health: h}
	if j.db != nil {
		m.Head, m.Seq, _ = j.Head(context.Background())
	}
	if b, err := json.MarshalIndent(m, "", "  "); err == nil {
		_ = os.WriteFile(markerPath(j.path), append(b, '\n'), 0o600) // best effort: the state holds in this process anyway
	}
}

// readMarker puts the journal in the state an earlier process found, if
// the file is still the one it found it in.
func (j *Journal) readMarker(ctx context.Context) {
	b, err := os.ReadFile(markerPath(j.path))
	if err != nil {
		return
	}
	var m degradedMarker
	if json.Unmarshal(b, &m) != nil || m.Health.OK() {
		os.Remove(markerPath(j.path))
		return
	}
	if v, err := schemaVersion(ctx, j.db); err == nil && v == 0 {
		os.Remove(markerPath(j.path)) // a new, empty journal in its place
		return
	}
	head, seq, err := j.Head(ctx)
	if err == nil && m.Head != "" && (head != m.Head || seq != m.Seq) {
		os.Remove(markerPath(j.path)) // another file now: restored, or started anew
		return
	}
	h := m.Health
	h.Summary += " An earlier check found this, and the file has not changed since."
	j.health.CompareAndSwap(nil, &h)
}
