package journal

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/consent"
)

// The fixture testdata/journal-v1.db is a journal written by schema
// version 1 (the first release): one session with a finished call, a call
// left executing by a crash, messages, an approval and a user policy, all
// chained. Regenerate it only if version 1 itself must change (it must not
// once released):
//
//	go test ./harness/journal -run TestWriteFixtureV1 -journal.write-fixture
var writeFixture = flag.Bool("journal.write-fixture", false, "rewrite testdata/journal-v1.db")

const fixtureV1 = "testdata/journal-v1.db"

// openVersion opens a bare database at path and migrates it to version v.
func openVersion(t *testing.T, path string, v int) *Journal {
	t.Helper()
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		t.Fatal(err)
	}
	j := &Journal{db: db, path: path, now: newClock().Now, owner: &lease{}}
	if err := migrate(context.Background(), db, path, v, j.now); err != nil {
		t.Fatalf("migrate(%d) = %v", v, err)
	}
	t.Cleanup(func() { db.Close() })
	return j
}

// fillV1 writes rows with version-1 columns only, chained as version 1 did.
func fillV1(t *testing.T, j *Journal) {
	t.Helper()
	ctx := context.Background()
	ts := "2025-01-02T03:04:05.000000000Z"
	stmts := []struct {
		table, ref, sql string
	}{
		{"sessions", "ses_old", `INSERT INTO sessions VALUES ('ses_old','demo','0.9.0','sha-old','{"bundle":"b0"}','openai','m','ask','open','','` + ts + `','` + ts + `')`},
		{"turns", "ses_old-t1", `INSERT INTO turns VALUES ('ses_old-t1','ses_old',1,'write a note','running','',1,2,'` + ts + `',NULL)`},
		{"messages", "1", `INSERT INTO messages VALUES (1,'ses_old','ses_old-t1','user','{"text":"write a note"}','` + ts + `')`},
		{"approvals", "1", `INSERT INTO approvals VALUES (1,'ses_old','ses_old-t1','inv_done','c1','notes.append','allow_once','call','prompt','','sha-old','` + ts + `')`},
		{"invocations", "inv_done", `INSERT INTO invocations VALUES ('inv_done','ses_old','ses_old-t1','c1','notes.append','notes_append','native','append','write','sha256:d','{"text":"a"}','succeeded','{"ok":true}','sha256:4062edaf750fb8074e7e83e0c9028c94e32468a8b6f1614774328ef045150f93','','','applied','','',NULL,12,'` + ts + `','` + ts + `','` + ts + `')`},
		{"invocations", "inv_crashed", `INSERT INTO invocations VALUES ('inv_crashed','ses_old','ses_old-t1','c2','notes.append','notes_append','native','append','write','sha256:d','{"text":"b"}','executing',NULL,'','','','','','',NULL,0,'` + ts + `','` + ts + `',NULL)`},
		{"user_policies", "1", `INSERT INTO user_policies VALUES (1,'demo','notes.append','sha256:d','allow','` + ts + `','` + ts + `')`},
	}
	err := j.write(ctx, func(tx *sql.Tx) error {
		for _, s := range stmts {
			if _, err := tx.ExecContext(ctx, s.sql); err != nil {
				return err
			}
			if err := j.chainRow(ctx, tx, s.table, s.ref); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("fill v1: %v", err)
	}
}

func TestWriteFixtureV1(t *testing.T) {
	if !*writeFixture {
		t.Skip("run with -journal.write-fixture to regenerate " + fixtureV1)
	}
	os.Remove(fixtureV1)
	j := openVersion(t, fixtureV1, 1)
	fillV1(t, j)
	// Fold the WAL into the main file so the fixture is one file.
	if _, err := j.db.Exec(`PRAGMA journal_mode=DELETE`); err != nil {
		t.Fatal(err)
	}
	j.db.Close()
}

// copyFixture copies the journal file fixture into a temporary directory
// and returns the copy's path: a test never writes a checked-in file.
func copyFixture(t *testing.T, fixture string) string {
	t.Helper()
	b, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "journal.db")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func schemaSQL(t *testing.T, db *sql.DB) string {
	t.Helper()
	rows, err := db.Query(`SELECT type, name, coalesce(sql,'') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var typ, name, s string
		rows.Scan(&typ, &name, &s)
		b.WriteString(typ + " " + name + ": " + s + "\n")
	}
	return b.String()
}

func TestMigrate1(t *testing.T) {
	j := openVersion(t, filepath.Join(t.TempDir(), "j.db"), 1)
	for _, table := range []string{"schema_migrations", "sessions", "turns", "messages", "invocations", "approvals", "user_policies", "chain"} {
		var n int
		j.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type='table' AND name=?`, table).Scan(&n)
		if n != 1 {
			t.Errorf("version 1 has no table %s", table)
		}
	}
	if v, _ := schemaVersion(context.Background(), j.db); v != 1 {
		t.Errorf("schema version = %d, want 1", v)
	}
	fillV1(t, j)
	// The CHECK constraints hold the status vocabulary.
	if _, err := j.db.Exec(`UPDATE invocations SET status='done' WHERE id='inv_done'`); err == nil {
		t.Error("version 1 accepted invocation status 'done'")
	}
	if _, err := j.db.Exec(`UPDATE invocations SET session_id='nope' WHERE id='inv_done'`); err == nil {
		t.Error("version 1 accepted an invocation of a missing session")
	}
}

func TestMigrate2(t *testing.T) {
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(context.Background(), j.db, path, 2, j.now); err != nil {
		t.Fatalf("migrate 1→2 = %v", err)
	}
	var owner sql.NullString
	if err := j.db.QueryRow(`SELECT owner FROM invocations WHERE id='inv_crashed'`).Scan(&owner); err != nil || owner.Valid {
		t.Errorf("owner of an old row = %v, %v; want NULL", owner, err)
	}
	if _, err := j.db.Exec(`INSERT INTO warnings(session_id, code, message, created_at) VALUES ('ses_old','c','m','t')`); err != nil {
		t.Errorf("insert into warnings after version 2: %v", err)
	}
	j.db.Exec(`DELETE FROM warnings`)
	// Adding a nullable column leaves old rows' chain payloads intact.
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after migrate 1→2: %v", rep.First)
	}
}

