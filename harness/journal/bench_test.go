package journal

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkDurableCommit measures what durability costs a tool call:
//
//   - pair: MarkExecuting + FinishInvocation (two durable commits with
//     their chain entries), what the harness adds around every call;
//   - bare: BEGIN IMMEDIATE; INSERT; COMMIT on a one-column table with the
//     same settings (WAL, synchronous=FULL), the floor set by fsync;
//   - bare-normal: the same with synchronous=NORMAL (no fsync per commit,
//     not durable on power loss), to show how much of the cost is fsync.
//
// Run: go test ./harness/journal -run '^$' -bench DurableCommit -benchtime 200x
// The numbers depend on the disk (t.TempDir()).
func BenchmarkDurableCommit(b *testing.B) {
	ctx := context.Background()
	b.Run("pair", func(b *testing.B) {
		j, err := Open(filepath.Join(b.TempDir(), "journal.db"), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer j.Close()
		if err := j.CreateSession(ctx, Session{ID: "s", Coworker: "demo", Identity: "id"}); err != nil {
			b.Fatal(err)
		}
		ids := make([]string, b.N)
		for i := range ids {
			ids[i] = fmt.Sprintf("inv%d", i)
			if err := j.PrepareInvocation(ctx, Invocation{ID: ids[i], SessionID: "s", Tool: "t.x", Arguments: json.RawMessage(`{"a":1}`)}); err != nil {
				b.Fatal(err)
			}
		}
		result := json.RawMessage(`{"text":"` + strings.Repeat("x", 512) + `"}`)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if err := j.MarkExecuting(ctx, ids[i]); err != nil {
				b.Fatal(err)
			}
			if err := j.FinishInvocation(ctx, ids[i], Finish{Status: InvSucceeded, Result: result}); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, sync := range []string{"FULL", "NORMAL"} {
		name := "bare"
		if sync == "NORMAL" {
			name = "bare-normal"
		}
		b.Run(name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "bare.db")
			db, err := sql.Open("sqlite3", strings.Replace(dsn(path), "_synchronous=FULL", "_synchronous="+sync, 1))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if _, err := db.Exec(`CREATE TABLE t (x TEXT)`); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
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
		})
	}
}
