package journal

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"time"
)

// A migration upgrades the schema by one version inside one transaction.
// Rules for adding one:
//   - append, never edit a released migration (testdata/journal-v1.db and
//     TestFixtureMatchesMigration1 catch edits to version 1);
//   - a column added to a chained table must be nullable with no default,
//     because the chain hashes each row's non-NULL columns: old rows then
//     keep verifying (see chain.go);
//   - write a TestMigrateN that starts from version N-1 with data in it;
//   - check in the fixture of version N-1, written by the commit that had
//     it: scripts/journal-fixtures.sh N-1 (TestFixturesCoverEveryPastVersion
//     fails until it is there; TestFixturesUpgrade upgrades every fixture).
type migration struct {
	version int
	name    string
	up      func(ctx context.Context, tx *sql.Tx) error
}

// migrations, in order; migrations[i].version == i+1.
var migrations = []migration{
	{1, "sessions, turns, messages, invocations, approvals, user policies, chain", migrate1},
	{2, "warnings; invocation owners", migrate2},
	{3, "turn owners; index of running turns; drop the unused chain_ref index", migrate3},
	{4, "invocations and approvals with CHECK constraints that need no temporary b-tree", migrate4},
	{5, "index of the chain entries of user policies", migrate5},
	{6, "session owners", migrate6},
	{7, "the model and approval mode of each turn", migrate7},
	{8, "invocations reconciled as not_applied, the spelling of the effect", migrate8},
	{9, "the placement of each invocation; the tool a warning is about", migrate9},
	{10, "indexes of the newest sessions and of the invocations waiting for reconciliation", migrate10},
	{11, "chat titles and hidden chats (session labels); the index of words for chat search", migrate11},
	{12, "elicitations: the questions MCP servers asked, without the answers", migrate12},
	{13, "the durable handle of each invocation (an A2A task ID)", migrate13},
	{14, "MCP Apps: who asked each call (the model or an app view); the view of a result (URI, size, digest)", migrate14},
	{15, "the inbox: everything that waits on the person, answered by compare-and-set", migrate15},
	{16, "schedules and their claimed slots", migrate16},
	{17, "model usage per response", migrate17},
}

// SchemaVersion is the newest schema this build understands.
func SchemaVersion() int { return len(migrations) }

// schemaVersion reads the applied version; 0 for a new file.
func schemaVersion(ctx context.Context, q interface {
	QueryRowContext(context.Context, string, ...any) *sql.Row
}) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master WHERE type='table' AND name='schema_migrations'`).Scan(&n)
	if err != nil || n == 0 {
		return 0, err
	}
	var v sql.NullInt64
	if err := q.QueryRowContext(ctx, `SELECT max(version) FROM schema_migrations`).Scan(&v); err != nil {
		return 0, err
	}
	return int(v.Int64), nil
}

// migrate brings db up to version target (tests use a lower target to
// build old-schema files); see upgrade.
func migrate(ctx context.Context, db *sql.DB, path string, target int, now func() time.Time) error {
	_, err := upgrade(ctx, db, path, target, now)
	return err
}

// upgrade brings db up to version target in one BEGIN IMMEDIATE
// transaction: two apps opening at once upgrade one at a time, the second
// finds nothing to do, and a failure leaves the file at the version it
// had. A file that already has a schema (version > 0) is first copied next
// to it under that same lock (writeBackup, backup.go); if the copy cannot
// be written, nothing is migrated. It returns the copy it made.
func upgrade(ctx context.Context, db *sql.DB, path string, target int, now func() time.Time) (UpgradeBackup, error) {
	var b UpgradeBackup
	// Up to date (the usual case): no write lock, so that opening a
	// journal another process is writing does not wait for it.
	if v, err := schemaVersion(ctx, db); err == nil && v == target {
		return b, nil
	}
	conn, err := db.Conn(ctx)
	if err != nil {
		return b, fmt.Errorf("journal: migrate %s: %w", path, err)
	}
	defer conn.Close()
	tx, err := conn.BeginTx(ctx, nil) // BEGIN IMMEDIATE (dsn)
	if err != nil {
		return b, fmt.Errorf("journal: migrate %s: %w", path, err)
	}
	defer tx.Rollback()
	v, err := schemaVersion(ctx, tx)
	if err != nil {
		return b, fmt.Errorf("journal: read schema version of %s: %w", path, err)
	}
	if v > len(migrations) {
		return b, fmt.Errorf("journal: %s has schema version %d; this OpenWorker understands up to %d; update the app: %w",
			filepath.Base(path), v, len(migrations), ErrFutureSchema)
	}
	if v >= target {
		return b, nil
	}
	if v > 0 {
		if b, err = writeBackup(ctx, db, path, v, target); err != nil {
			return b, err
		}
	}
	for ; v < target; v++ {
		m := migrations[v]
		if err := m.up(ctx, tx); err != nil {
			return b, withBackup(fmt.Errorf("journal: migrate %s to version %d (%s): %w", path, m.version, m.name, err), b)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, applied_at) VALUES (?, ?)`,
			m.version, formatTime(now())); err != nil {
			return b, withBackup(fmt.Errorf("journal: record migration %d in %s: %w", m.version, path, err), b)
		}
	}
	if err := tx.Commit(); err != nil {
		return b, withBackup(fmt.Errorf("journal: commit the migration to version %d in %s: %w", target, path, err), b)
	}
	if b.Path != "" {
		pruneBackups(path, KeptBackups) // after the commit: a failed upgrade removes only its own copy
	}
	return b, nil
}

