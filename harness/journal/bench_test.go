package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/consent"
)

// BenchmarkDurableCommit measures what durability costs a tool call:
//
//   - pair: BeginInvocation (approval, prepared and executing rows) +
//     FinishInvocation: the two durable commits, with their chain entries,
//     that the harness makes around every call;
//   - bare: BEGIN IMMEDIATE; INSERT; COMMIT on a one-column table with the
//     same settings (WAL, synchronous=FULL), the floor set by fsync;
//   - bare-normal: the same with synchronous=NORMAL (no fsync per commit,
//     not durable on power loss), to show how much of the cost is fsync;
//   - ratio: pair against two bare commits, interleaved in one loop so both
//     see the same disk (fsync latency on a shared machine drifts), and
//     against two bare commits that write as many pages as the pair (7 in
//     the first commit, 3 in the second, one row in each of that many
//     tables): the floor of two commits of that size, with no CPU work of
//     the journal's. Every file is warmed up past its first WAL
//     checkpoint before timing.
//
// Run: go test ./harness/journal -run '^$' -bench DurableCommit -benchtime 1000x
// The numbers depend on the disk (b.TempDir(); TMPDIR=/dev/shm shows the
// CPU cost alone, as fsync on tmpfs is free).
func BenchmarkDurableCommit(b *testing.B) {
	b.Run("pair", func(b *testing.B) {
		pair := beginFinisher(b)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			pair()
		}
	})
	for _, sync := range []string{"FULL", "NORMAL"} {
		name := "bare"
		if sync == "NORMAL" {
			name = "bare-normal"
		}
		b.Run(name, func(b *testing.B) {
			commit := bareCommitter(b, sync)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				commit()
			}
		})
	}
	b.Run("ratio", func(b *testing.B) {
		pair, commit := beginFinisher(b), bareCommitter(b, "FULL")
		wide7, wide3 := wideCommitter(b, 7), wideCommitter(b, 3)
		var pairT, bareT, wideT time.Duration
		for i := 0; i < b.N; i++ {
			start := time.Now()
			pair()
			pairT += time.Since(start)
			start = time.Now()
			commit()
			commit()
			bareT += time.Since(start)
			start = time.Now()
			wide7()
			wide3()
			wideT += time.Since(start)
		}
		n := float64(b.N)
		b.ReportMetric(float64(pairT.Nanoseconds())/n, "pair-ns/op")
		b.ReportMetric(float64(bareT.Nanoseconds())/n, "2bare-ns/op")
		b.ReportMetric(float64(wideT.Nanoseconds())/n, "2bare-10pages-ns/op")
		b.ReportMetric(float64(pairT)/float64(bareT), "ratio")
		b.ReportMetric(float64(wideT)/float64(bareT), "floor-ratio")
	})
}

