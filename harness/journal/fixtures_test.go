package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The fixtures testdata/journal-vN.db are journals written by the
// OpenWorker that had schema version N: scripts/journal-fixtures.sh checks
// out the last commit whose newest migration was N and runs
// testdata/fixturegen against that commit's journal API (the commits are
// listed in testdata/journal-fixtures.txt). Version 1 was never the newest
// migration of a commit; journal-v1.db is version 1's columns in raw SQL
// (TestWriteFixtureV1). After adding migration N, check in the fixture of
// version N-1 with `scripts/journal-fixtures.sh N-1`.

// fixtureFiles returns the fixtures by schema version.
func fixtureFiles(t *testing.T) map[int]string {
	t.Helper()
	paths, err := filepath.Glob("testdata/journal-v*.db")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`journal-v([0-9]+)\.db$`)
	out := map[int]string{}
	for _, p := range paths {
		if m := re.FindStringSubmatch(p); m != nil {
			n, _ := strconv.Atoi(m[1])
			out[n] = p
		}
	}
	return out
}

// readOnly opens path without changing it (no WAL switch, no pragmas).
func readOnly(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite3", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// TestFixturesCoverEveryPastVersion: every schema version before the
// newest has a fixture, at that version.
func TestFixturesCoverEveryPastVersion(t *testing.T) {
	files := fixtureFiles(t)
	for v := 1; v < SchemaVersion(); v++ {
		p, ok := files[v]
		if !ok {
			t.Errorf("no fixture for schema version %d: run scripts/journal-fixtures.sh %d and check in %s",
				v, v, fmt.Sprintf("harness/journal/testdata/journal-v%d.db", v))
			continue
		}
		db := readOnly(t, p)
		got, err := schemaVersion(context.Background(), db)
		db.Close()
		if err != nil || got != v {
			t.Errorf("%s has schema version %d (%v), want %d", p, got, err, v)
		}
	}
	for v, p := range files {
		if v > SchemaVersion() {
			t.Errorf("%s is newer than this build's schema (%d)", p, SchemaVersion())
		}
	}
}

// tableRows is a table's rows by key (primary key columns, or rowid), each
// as column → value.
type tableRows map[string]map[string]any

// dbSnapshot is every row of every table of a database file.
type dbSnapshot map[string]tableRows

func snapshot(t *testing.T, db *sql.DB) dbSnapshot {
	t.Helper()
	var tables []string
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var n string
		rows.Scan(&n)
		tables = append(tables, n)
	}
	rows.Close()
	snap := dbSnapshot{}
	for _, table := range tables {
		var pk []string
		info, err := db.Query(`SELECT name FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk`, table)
		if err != nil {
			t.Fatal(err)
		}
		for info.Next() {
			var n string
			info.Scan(&n)
			pk = append(pk, n)
		}
		info.Close()
		if len(pk) == 0 {
			pk = []string{"rowid"}
		}
		key := strings.Join(pk, ` || '|' || `)
		rs, err := db.Query(`SELECT ` + key + ` AS "key", * FROM "` + table + `"`)
		if err != nil {
			t.Fatalf("read %s: %v", table, err)
		}
		cols, _ := rs.Columns()
		snap[table] = tableRows{}
		for rs.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rs.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			row := map[string]any{}
			for i, c := range cols[1:] {
				v := vals[i+1]
				if b, ok := v.([]byte); ok {
					v = string(b)
				}
				row[c] = v
			}
			snap[table][fmt.Sprint(vals[0])] = row
		}
		rs.Close()
	}
	return snap
}

// recoveredColumns are the columns Open's recovery may change in a row it
// recovers: an invocation left executing, a turn left running.
var recoveredColumns = map[string][]string{
	"invocations": {"status", "effect", "error_code", "error", "finished_at"},
	"turns":       {"status", "reason", "finished_at", "attempts", "calls"},
}

// TestFixturesUpgrade opens a copy of every fixture with today's Open: the
// file is backed up and migrated to SchemaVersion; every row and every
// chain entry is still there as it was (only the rows recovery is for
// changed, and only in the columns it writes); the call left executing is
// unknown and the turn left running failed; the chain verifies, old rows
// read back through the API, and new writes verify too.
func TestFixturesUpgrade(t *testing.T) {
	files := fixtureFiles(t)
	if len(files) == 0 {
		t.Fatal("no fixtures in testdata")
	}
	versions := make([]int, 0, len(files))
	for v := range files {
		versions = append(versions, v)
	}
	slices.Sort(versions)
	for _, v := range versions {
		t.Run(fmt.Sprintf("v%d", v), func(t *testing.T) { testFixtureUpgrade(t, v, files[v]) })
	}
}