func execAll(ctx context.Context, tx *sql.Tx, stmts ...string) error {
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return fmt.Errorf("%w in %.60q", err, s)
		}
	}
	return nil
}

// migrate1 creates the base schema. Times are TEXT (see timeLayout): a
// TIMESTAMP declared type would make the driver parse them into time.Time
// and change what the chain hashes.
func migrate1(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE schema_migrations (
			version    INTEGER PRIMARY KEY,
			applied_at TEXT NOT NULL
		)`,
		`CREATE TABLE sessions (
			id               TEXT PRIMARY KEY,
			coworker         TEXT NOT NULL,
			coworker_version TEXT NOT NULL,
			identity         TEXT NOT NULL,
			identity_parts   TEXT,
			provider         TEXT NOT NULL,
			model            TEXT NOT NULL,
			approve          TEXT NOT NULL,
			status           TEXT NOT NULL CHECK (status IN ('open','closed','failed')),
			error            TEXT NOT NULL,
			created_at       TEXT NOT NULL,
			updated_at       TEXT NOT NULL
		)`,
		`CREATE INDEX sessions_created ON sessions(created_at)`,
		`CREATE TABLE turns (
			id          TEXT PRIMARY KEY,
			session_id  TEXT NOT NULL REFERENCES sessions(id),
			seq         INTEGER NOT NULL,
			prompt      TEXT NOT NULL,
			status      TEXT NOT NULL CHECK (status IN ('running','completed','stopped','failed','cancelled')),
			reason      TEXT NOT NULL,
			attempts    INTEGER NOT NULL,
			calls       INTEGER NOT NULL,
			started_at  TEXT NOT NULL,
			finished_at TEXT,
			UNIQUE (session_id, seq)
		)`,
		`CREATE TABLE messages (
			id         INTEGER PRIMARY KEY,
			session_id TEXT NOT NULL REFERENCES sessions(id),
			turn_id    TEXT REFERENCES turns(id),
			role       TEXT NOT NULL,
			content    TEXT NOT NULL,
			created_at TEXT NOT NULL
		)`,
		`CREATE INDEX messages_session ON messages(session_id, id)`,
		`CREATE TABLE invocations (
			id                TEXT PRIMARY KEY,
			session_id        TEXT NOT NULL REFERENCES sessions(id),
			turn_id           TEXT REFERENCES turns(id),
			call_id           TEXT NOT NULL,
			tool              TEXT NOT NULL,
			alias             TEXT NOT NULL,
			provider          TEXT NOT NULL,
			remote_name       TEXT NOT NULL,
			risk              TEXT NOT NULL,
			descriptor_digest TEXT NOT NULL,
			arguments         TEXT NOT NULL,
			status            TEXT NOT NULL CHECK (status IN ('prepared','executing','succeeded','failed','unknown','refused')),
			result            TEXT,
			result_digest     TEXT NOT NULL,
			error_code        TEXT NOT NULL,
			error             TEXT NOT NULL,
			effect            TEXT NOT NULL CHECK (effect IN ('','applied','not_applied','unknown')),
			reconciled        TEXT NOT NULL CHECK (reconciled IN ('','applied','not-applied')),
			reconciled_by     TEXT NOT NULL,
			reconciled_at     TEXT,
			duration_ms       INTEGER NOT NULL,
			created_at        TEXT NOT NULL,
			started_at        TEXT,
			finished_at       TEXT
		)`,
		`CREATE INDEX invocations_session ON invocations(session_id, created_at)`,
		`CREATE INDEX invocations_status ON invocations(status)`,
		`CREATE TABLE approvals (
			id            INTEGER PRIMARY KEY,
			session_id    TEXT NOT NULL REFERENCES sessions(id),
			turn_id       TEXT REFERENCES turns(id),
			invocation_id TEXT NOT NULL, -- no foreign key: consent is asked before the invocation row exists
			call_id       TEXT NOT NULL,
			tool          TEXT NOT NULL,
			decision      TEXT NOT NULL CHECK (decision IN ('allow_once','allow_session','allow_always','deny')),
			scope         TEXT NOT NULL,
			source        TEXT NOT NULL,
			reason        TEXT NOT NULL,
			identity      TEXT NOT NULL,
			created_at    TEXT NOT NULL
		)`,
		`CREATE INDEX approvals_session ON approvals(session_id, id)`,
		`CREATE TABLE user_policies (
			id                INTEGER PRIMARY KEY,
			coworker          TEXT NOT NULL,
			tool              TEXT NOT NULL,
			descriptor_digest TEXT NOT NULL,
			policy            TEXT NOT NULL CHECK (policy IN ('allow','deny','ask')),
			created_at        TEXT NOT NULL,
			updated_at        TEXT NOT NULL,
			UNIQUE (coworker, tool, descriptor_digest)
		)`,
		`CREATE TABLE chain (
			seq            INTEGER PRIMARY KEY,
			kind           TEXT NOT NULL,
			ref            TEXT NOT NULL,
			payload_digest TEXT NOT NULL,
			prev_hash      TEXT NOT NULL,
			hash           TEXT NOT NULL,
			created_at     TEXT NOT NULL
		)`,
		`CREATE INDEX chain_ref ON chain(kind, ref, seq)`,
	)
}

// migrate2 adds journaled warnings (for example a model_context fact that
// was dropped) and the owner of each invocation: the lease token of the
// Journal that prepared it, so that Open recovers only calls whose process
// is gone, not calls another live process is running on the same file.
func migrate2(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE invocations ADD COLUMN owner TEXT`,
		`CREATE TABLE warnings (
			id         INTEGER PRIMARY KEY,
			session_id TEXT NOT NULL REFERENCES sessions(id),
			turn_id    TEXT REFERENCES turns(id),
			code       TEXT NOT NULL,
			message    TEXT NOT NULL,
			created_at TEXT NOT NULL
		)`,
		`CREATE INDEX warnings_session ON warnings(session_id, id)`,
	)
}