// wideCommitter returns a function making one durable commit that inserts
// a row into each of n tables: n dirty pages, as a journal commit has.
func wideCommitter(b *testing.B, n int) func() {
	path := filepath.Join(b.TempDir(), fmt.Sprintf("wide%d.db", n))
	db, err := sql.Open("sqlite3", dsn(path))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	for k := 0; k < n; k++ {
		if _, err := db.Exec(fmt.Sprintf(`CREATE TABLE t%d (x TEXT)`, k)); err != nil {
			b.Fatal(err)
		}
	}
	commit := func() {
		tx, err := db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for k := 0; k < n; k++ {
			if _, err := tx.Exec(fmt.Sprintf(`INSERT INTO t%d VALUES ('row')`, k)); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 1500/n+10; i++ {
		commit()
	}
	return commit
}

// beginFinisher returns a function that begins and finishes one
// invocation, as the harness does for a call.
func beginFinisher(b *testing.B) func() {
	ctx := context.Background()
	j, err := Open(filepath.Join(b.TempDir(), "journal.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { j.Close() })
	if err := j.CreateSession(ctx, Session{ID: "s", Coworker: "demo", Identity: "id"}); err != nil {
		b.Fatal(err)
	}
	if err := j.StartTurn(ctx, Turn{ID: "t", SessionID: "s", Prompt: "p"}); err != nil {
		b.Fatal(err)
	}
	result := json.RawMessage(`{"text":"` + strings.Repeat("x", 512) + `"}`)
	pair := func() {
		id := NewID("inv_")
		inv := Invocation{ID: id, SessionID: "s", TurnID: "t", CallID: "c", Tool: "t.x", Alias: "t_x", Provider: "native",
			Risk: "write", DescriptorDigest: "sha256:d", Arguments: json.RawMessage(`{"a":1}`)}
		a := &Approval{SessionID: "s", TurnID: "t", CallID: "c", Tool: "t.x", Decision: "allow_session", Source: "grant", Identity: "id"}
		if err := j.BeginInvocation(ctx, inv, a); err != nil {
			b.Fatal(err)
		}
		if err := j.FinishInvocation(ctx, id, Finish{Status: InvSucceeded, Result: result}); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 200; i++ { // past the first WAL checkpoint (see harness/bench_test.go)
		pair()
	}
	return pair
}

// bareCommitter returns a function making one BEGIN IMMEDIATE; INSERT;
// COMMIT with the journal's settings and the given synchronous mode.
func bareCommitter(b *testing.B, sync string) func() {
	path := filepath.Join(b.TempDir(), "bare.db")
	db, err := sql.Open("sqlite3", strings.Replace(dsn(path), "_synchronous=FULL", "_synchronous="+sync, 1))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE t (x TEXT)`); err != nil {
		b.Fatal(err)
	}
	commit := func() {
		tx, err := db.Begin() // BEGIN IMMEDIATE
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Exec(`INSERT INTO t VALUES (?)`, "row"); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < 1500; i++ {
		commit()
	}
	return commit
}

// BenchmarkUserPolicy measures the lookup consent makes twice per call:
// found (a chained policy: the row, its newest chain entry through the
// partial index chain_policies, one SHA-256 of the row), missing (no saved
// policy, the usual case), and unchecked, the plain row lookup UserPolicy
// made before it checked the chain, for comparison. The journal holds
// 2,000 chain entries of other rows and 50 policies.
//
// Run: go test ./harness/journal -run '^$' -bench UserPolicy
func BenchmarkUserPolicy(b *testing.B) {
	ctx := context.Background()
	j, err := Open(filepath.Join(b.TempDir(), "journal.db"), nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { j.Close() })
	if err := j.CreateSession(ctx, Session{ID: "s", Coworker: "cw", Identity: "i", Provider: "p", Model: "m", Approve: "ask"}); err != nil {
		b.Fatal(err)
	}
	err = j.write(ctx, func(tx *sql.Tx) error { // one commit, not 2,000
		for i := 0; i < 2000; i++ {
			res, err := tx.ExecContext(ctx, `INSERT INTO warnings(session_id, code, message, created_at) VALUES ('s','w','filler',?)`, j.stamp())
			if err != nil {
				return err
			}
			id, _ := res.LastInsertId()
			if err := j.chainRow(ctx, tx, "warnings", id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		if err := j.SaveUserPolicy(ctx, "cw", fmt.Sprintf("ex.t%d", i), "sha256:d", string(consent.PolicyAllow)); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("found", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, ok, err := j.UserPolicy(ctx, "cw", "ex.t25", "sha256:d"); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("missing", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, ok, err := j.UserPolicy(ctx, "cw", "ex.none", "sha256:d"); ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("unchecked", func(b *testing.B) {
		st, err := j.prepared(ctx, `SELECT policy FROM user_policies WHERE coworker=? AND tool=? AND descriptor_digest=?`)
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			var p string
			if err := st.QueryRowContext(ctx, "cw", "ex.t25", "sha256:d").Scan(&p); err != nil {
				b.Fatal(err)
			}
		}
	})
}
