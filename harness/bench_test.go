package harness_test

// BenchmarkCallOverhead measures, in one run, what the harness adds to a
// tool call (issue 3 acceptance):
//
//   - harness: a no-op native tool called through the harness call path
//     (selection, schema validation, budget, consent in bypass mode, the
//     durable executing row, the call under limits, the terminal row) with
//     the durable journal on a file in b.TempDir(); no model round trip;
//   - direct: the same tool's Call, made directly;
//   - commits: two bare durable SQLite commits on the same disk
//     (BEGIN IMMEDIATE; INSERT; COMMIT; WAL, synchronous=FULL).
//
// It reports harness / (direct + commits) as the metric "ratio"; the target
// is ≤ 1.10.
//
// Run:
//
//	go test ./harness -run '^$' -bench CallOverhead -benchtime 500x -count 3
//
// Measured on the build machine (2-core AMD EPYC VM, ext4, go1.26,
// -benchtime 500x -count 3):
//
//	harness  1.09–1.17 ms/op
//	direct   42–62 ns/op
//	commits  343–377 µs/op (two bare durable commits)
//	ratio    3.06 (target ≤ 1.10: NOT met)
//
// The CPU profile puts ~95% of the harness path in harness/journal: each
// call makes four durable commits (RecordApproval, PrepareInvocation,
// MarkExecuting, FinishInvocation), each with a hash-chain entry whose
// digest computation (chainRow → rowDigests → payloadDigest) is ~25% of the
// CPU. The harness's own work (selection, schema validation, consent,
// recheck, pin) is a few percent. Reaching the target needs a journal API
// that commits the approval, the prepared and the executing rows in ONE
// durable transaction (2 commits per call), and a cheaper chain entry; see
// the report of issue 3.

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	_ "github.com/mattn/go-sqlite3"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
)

func BenchmarkCallOverhead(b *testing.B) {
	ctx := context.Background()
	args := json.RawMessage(`{"text":"x"}`)

	b.Run("harness", func(b *testing.B) {
		callTool := benchHarness(b)
		for i := 0; i < b.N; i++ {
			callTool()
		}
	})
	b.Run("direct", func(b *testing.B) {
		c := tool.NewCall("s", "t", "c", "", tool.Limits{}, nil)
		for i := 0; i < b.N; i++ {
			if _, err := benchNoop.Call(ctx, c, args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("commits", func(b *testing.B) {
		commit := bareCommitter(b)
		for i := 0; i < b.N; i++ {
			commit()
			commit()
		}
	})
	// ratio interleaves the three, one harness call, a batch of direct
	// calls and two bare commits per iteration (alternating which goes
	// first), so that both sides see the same disk: the machine is shared
	// and fsync latency drifts by 2-10x over seconds, which makes ratios
	// of separately timed runs meaningless. It reports each side's mean and
	// harness / (direct + commits).
	b.Run("ratio", func(b *testing.B) {
		callTool := benchHarness(b)
		commit := bareCommitter(b)
		c := tool.NewCall("s", "t", "c", "", tool.Limits{}, nil)
		const batch = 1000
		var harnessT, directT, commitsT time.Duration
		harness := func() {
			start := time.Now()
			callTool()
			harnessT += time.Since(start)
		}
		commits := func() {
			start := time.Now()
			commit()
			commit()
			commitsT += time.Since(start)
		}
		for i := 0; i < b.N; i++ {
			if i%2 == 0 {
				harness()
				commits()
			} else {
				commits()
				harness()
			}
			start := time.Now()
			for k := 0; k < batch; k++ {
				benchNoop.Call(ctx, c, args)
			}
			directT += time.Since(start)
		}
		n := float64(b.N)
		direct := float64(directT.Nanoseconds()) / batch
		b.ReportMetric(float64(harnessT.Nanoseconds())/n, "harness-ns/op")
		b.ReportMetric(direct/n, "direct-ns/op")
		b.ReportMetric(float64(commitsT.Nanoseconds())/n, "2commits-ns/op")
		b.ReportMetric(float64(harnessT.Nanoseconds())/(direct+float64(commitsT.Nanoseconds())), "ratio")
	})
}

var benchNoop = &testTool{name: "bench.noop", risk: tool.NonIdempotentWrite, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
	return tool.Output{Structured: json.RawMessage(`{"ok":true}`)}, nil
}}

// benchHarness returns a function that makes one no-op call through the
// harness call path with the durable journal in b.TempDir().
func benchHarness(b *testing.B) func() {
	ctx := context.Background()
	e := newEnv(b, envOpts{tools: []tool.Tool{benchNoop}, selected: []string{"bench.noop"}})
	s, err := e.rt.NewSession(ctx, "tester")
	if err != nil {
		b.Fatal(err)
	}
	callTool, err := harness.BenchCaller(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	return func() {
		if msg := callTool("bench__noop", `{"text":"x"}`); msg.IsError {
			b.Fatalf("call failed: %s", msg.Text)
		}
	}
}

// bareCommitter returns a function that makes one bare durable commit,
// BEGIN IMMEDIATE; INSERT; COMMIT, on a WAL, synchronous=FULL file in
// b.TempDir() (the disk the harness journal is on).
func bareCommitter(b *testing.B) func() {
	path := filepath.Join(b.TempDir(), "bare.db")
	db, err := sql.Open("sqlite3", "file:"+path+"?_journal_mode=WAL&_synchronous=FULL&_txlock=immediate&_busy_timeout=5000")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if _, err := db.Exec(`CREATE TABLE t (x TEXT)`); err != nil {
		b.Fatal(err)
	}
	return func() {
		tx, err := db.Begin()
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
}
