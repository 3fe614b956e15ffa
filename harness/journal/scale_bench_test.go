package journal_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/journal/internal/journalgen"
)

// generated opens a journal holding n sessions written by journalgen.
func generated(b *testing.B, n int) *journal.Journal {
	b.Helper()
	clock := journalgen.NewClock(time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC), time.Second)
	j, err := journal.Open(filepath.Join(b.TempDir(), "journal.db"), &journal.Options{Now: clock.Now})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { j.Close() })
	if _, err := journalgen.Generate(context.Background(), j, 0, n, journalgen.Shape{}); err != nil {
		b.Fatal(err)
	}
	return j
}

// BenchmarkVerify verifies a journal of 300 generated sessions (about
// 5,400 chain entries). B/op is what Verify allocates in all (garbage,
// mostly: the rows it hashes one by one), not what it holds; scripts/bench.sh
// measures the peak at 20,000 sessions (docs/journal.md#scale).
//
//	go test ./harness/journal -run '^$' -bench Verify -benchmem
func BenchmarkVerify(b *testing.B) {
	j := generated(b, 300)
	ctx := context.Background()
	b.ResetTimer()
	for range b.N {
		rep, err := j.Verify(ctx)
		if err != nil || !rep.OK {
			b.Fatal(rep.First, err)
		}
	}
}

// BenchmarkNewestSession is the query `journal show` makes without an id,
// and the first page of `journal list`, at 300 generated sessions.
// scripts/bench.sh compares it at 1,000 and 20,000.
//
//	go test ./harness/journal -run '^$' -bench NewestSession
func BenchmarkNewestSession(b *testing.B) {
	j := generated(b, 300)
	ctx := context.Background()
	b.Run("newest", func(b *testing.B) {
		for range b.N {
			if ss, err := j.Sessions(ctx, 1); err != nil || len(ss) != 1 {
				b.Fatal(ss, err)
			}
		}
	})
	b.Run("page", func(b *testing.B) {
		for range b.N {
			if p, err := j.SessionPage(ctx, journal.SessionQuery{}); err != nil || len(p.Sessions) != 100 {
				b.Fatal(len(p.Sessions), err)
			}
		}
	})
	b.Run("unknown", func(b *testing.B) {
		for range b.N {
			if p, err := j.Unknown(ctx, journal.UnknownQuery{}); err != nil || len(p.Invocations) != 6 {
				b.Fatal(len(p.Invocations), err)
			}
		}
	})
}