func testFixtureUpgrade(t *testing.T, v int, fixture string) {
	ctx := context.Background()
	path := copyFixture(t, fixture)
	raw := readOnly(t, path)
	before := snapshot(t, raw)
	raw.Close()
	executing, running := 0, 0
	for _, r := range before["invocations"] {
		if r["status"] == "executing" {
			executing++
		}
	}
	for _, r := range before["turns"] {
		if r["status"] == "running" {
			running++
		}
	}
	if executing == 0 || running == 0 || len(before["chain"]) == 0 {
		t.Fatalf("%s has %d executing calls, %d running turns, %d chain entries; want some of each",
			fixture, executing, running, len(before["chain"]))
	}

	j := openAt(t, path)
	if !j.Health().OK() {
		t.Fatalf("Open(%s) degraded: %+v", fixture, j.Health())
	}
	if got, _ := schemaVersion(ctx, j.db); got != SchemaVersion() {
		t.Errorf("schema version after Open = %d, want %d", got, SchemaVersion())
	}
	if j.Recovered() != executing || j.RecoveredTurns() != running {
		t.Errorf("Recovered() = %d, RecoveredTurns() = %d; want %d and %d", j.Recovered(), j.RecoveredTurns(), executing, running)
	}

	// The backup: the file as it was, at its version, every row.
	bk := j.Backup()
	if v < SchemaVersion() {
		want := UpgradeBackup{Path: path + fmt.Sprintf(".v%d-backup", v), From: v, To: SchemaVersion()}
		if bk != want {
			t.Errorf("Backup() = %+v, want %+v", bk, want)
		}
		copyDB := readOnly(t, bk.Path)
		if got, err := schemaVersion(ctx, copyDB); err != nil || got != v {
			t.Errorf("backup schema version = %d (%v), want %d", got, err, v)
		}
		if diff := compareSnapshots(before, snapshot(t, copyDB), nil); diff != "" {
			t.Errorf("backup differs from the file before the upgrade: %s", diff)
		}
		copyDB.Close()
	} else if bk.Path != "" {
		t.Errorf("Backup() = %+v for a file already at version %d; want none", bk, v)
	}

	after := snapshot(t, j.db)
	if diff := compareSnapshots(before, after, recoveredColumns); diff != "" {
		t.Error(diff)
	}
	for table, rows := range before {
		want := len(rows)
		switch table {
		case "schema_migrations":
			want = SchemaVersion()
		case "chain":
			want += executing + running // one entry per recovered row
		}
		if got := len(after[table]); got != want {
			t.Errorf("%s: %d rows after the upgrade, %d before; want %d", table, got, len(rows), want)
		}
	}
	for key, r := range before["invocations"] {
		if r["status"] != "executing" {
			continue
		}
		if a := after["invocations"][key]; a["status"] != "unknown" || a["error_code"] != RecoveredCode || a["error"] != RecoveredReason {
			t.Errorf("invocation %s left executing is %v %v %q after Open; want unknown (recovered)", key, a["status"], a["error_code"], a["error"])
		}
	}
	for key, r := range before["turns"] {
		if a := after["turns"][key]; r["status"] == "running" && (a["status"] != "failed" || a["reason"] != RecoveredTurnReason) {
			t.Errorf("turn %s left running is %v %q after Open; want failed (recovered)", key, a["status"], a["reason"])
		}
	}
	rep := mustVerify(t, j)
	if !rep.OK || rep.Entries != int64(len(after["chain"])) || rep.Entries < int64(len(before["chain"])) {
		t.Fatalf("Verify after the upgrade = ok %v, %d entries (%d before, %d now); first break %+v",
			rep.OK, rep.Entries, len(before["chain"]), len(after["chain"]), rep.First)
	}

	// Old rows read back through today's API.
	var crashed string
	for sid := range before["sessions"] {
		d, err := j.Detail(ctx, sid)
		if err != nil {
			t.Fatalf("Detail(%s) = %v", sid, err)
		}
		for _, inv := range d.Invocations {
			wasExecuting := before["invocations"][inv.ID]["status"] == "executing"
			if wasExecuting {
				crashed = sid
			}
			if r := before["invocations"][inv.ID]["reconciled"]; r == "not-applied" && inv.Reconciled != EffectNotApplied {
				t.Errorf("invocation %s reconciled %q reads as %q, want %q", inv.ID, r, inv.Reconciled, EffectNotApplied)
			}
			if !wasExecuting && string(inv.Status) != before["invocations"][inv.ID]["status"] {
				t.Errorf("invocation %s reads as %s, stored %v", inv.ID, inv.Status, before["invocations"][inv.ID]["status"])
			}
		}
		if len(d.Turns) != countWhere(before["turns"], "session_id", sid) ||
			len(d.Invocations) != countWhere(before["invocations"], "session_id", sid) ||
			len(d.Messages) != countWhere(before["messages"], "session_id", sid) ||
			len(d.Approvals) != countWhere(before["approvals"], "session_id", sid) {
			t.Errorf("Detail(%s): %d turns, %d invocations, %d messages, %d approvals; the file has %d, %d, %d, %d", sid,
				len(d.Turns), len(d.Invocations), len(d.Messages), len(d.Approvals),
				countWhere(before["turns"], "session_id", sid), countWhere(before["invocations"], "session_id", sid),
				countWhere(before["messages"], "session_id", sid), countWhere(before["approvals"], "session_id", sid))
		}
	}
	for _, p := range before["user_policies"] {
		if got, ok, err := j.UserPolicy(ctx, p["coworker"].(string), p["tool"].(string), p["descriptor_digest"].(string)); err != nil ||
			!ok || string(got) != p["policy"] {
			t.Errorf("UserPolicy(%v, %v) = %q, %v, %v; want %v", p["coworker"], p["tool"], got, ok, err, p["policy"])
		}
	}

	// Continue the interrupted session: new rows on the upgraded file verify.
	ctx = context.Background()
	if err := j.ReopenSession(ctx, crashed, Reopening{}); err != nil {
		t.Fatal(err)
	}
	turn := crashed + "-after-upgrade"
	if err := j.StartTurn(ctx, Turn{ID: turn, SessionID: crashed, Prompt: "again, after the upgrade", Model: "m", Approve: "ask"}); err != nil {
		t.Fatal(err)
	}
	inv := Invocation{ID: "inv_after_upgrade", SessionID: crashed, TurnID: turn, CallID: "c_after", Tool: "notes.append",
		Placement: "on this computer", Arguments: json.RawMessage(`{"text":"after"}`)}
	if err := j.BeginInvocation(ctx, inv, &Approval{SessionID: crashed, TurnID: turn, Decision: "allow_once", Source: "prompt"}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishInvocation(ctx, inv.ID, Finish{Status: InvSucceeded, Result: json.RawMessage(`{"text":"ok"}`)}); err != nil {
		t.Fatal(err)
	}
	if err := j.AddWarning(ctx, Warning{SessionID: crashed, Code: "catalog_changed", Tool: "notes.append", Message: "after the upgrade"}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishTurn(ctx, turn, TurnCompleted, "", 1, 1); err != nil {
		t.Fatal(err)
	}
	if rep2 := mustVerify(t, j); !rep2.OK || rep2.Entries <= rep.Entries {
		t.Errorf("Verify after new writes = ok %v, %d entries (%d before them); first break %+v", rep2.OK, rep2.Entries, rep.Entries, rep2.First)
	}
}

func countWhere(rows tableRows, col string, val any) int {
	n := 0
	for _, r := range rows {
		if r[col] == val {
			n++
		}
	}
	return n
}

// compareSnapshots says how after lost or changed rows of before ("" when
// it did not). Columns before had must have the same values, except those
// in mayChange for rows recovery is for (invocations executing before,
// turns running before); tables and columns after adds are not compared.
func compareSnapshots(before, after dbSnapshot, mayChange map[string][]string) string {
	var b strings.Builder
	for table, rows := range before {
		arows, ok := after[table]
		if !ok {
			fmt.Fprintf(&b, "table %s is gone; ", table)
			continue
		}
		for key, row := range rows {
			arow, ok := arows[key]
			if !ok {
				fmt.Fprintf(&b, "%s row %s is gone; ", table, key)
				continue
			}
			recovered := (table == "invocations" && row["status"] == "executing") || (table == "turns" && row["status"] == "running")
			for col, val := range row {
				if recovered && slices.Contains(mayChange[table], col) {
					continue
				}
				if av, ok := arow[col]; !ok || fmt.Sprint(av) != fmt.Sprint(val) {
					fmt.Fprintf(&b, "%s row %s column %s: %v, was %v; ", table, key, col, av, val)
				}
			}
		}
	}
	return b.String()
}

// upgradeFixture opens a copy of testdata/journal-v<from>.db with Open:
// the fixture has schema from, the copy has the newest schema afterwards,
// and every row is kept (only recoveredColumns may change). It returns
// the upgraded journal and the rows before and after.
func upgradeFixture(t *testing.T, from int) (*Journal, dbSnapshot, dbSnapshot) {
	t.Helper()
	ctx := context.Background()
	name := fmt.Sprintf("journal-v%d.db", from)
	path := copyFixture(t, filepath.Join("testdata", name))
	raw := readOnly(t, path)
	before := snapshot(t, raw)
	if v, err := schemaVersion(ctx, raw); err != nil || v != from {
		t.Fatalf("%s has schema %d (%v), want %d", name, v, err, from)
	}
	raw.Close()
	j := openAt(t, path)
	if got, _ := schemaVersion(ctx, j.db); got != SchemaVersion() {
		t.Fatalf("schema after Open = %d, want %d (the newest)", got, SchemaVersion())
	}
	after := snapshot(t, j.db)
	if diff := compareSnapshots(before, after, recoveredColumns); diff != "" {
		t.Fatal(diff)
	}
	return j, before, after
}