func TestMigrate3(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 3, j.now); err != nil {
		t.Fatalf("migrate 1→3 = %v", err)
	}
	var owner sql.NullString
	if err := j.db.QueryRow(`SELECT owner FROM turns WHERE id='ses_old-t1'`).Scan(&owner); err != nil || owner.Valid {
		t.Errorf("owner of an old turn = %v, %v; want NULL", owner, err)
	}
	var plan, idx string
	rows, err := j.db.Query(`EXPLAIN QUERY PLAN SELECT id, owner FROM turns WHERE status='running'`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, parent, unused int
		var detail string
		rows.Scan(&id, &parent, &unused, &detail)
		plan += detail + "; "
	}
	rows.Close()
	if !strings.Contains(plan, "turns_running") {
		t.Errorf("finding running turns does not use turns_running: %s", plan)
	}
	j.db.QueryRow(`SELECT coalesce(group_concat(name), '') FROM sqlite_master WHERE type='index' AND tbl_name='chain'`).Scan(&idx)
	if idx != "" {
		t.Errorf("indexes on chain after version 3: %s; want none", idx)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after migrate 1→3: %v", rep.First)
	}
}

// TestMigrate4 upgrades a version-3 file with data: rows, rowids, order
// and the chain survive the table rebuild; the rules still hold; writing a
// row no longer builds a temporary b-tree.
func TestMigrate4(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 3, j.now); err != nil {
		t.Fatal(err)
	}
	// A second invocation created in the same instant: listing order falls
	// back to rowid, which the rebuild must keep.
	if _, err := j.db.Exec(`INSERT INTO invocations SELECT 'inv_a', session_id, turn_id, call_id, tool, alias, provider,
		remote_name, risk, descriptor_digest, arguments, 'refused', result, result_digest, error_code, error, 'not_applied',
		reconciled, reconciled_by, reconciled_at, duration_ms, created_at, started_at, finished_at, 'own_x'
		FROM invocations WHERE id='inv_done'`); err != nil {
		t.Fatal(err)
	}
	if err := j.write(ctx, func(tx *sql.Tx) error { return j.chainRow(ctx, tx, "invocations", "inv_a") }); err != nil {
		t.Fatal(err)
	}
	rowids := func() string {
		var s string
		j.db.QueryRow(`SELECT group_concat(id || ':' || rowid, ',') FROM (SELECT id, rowid FROM invocations ORDER BY rowid)`).Scan(&s)
		return s
	}
	before := rowids()
	if err := migrate(ctx, j.db, path, 4, j.now); err != nil {
		t.Fatalf("migrate 3→4 = %v", err)
	}
	if after := rowids(); after != before {
		t.Errorf("invocation rowids after rebuild = %s, want %s", after, before)
	}
	if rep := mustVerify(t, j); !rep.OK || rep.Rows == 0 {
		t.Errorf("Verify after migrate 3→4: %+v", rep)
	}
	for _, bad := range []string{
		`UPDATE invocations SET status='done' WHERE id='inv_done'`,
		`UPDATE invocations SET effect='maybe' WHERE id='inv_done'`,
		`UPDATE invocations SET reconciled='yes' WHERE id='inv_done'`,
		`UPDATE invocations SET session_id='nope' WHERE id='inv_done'`,
		`UPDATE approvals SET decision='maybe'`,
		`UPDATE approvals SET session_id='nope'`,
	} {
		if _, err := j.db.Exec(bad); err == nil {
			t.Errorf("version 4 accepted: %s", bad)
		}
	}
	for _, q := range []string{
		`INSERT INTO invocations(` + invocationColumnList + `) VALUES ('x','ses_old',NULL,'c','t','a','p','r','k','d','{}',
			'executing',NULL,'','','','','','',NULL,0,'t',NULL,NULL,'o')`,
		`INSERT INTO approvals(session_id, invocation_id, call_id, tool, decision, scope, source, reason, identity, created_at)
			VALUES ('ses_old','x','c','t','deny','call','prompt','','i','t')`,
	} {
		if opensEphemeral(t, j.db, q) {
			t.Errorf("writing a row opens a temporary b-tree: %.60s", q)
		}
	}
}