// migrate3 adds the owner of each turn (the lease token of the Journal that
// started it) so that Open can fail the turns whose process is gone, with a
// partial index that holds only running turns (touched when a turn starts
// and ends, never per call). It drops chain_ref: no query reads the chain
// by row, and the index cost a page write on every commit of the call path.
func migrate3(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE turns ADD COLUMN owner TEXT`,
		`CREATE INDEX turns_running ON turns(status) WHERE status = 'running'`,
		`DROP INDEX chain_ref`,
	)
}

// migrate4 rebuilds invocations and approvals, the tables written on every
// tool call, with their CHECK constraints spelled as OR chains instead of
// IN lists. The rules are the same; the cost is not: SQLite evaluates a
// CHECK's IN list by building a temporary b-tree each time a row is written
// (OpenEphemeral: four per call, about a third of the call path's CPU),
// while an OR chain is a few comparisons. Columns, their order, values and
// rowids are copied as they are, so the chain's payloads do not change.
// No table has a foreign key to these two.
func migrate4(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE invocations_v4 (
			id                TEXT PRIMARY KEY,
			session_id        TEXT NOT NULL REFERENCES sessions(id),
			turn_id           TEXT REFERENCES turns(id),
			call_id           TEXT NOT NULL,
			tool              TEXT NOT NULL,
			alias             TEXT NOT NULL,
			provider          TEXT NOT NULL,
			remote_name       TEXT NOT NULL,
			risk              TEXT NOT NULL,
			descriptor_digest TEXT NOT NULL,
			arguments         TEXT NOT NULL,
			status            TEXT NOT NULL CHECK (status = 'prepared' OR status = 'executing' OR status = 'succeeded'
			                                      OR status = 'failed' OR status = 'unknown' OR status = 'refused'),
			result            TEXT,
			result_digest     TEXT NOT NULL,
			error_code        TEXT NOT NULL,
			error             TEXT NOT NULL,
			effect            TEXT NOT NULL CHECK (effect = '' OR effect = 'applied' OR effect = 'not_applied' OR effect = 'unknown'),
			reconciled        TEXT NOT NULL CHECK (reconciled = '' OR reconciled = 'applied' OR reconciled = 'not-applied'),
			reconciled_by     TEXT NOT NULL,
			reconciled_at     TEXT,
			duration_ms       INTEGER NOT NULL,
			created_at        TEXT NOT NULL,
			started_at        TEXT,
			finished_at       TEXT,
			owner             TEXT
		)`,
		`INSERT INTO invocations_v4(rowid, `+invocationColumnList+`) SELECT rowid, `+invocationColumnList+` FROM invocations`,
		`DROP TABLE invocations`,
		`ALTER TABLE invocations_v4 RENAME TO invocations`,
		`CREATE INDEX invocations_session ON invocations(session_id, created_at)`,
		`CREATE INDEX invocations_status ON invocations(status)`,
		`CREATE TABLE approvals_v4 (
			id            INTEGER PRIMARY KEY,
			session_id    TEXT NOT NULL REFERENCES sessions(id),
			turn_id       TEXT REFERENCES turns(id),
			invocation_id TEXT NOT NULL, -- no foreign key: consent is asked before the invocation row exists
			call_id       TEXT NOT NULL,
			tool          TEXT NOT NULL,
			decision      TEXT NOT NULL CHECK (decision = 'allow_once' OR decision = 'allow_session'
			                                   OR decision = 'allow_always' OR decision = 'deny'),
			scope         TEXT NOT NULL,
			source        TEXT NOT NULL,
			reason        TEXT NOT NULL,
			identity      TEXT NOT NULL,
			created_at    TEXT NOT NULL
		)`,
		`INSERT INTO approvals_v4 SELECT `+approvalColumnList+` FROM approvals`,
		`DROP TABLE approvals`,
		`ALTER TABLE approvals_v4 RENAME TO approvals`,
		`CREATE INDEX approvals_session ON approvals(session_id, id)`,
	)
}

