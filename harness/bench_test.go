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
//	go test ./harness -run '^$' -bench CallOverhead -benchtime 500x -count 5
//
// Read the "ratio" lines: they time both sides in one interleaved loop.
// The separate harness/direct/commits lines are kept for reference, but on
// this shared machine fsync latency moves 2-10x within seconds, so ratios
// of separately timed runs mean little.
//
// Measured on the build machine (2-core AMD EPYC VM, ext4 on virtio, go1.26,
// other jobs running), ratio lines, both files warmed up; "before" is the
// same benchmark run on the tree before the journal changes (four durable
// commits per call), a minute apart:
//
//	                 before            after
//	harness          1.06–1.21 ms/op   429–465 µs/op
//	direct           26–30 ns/op       25–28 ns/op
//	commits (2 bare) 244–279 µs/op     242–254 µs/op
//	ratio            4.23–4.56         1.76–1.84   (target ≤ 1.10: NOT met)
//
// While other jobs load the disk (fsync 0.5–1 ms) the ratio drops to
// 1.2–1.4: the gap below is mostly fixed CPU time.
//
// Where the gap goes (CPU profile, µs per call): the two journal commits
// write 10 WAL pages where the two bare commits write 2 (approval, invocation
// with its primary-key and two indexes, and chain entry in the first; the
// invocation, its status index and the chain in the second), which costs
// ~80 µs of extra kernel CPU plus the device time: two bare commits that
// dirty 7 and 3 pages, with no journal code at all, already measure 1.12–1.23
// times two 1-page commits (BenchmarkDurableCommit/ratio, "floor-ratio").
// The journal's statements and chain digests add ~70 µs, and the harness's
// own checks (consent, the recheck's policy lookup, schema validation, the
// call goroutine under its time bound) ~65 µs. 1.10 would leave ~30 µs for
// all of that on this disk; see the report of issue 3.
//
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
		b.ResetTimer()
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
		b.ResetTimer()
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
	// harness / (direct + commits). Both files are warmed up first (see
	// warmCommits), so neither side is timed while its WAL still grows.
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
	s, err := e.rt.NewSession(ctx, "tester", e.so)
	if err != nil {
		b.Fatal(err)
	}
	callTool, err := harness.BenchCaller(ctx, s)
	if err != nil {
		b.Fatal(err)
	}
	call := func() {
		if msg := callTool("bench__noop", `{"text":"x"}`); msg.IsError {
			b.Fatalf("call failed: %s", msg.Text)
		}
	}
	for i := 0; i < warmCalls; i++ {
		call()
	}
	return call
}

// Warm-up, before any timing. Until SQLite first checkpoints a WAL file and
// starts it over (at 1000 pages, the default wal_autocheckpoint), every
// commit extends the file, and an fsync that must also commit the file
// system's metadata is slower, by 2-5x on this machine's ext4 under load.
// A harness call writes about 10 pages and a bare commit 1, so 1500 bare
// commits and 200 harness calls put both files in the steady state.
const (
	warmCommits = 1500
	warmCalls   = 200
)

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
	commit := func() {
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
	for i := 0; i < warmCommits; i++ {
		commit()
	}
	return commit
}