// opensEphemeral reports whether SQLite's program for q builds a temporary
// b-tree (OpenEphemeral), as a CHECK with an IN list does.
func opensEphemeral(t *testing.T, db *sql.DB, q string) bool {
	t.Helper()
	rows, err := db.Query(`EXPLAIN ` + q)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var addr, p1, p2, p3, p5 any
		var op, p4, comment any
		rows.Scan(&addr, &op, &p1, &p2, &p3, &p4, &p5, &comment)
		found = found || fmt.Sprint(op) == "OpenEphemeral"
	}
	return found
}

// TestMigrate5 upgrades a version-4 file with a chained user policy: the
// policy still counts, and the new index holds the chain entries of user
// policies only.
func TestMigrate5(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 4, j.now); err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, j.db, path, 5, j.now); err != nil {
		t.Fatalf("migrate 4→5 = %v", err)
	}
	if p, ok, err := j.UserPolicy(ctx, "demo", "notes.append", "sha256:d"); !ok || p != string(consent.PolicyAllow) || err != nil {
		t.Errorf("UserPolicy after upgrade = %q, %v, %v", p, ok, err)
	}
	var indexed, all int
	j.db.QueryRow(`SELECT count(*) FROM chain INDEXED BY chain_policies WHERE kind = 'user_policies' AND ref > ''`).Scan(&indexed)
	j.db.QueryRow(`SELECT count(*) FROM chain`).Scan(&all)
	if indexed != 1 || all < 5 {
		t.Errorf("chain_policies holds %d entries of %d; want the one user policy", indexed, all)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after migrate 4→5: %v", rep.First)
	}
}

// TestMigrate6 upgrades a version-5 file with an open session: its chain
// still verifies (the NULL owner is left out of payloads), and the session,
// which has no owner, can be taken over.
func TestMigrate6(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 5, j.now); err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, j.db, path, 6, j.now); err != nil {
		t.Fatalf("migrate 5→6 = %v", err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after migrate 5→6: %v", rep.First)
	}
	j.owner = &lease{token: "tok_new"}
	if err := j.ReopenSession(ctx, "ses_old", Reopening{}); err != nil {
		t.Fatalf("ReopenSession of an open session from before owners = %v", err)
	}
	var owner string
	j.db.QueryRow(`SELECT owner FROM sessions WHERE id='ses_old'`).Scan(&owner)
	if owner != "tok_new" {
		t.Errorf("owner = %q, want tok_new", owner)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after taking the session over: %v", rep.First)
	}
}

// TestMigrate7 upgrades a version-6 file: old turns have no model, the
// chain still verifies, and new turns record theirs.
func TestMigrate7(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 6, j.now); err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, j.db, path, 7, j.now); err != nil {
		t.Fatalf("migrate 6→7 = %v", err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after migrate 6→7: %v", rep.First)
	}
	j.owner = &lease{token: "tok_new"}
	if err := j.ReopenSession(ctx, "ses_old", Reopening{}); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, Turn{ID: "t-new", SessionID: "ses_old", Prompt: "again", Model: "m2", Approve: "bypass"}); err != nil {
		t.Fatal(err)
	}
	turns, err := j.Turns(ctx, "ses_old")
	if err != nil || len(turns) != 2 || turns[0].Model != "" || turns[1].Model != "m2" || turns[1].Approve != "bypass" {
		t.Fatalf("Turns = %+v, %v; want the old turn without a model and the new one with m2, bypass", turns, err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after a new turn: %v", rep.First)
	}
}