// migrate5 indexes the chain entries of user policies, so that UserPolicy
// (asked on every call) finds the newest entry of a policy row in one
// lookup and honours only policies the journal wrote. The index is partial:
// the chain entries of every other table, written on the call path, add no
// page to it (SQLite only evaluates the WHERE on insert).
func migrate5(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE INDEX chain_policies ON chain(ref, seq) WHERE kind = 'user_policies'`,
	)
}

// migrate6 adds the owner of each session: the lease token of the Journal
// whose process holds it open (CreateSession, ReopenSession),
// so that a second process does not continue a chat the first one still
// has open. Rows from before have NULL, which chain payloads leave out, so
// their chain entries still verify.
func migrate6(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx, `ALTER TABLE sessions ADD COLUMN owner TEXT`)
}

// migrate7 records the model and approval mode of each turn: a continued
// session may run with others than it started with. Rows from before have
// NULL, left out of chain payloads.
func migrate7(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE turns ADD COLUMN model TEXT`,
		`ALTER TABLE turns ADD COLUMN approve TEXT`,
	)
}

// migrate8 rebuilds invocations so that its CHECK accepts the reconcile
// outcome "not_applied", spelled as the effect is; before, the outcome was
// "not-applied" and the effect "not_applied". Rows are copied as they are
// (columns, values, rowids, as migrate4 does), so rows reconciled before
// keep "not-applied" in the column: rewriting them would change their
// chain payloads (Verify: "row changed after it was written"), and
// re-chaining them here would also chain whatever a hand edit had put in
// a row, hiding it. The old spelling stays allowed for those rows and is
// read as "not_applied" (scanInvocation); ReconcileAs writes only
// "not_applied".
func migrate8(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE TABLE invocations_v8 (
			id                TEXT PRIMARY KEY,
			session_id        TEXT NOT NULL REFERENCES sessions(id),
			turn_id           TEXT REFERENCES turns(id),
			call_id           TEXT NOT NULL,
			tool              TEXT NOT NULL,
			alias             TEXT NOT NULL,
			provider          TEXT NOT NULL,
			remote_name       TEXT NOT NULL,
			risk              TEXT NOT NULL,
			descriptor_digest TEXT NOT NULL,
			arguments         TEXT NOT NULL,
			status            TEXT NOT NULL CHECK (status = 'prepared' OR status = 'executing' OR status = 'succeeded'
			                                      OR status = 'failed' OR status = 'unknown' OR status = 'refused'),
			result            TEXT,
			result_digest     TEXT NOT NULL,
			error_code        TEXT NOT NULL,
			error             TEXT NOT NULL,
			effect            TEXT NOT NULL CHECK (effect = '' OR effect = 'applied' OR effect = 'not_applied' OR effect = 'unknown'),
			reconciled        TEXT NOT NULL CHECK (reconciled = '' OR reconciled = 'applied' OR reconciled = 'not_applied'
			                                      OR reconciled = 'not-applied'), -- 'not-applied': rows from before version 8
			reconciled_by     TEXT NOT NULL,
			reconciled_at     TEXT,
			duration_ms       INTEGER NOT NULL,
			created_at        TEXT NOT NULL,
			started_at        TEXT,
			finished_at       TEXT,
			owner             TEXT
		)`,
		`INSERT INTO invocations_v8(rowid, `+invocationColumnListV8+`) SELECT rowid, `+invocationColumnListV8+` FROM invocations`,
		`DROP TABLE invocations`,
		`ALTER TABLE invocations_v8 RENAME TO invocations`,
		`CREATE INDEX invocations_session ON invocations(session_id, created_at)`,
		`CREATE INDEX invocations_status ON invocations(status)`,
	)
}

// migrate9 records where each call went (invocations.placement: "on this
// computer" or a remote host name, docs/consent.md#placement) and which
// tool a warning is about (warnings.tool, for example a tool left out of
// a whole-provider selection). Both are nullable with no default: rows
// from before have NULL, left out of chain payloads, so they still verify.
func migrate9(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`ALTER TABLE invocations ADD COLUMN placement TEXT`,
		`ALTER TABLE warnings ADD COLUMN tool TEXT`,
	)
}

// migrate10 indexes what lists read at any size (docs/journal.md#scale):
// sessions by (created_at, id), the order and cursor of Journal.SessionPage
// (newest first, so the newest session is one index step and each page a
// range, not a sort of every session); it replaces sessions_created, its
// prefix. And the invocations waiting for reconciliation (status
// "unknown", not reconciled) by (created_at, id), the order and cursor of
// Journal.Unknown; the index is partial, so the calls that end any other
// way (nearly all) add no page to it.
func migrate10(ctx context.Context, tx *sql.Tx) error {
	return execAll(ctx, tx,
		`CREATE INDEX sessions_newest ON sessions(created_at, id)`,
		`DROP INDEX sessions_created`,
		`CREATE INDEX invocations_unknown ON invocations(created_at, id) WHERE status = 'unknown' AND reconciled = ''`,
	)
}

// migrate11 adds session_labels, the chat list's own rows
// (docs/journal.md#chat-titles): each row sets a session's title (title
// not NULL) or whether it is hidden from the list (hidden 0 or 1), the
// newest row of each kind wins, and rows are only ever added (chained like
// every journal row). And search_terms, the index of words that chat
// search reads (search.go): derived from titles and the text of user and
// assistant messages, filled here from the messages already journaled,
// not chained (it holds nothing the chained rows do not).
func migrate11(ctx context.Context, tx *sql.Tx) error {
	if err := execAll(ctx, tx,
		`CREATE TABLE session_labels (
			id         INTEGER PRIMARY KEY,
			session_id TEXT NOT NULL REFERENCES sessions(id),
			title      TEXT,
			hidden     INTEGER CHECK (hidden IS NULL OR hidden = 0 OR hidden = 1),
			set_by     TEXT NOT NULL,
			created_at TEXT NOT NULL,
			CHECK ((title IS NULL) <> (hidden IS NULL))
		)`,
		`CREATE INDEX session_labels_session ON session_labels(session_id, id)`,
		`CREATE TABLE search_terms (
			term       TEXT NOT NULL,
			session_id TEXT NOT NULL,
			PRIMARY KEY (term, session_id)
		) WITHOUT ROWID`,
	); err != nil {
		return err
	}
	return indexAllMessages(ctx, tx)
}

// The columns of the two tables at version 4 (frozen: later versions may
// add columns, this migration must keep copying these).
const (
	invocationColumnList = `id, session_id, turn_id, call_id, tool, alias, provider, remote_name, risk, descriptor_digest,
		arguments, status, result, result_digest, error_code, error, effect, reconciled, reconciled_by, reconciled_at,
		duration_ms, created_at, started_at, finished_at, owner`
	approvalColumnList = `id, session_id, turn_id, invocation_id, call_id, tool, decision, scope, source, reason, identity,
		created_at`
)

// invocationColumnListV8 is the columns of invocations at version 8
// (frozen, as above); versions 5 to 7 added none.
const invocationColumnListV8 = invocationColumnList