// TestMigrate8 upgrades a version-7 file holding an invocation reconciled
// as "not-applied", as versions before 8 wrote it: the rebuild keeps rows,
// rowids and the chain; the old row keeps its stored spelling (its chain
// entry covers it) and reads as not_applied; a new reconciliation stores
// not_applied; the rules still hold and writing a row builds no temporary
// b-tree.
func TestMigrate8(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 7, j.now); err != nil {
		t.Fatal(err)
	}
	// inv_crashed recovered as unknown and reconciled by the old code, and
	// inv_new left unknown for after the upgrade.
	err := j.write(ctx, func(tx *sql.Tx) error {
		if err := execAll(ctx, tx,
			`UPDATE invocations SET status='unknown', effect='unknown' WHERE id='inv_crashed'`,
			`UPDATE invocations SET reconciled='not-applied', reconciled_by='user:old', reconciled_at='2025-01-03T00:00:00.000000000Z',
				effect='not_applied' WHERE id='inv_crashed'`,
			`INSERT INTO invocations SELECT 'inv_new', session_id, turn_id, 'c3', tool, alias, provider, remote_name, risk,
				descriptor_digest, arguments, 'unknown', NULL, '', 'timeout', 'no answer', 'unknown', '', '', NULL, 0,
				created_at, started_at, finished_at, owner FROM invocations WHERE id='inv_crashed'`,
		); err != nil {
			return err
		}
		for _, id := range []string{"inv_crashed", "inv_new"} {
			if err := j.chainRow(ctx, tx, "invocations", id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := j.db.Exec(`UPDATE invocations SET reconciled='not_applied' WHERE id='inv_new'`); err == nil {
		t.Fatal("version 7 accepted reconciled = 'not_applied'; this test no longer starts from the old rule")
	}
	rowids := func() string {
		var s string
		j.db.QueryRow(`SELECT group_concat(id || ':' || rowid || ':' || reconciled, ',') FROM (SELECT id, rowid, reconciled FROM invocations ORDER BY rowid)`).Scan(&s)
		return s
	}
	before := rowids()
	if err := migrate(ctx, j.db, path, 8, j.now); err != nil {
		t.Fatalf("migrate 7→8 = %v", err)
	}
	if after := rowids(); after != before {
		t.Errorf("invocations after rebuild = %s, want %s (rows kept as stored)", after, before)
	}
	if rep := mustVerify(t, j); !rep.OK || rep.Rows == 0 {
		t.Fatalf("Verify after migrate 7→8: %+v", rep)
	}
	// What follows reads and writes through the current code, which knows
	// the columns of later versions (nullable: the rules checked here are
	// version 8's).
	if err := migrate(ctx, j.db, path, SchemaVersion(), j.now); err != nil {
		t.Fatal(err)
	}
	old, err := j.Invocation(ctx, "inv_crashed")
	if err != nil || old.Reconciled != EffectNotApplied || old.Effect != EffectNotApplied || old.ReconciledBy != "user:old" {
		t.Errorf("old reconciled row = %+v, %v; want reconciled not_applied by user:old", old, err)
	}
	d, err := j.Detail(ctx, "ses_old")
	if err != nil {
		t.Fatal(err)
	}
	for _, inv := range d.Invocations {
		if inv.ID == "inv_crashed" && inv.Reconciled != EffectNotApplied {
			t.Errorf("Detail: old row reconciled = %q, want not_applied", inv.Reconciled)
		}
	}
	err = j.ReconcileAs(ctx, "inv_crashed", OutcomeApplied, "user:new")
	if !errors.Is(err, ErrBadTransition) || !strings.Contains(err.Error(), "already reconciled as not_applied by user:old") {
		t.Errorf("reconciling the old row again = %v; want ErrBadTransition naming not_applied", err)
	}
	if err := j.ReconcileAs(ctx, "inv_new", OutcomeNotApplied, "user:new"); err != nil {
		t.Fatalf("ReconcileAs after migrate 7→8 = %v", err)
	}
	var stored string
	j.db.QueryRow(`SELECT reconciled FROM invocations WHERE id='inv_new'`).Scan(&stored)
	if stored != "not_applied" {
		t.Errorf("stored outcome = %q, want not_applied", stored)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after a new reconciliation: %v", rep.First)
	}
	for _, bad := range []string{
		`UPDATE invocations SET status='done' WHERE id='inv_done'`,
		`UPDATE invocations SET effect='maybe' WHERE id='inv_done'`,
		`UPDATE invocations SET effect='not-applied' WHERE id='inv_done'`,
		`UPDATE invocations SET reconciled='yes' WHERE id='inv_done'`,
		`UPDATE invocations SET reconciled='unknown' WHERE id='inv_done'`,
		`UPDATE invocations SET session_id='nope' WHERE id='inv_done'`,
	} {
		if _, err := j.db.Exec(bad); err == nil {
			t.Errorf("version 8 accepted: %s", bad)
		}
	}
	var idx string
	j.db.QueryRow(`SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='invocations' AND sql IS NOT NULL ORDER BY name)`).Scan(&idx)
	if idx != "invocations_session,invocations_status,invocations_unknown" { // invocations_unknown: version 10
		t.Errorf("indexes of invocations after version 8 = %s", idx)
	}
	q := `INSERT INTO invocations(` + invocationColumnListV8 + `) VALUES ('x','ses_old',NULL,'c','t','a','p','r','k','d','{}',
		'executing',NULL,'','','','','','',NULL,0,'t',NULL,NULL,'o')`
	if opensEphemeral(t, j.db, q) {
		t.Errorf("writing an invocation opens a temporary b-tree after version 8")
	}
}

// TestMigrate9 upgrades a version-8 file with rows in it: the old
// invocations and warnings read with no placement and no tool and still
// verify; new rows keep the placement of a call and the tool of a
// warning, both covered by the chain (a changed placement is a break).
func TestMigrate9(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "j.db")
	j := openVersion(t, path, 1)
	fillV1(t, j)
	if err := migrate(ctx, j.db, path, 8, j.now); err != nil {
		t.Fatal(err)
	}
	err := j.write(ctx, func(tx *sql.Tx) error { // a warning as version 8 wrote it
		res, err := tx.ExecContext(ctx, `INSERT INTO warnings(session_id, turn_id, code, message, created_at)
			VALUES ('ses_old', NULL, 'catalog_changed', 'before the upgrade', '2025-01-02T03:04:05.000000000Z')`)
		if err != nil {
			return err
		}
		id, _ := res.LastInsertId()
		return j.chainRow(ctx, tx, "warnings", id)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, j.db, path, 9, j.now); err != nil {
		t.Fatalf("migrate 8→9 = %v", err)
	}
	if rep := mustVerify(t, j); !rep.OK || rep.Rows == 0 {
		t.Fatalf("Verify after migrate 8→9: %+v", rep)
	}
	// Read by column: Journal.Invocation reads the columns of the newest
	// schema.
	placement := func(id string) (p sql.NullString, err error) {
		err = j.db.QueryRowContext(ctx, `SELECT placement FROM invocations WHERE id=?`, id).Scan(&p)
		return p, err
	}
	if old, err := placement("inv_done"); err != nil || old.Valid {
		t.Errorf("old invocation's placement = %+v, %v; want NULL", old, err)
	}
	inv := Invocation{ID: "inv_remote", SessionID: "ses_old", Tool: "docs.search", Alias: "docs__search", Provider: "mcp:docs",
		RemoteName: "search", Placement: "mcp.example.com", Arguments: []byte(`{"q":"x"}`)}
	if err := j.BeginInvocation(ctx, inv, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, inv.ID, Finish{Status: InvSucceeded, Result: []byte(`{"ok":true}`)}); err != nil {
		t.Fatal(err)
	}
	refused := Invocation{ID: "inv_refused", SessionID: "ses_old", Tool: "docs.search", Alias: "docs__search", Placement: "mcp.example.com",
		ErrorCode: "denied", Error: "no"}
	if err := j.RefuseInvocation(ctx, refused, nil); err != nil {
		t.Fatal(err)
	}
	if err := j.AddWarning(ctx, Warning{SessionID: "ses_old", Code: "tool_left_out", Tool: "docs.x", Message: "left out"}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"inv_remote", "inv_refused"} {
		if got, err := placement(id); err != nil || got.String != "mcp.example.com" {
			t.Errorf("%s placement = %+v, %v; want mcp.example.com", id, got, err)
		}
	}
	ws, err := j.Warnings(ctx, "ses_old")
	if err != nil || len(ws) != 2 || ws[0].Tool != "" || ws[1].Tool != "docs.x" || ws[1].Code != "tool_left_out" {
		t.Errorf("warnings = %+v, %v; want the old one without a tool, the new one with docs.x", ws, err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify after new rows: %v", rep.First)
	}
	if _, err := j.db.Exec(`UPDATE invocations SET placement='on this computer' WHERE id='inv_remote'`); err != nil {
		t.Fatal(err)
	}
	if rep := mustVerify(t, j); rep.OK {
		t.Error("Verify did not notice a changed placement")
	}
}

// TestFixtureMatchesMigration1 fails if migrate1 was edited: released
// files have the fixture's schema, so version 1 must keep producing it.
func TestFixtureMatchesMigration1(t *testing.T) {
	fixture := rawDB(t, copyFixture(t, fixtureV1))
	fresh := openVersion(t, filepath.Join(t.TempDir(), "j.db"), 1)
	if got, want := schemaSQL(t, fresh.db), schemaSQL(t, fixture); got != want {
		t.Errorf("migrate1 no longer produces the released schema.\nmigrate1:\n%s\nfixture:\n%s", got, want)
	}
}

func TestOpenUpgradesV1Fixture(t *testing.T) {
	ctx := context.Background()
	path := copyFixture(t, fixtureV1)
	j := openAt(t, path)
	if v, _ := schemaVersion(ctx, j.db); v != SchemaVersion() {
		t.Errorf("schema version after Open = %d, want %d", v, SchemaVersion())
	}
	if j.Recovered() != 1 {
		t.Errorf("Recovered() = %d, want 1 (inv_crashed)", j.Recovered())
	}
	d, err := j.Detail(ctx, "ses_old")
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Turns) != 1 || len(d.Messages) != 1 || len(d.Approvals) != 1 || len(d.Invocations) != 2 || d.Identity != "sha-old" {
		t.Fatalf("old session after upgrade = %+v", d)
	}
	if inv, _ := j.Invocation(ctx, "inv_crashed"); inv.Status != InvUnknown || inv.Error != RecoveredReason {
		t.Errorf("inv_crashed = %s %q, want unknown", inv.Status, inv.Error)
	}
	if p, ok, _ := j.UserPolicy(ctx, "demo", "notes.append", "sha256:d"); !ok || p != string(consent.PolicyAllow) {
		t.Errorf("old user policy = %q, %v", p, ok)
	}
	// New writes on the upgraded file, and the old chain still verifies.
	if err := j.Warn(ctx, "ses_old", "", "upgraded", "opened by a newer app"); err != nil {
		t.Fatal(err)
	}
	// The turn left running by the crash failed at Open (it has no owner).
	if j.RecoveredTurns() != 1 || len(d.Turns) != 1 || d.Turns[0].Status != TurnFailed || d.Turns[0].Reason != RecoveredTurnReason {
		t.Errorf("old running turn after upgrade: RecoveredTurns()=%d turns %+v", j.RecoveredTurns(), d.Turns)
	}
	if err := j.StartTurn(ctx, Turn{ID: "ses_old-t2", SessionID: "ses_old", Prompt: "again"}); err != nil {
		t.Fatal(err)
	}
	if err := j.BeginInvocation(ctx, Invocation{ID: "inv_new", SessionID: "ses_old", TurnID: "ses_old-t2", Tool: "notes.append"}, nil); err != nil {
		t.Fatal(err)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after upgrade: %v", rep.First)
	}
}

func TestOpenRefusesFutureSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.db")
	j, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	future := SchemaVersion() + 1
	if _, err := rawDB(t, path).Exec(`INSERT INTO schema_migrations VALUES (?, '2030-01-01T00:00:00.000000000Z')`, future); err != nil {
		t.Fatal(err)
	}
	_, err = Open(path, nil)
	want := fmt.Sprintf("journal.db has schema version %d; this OpenWorker understands up to %d; update the app", future, SchemaVersion())
	if !errors.Is(err, ErrFutureSchema) || !strings.Contains(err.Error(), want) {
		t.Errorf("Open(future) = %v, want %q", err, want)
	}
}

func TestOpenTwiceMigratesOnce(t *testing.T) {
	path := testPath(t)
	openAt(t, path).Close()
	j := openAt(t, path)
	var n int
	j.db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n)
	if n != SchemaVersion() {
		t.Errorf("schema_migrations rows = %d, want %d", n, SchemaVersion())
	}
}
