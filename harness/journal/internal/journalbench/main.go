// Command journalbench measures the journal at scale for scripts/bench.sh
// (docs/journal.md#scale). It prints figures; it asserts nothing.
//
//	journalbench gen -db FILE -sessions N   append N generated sessions (journalgen) through the journal's API
//	journalbench newest -db FILE [-rounds R] [FILE...]  median time of Sessions(ctx, 1), the query
//	                                        `journal show` makes, on each file in turn, and each to the first's
//	journalbench show -db FILE [-rounds R] [FILE...]    the same for what `journal show` does: open
//	                                        (without the check at Open), the newest session's detail, close
//	journalbench verify -db FILE            Verify, with its time and this process's peak memory
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/journal/internal/journalgen"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: journalbench gen|newest|show|verify -db FILE [flags]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	db := fs.String("db", "", "journal file")
	sessions := fs.Int("sessions", 1000, "gen: sessions to append")
	rounds := fs.Int("rounds", 500, "newest: timed rounds")
	profile := fs.String("cpuprofile", "", "write a CPU profile to this file")
	fs.Parse(os.Args[2:])
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "journalbench:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if *db == "" {
		fmt.Fprintln(os.Stderr, "journalbench: -db FILE is required")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "gen":
		err = gen(*db, *sessions)
	case "newest":
		err = newest(append([]string{*db}, fs.Args()...), *rounds)
	case "show":
		err = show(append([]string{*db}, fs.Args()...), *rounds)
	case "verify":
		err = verify(*db)
	default:
		err = fmt.Errorf("unknown mode %q; use gen, newest, show or verify", os.Args[1])
	}
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, "journalbench:", err)
		os.Exit(1)
	}
}

// gen appends n sessions, their times continuing after the newest one.
func gen(path string, n int) error {
	ctx := context.Background()
	start := time.Date(2025, 1, 1, 8, 0, 0, 0, time.UTC)
	first := 0
	if j, err := journal.Open(path, nil); err == nil {
		if ss, err := j.Sessions(ctx, 0); err == nil && len(ss) > 0 {
			// A session takes about 30 readings of the clock: an hour
			// after the newest one is after everything written.
			start, first = ss[0].CreatedAt.Add(time.Hour), len(ss)
		}
		j.Close()
	}
	j, err := journal.Open(path, &journal.Options{Now: journalgen.NewClock(start, time.Second).Now})
	if err != nil {
		return err
	}
	defer j.Close()
	t0 := time.Now()
	unknown, err := journalgen.Generate(ctx, j, first, n, journalgen.Shape{})
	if err != nil {
		return err
	}
	el := time.Since(t0)
	fi, _ := os.Stat(path)
	fmt.Printf("generated %d sessions (%d calls unknown) in %.1f s (%.0f sessions/s); %s now %.0f MB\n",
		n, unknown, el.Seconds(), float64(n)/el.Seconds(), path, float64(fi.Size())/1e6)
	return nil
}

// newest times Sessions(ctx, 1) on each file, the files taking turns so
// that they see the same load on a shared machine, and prints for each
// file its median in µs, then the ratio of each median to the first.
func newest(paths []string, rounds int) error {
	ctx := context.Background()
	var js []*journal.Journal
	for _, p := range paths {
		j, err := journal.Open(p, nil)
		if err != nil {
			return err
		}
		defer j.Close()
		js = append(js, j)
	}
	return inTurns(len(js), rounds, func(i int) error {
		_, err := js[i].Sessions(ctx, 1)
		return err
	})
}

// show times what `journal show` without an id does, but the check at
// Open (quick_check reads the whole file; Options.DeferCheck): open the
// journal, read the newest session and its detail, close; the files in
// turns, as newest prints.
func show(paths []string, rounds int) error {
	ctx := context.Background()
	return inTurns(len(paths), rounds, func(i int) error {
		j, err := journal.Open(paths[i], &journal.Options{DeferCheck: true})
		if err != nil {
			return err
		}
		defer j.Close()
		ss, err := j.Sessions(ctx, 1)
		if err == nil && len(ss) == 1 {
			_, err = j.Detail(ctx, ss[0].ID)
		}
		return err
	})
}

// inTurns runs do(0), do(1), … do(n-1) rounds times (after 5 rounds to
// warm the caches) and prints the median of each in µs, then the ratio of
// each median to the first's.
func inTurns(n, rounds int, do func(i int) error) error {
	ts := make([][]float64, n)
	for r := -5; r < rounds; r++ {
		for i := range n {
			t0 := time.Now()
			if err := do(i); err != nil {
				return err
			}
			if r >= 0 {
				ts[i] = append(ts[i], float64(time.Since(t0).Nanoseconds())/1e3)
			}
		}
	}
	var medians, ratios []string
	for i := range ts {
		slices.Sort(ts[i])
		ts[i][0] = ts[i][len(ts[i])/2] // the median
		medians = append(medians, fmt.Sprintf("%.1f", ts[i][0]))
		if i > 0 {
			ratios = append(ratios, fmt.Sprintf("%.2f", ts[i][0]/ts[0][0]))
		}
	}
	fmt.Println(strings.Join(medians, " "))
	fmt.Println(strings.Join(ratios, " "))
	return nil
}

// verify runs Verify and prints its time, the process's peak resident
// memory (VmHWM, Linux) and the Go heap's peak in-use size as sampled.
func verify(path string) error {
	ctx := context.Background()
	j, err := journal.Open(path, nil)
	if err != nil {
		return err
	}
	defer j.Close()
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() { // sample the Go heap every 20 ms
		var m runtime.MemStats
		var max uint64
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			runtime.ReadMemStats(&m)
			max = maxOf(max, m.HeapInuse)
			select {
			case <-done:
				peak <- max
				return
			case <-tick.C:
			}
		}
	}()
	t0 := time.Now()
	rep, err := j.Verify(ctx)
	el := time.Since(t0)
	close(done)
	heap := <-peak
	if err != nil {
		return err
	}
	fmt.Printf("verify ok=%v entries=%d rows=%d in %.2f s; peak RSS %s MiB, Go heap in use <= %.0f MiB\n",
		rep.OK, rep.Entries, rep.Rows, el.Seconds(), vmHWM(), float64(heap)/(1<<20))
	return nil
}

func maxOf(a, b uint64) uint64 {
	if a > b {
		return a
	}
	return b
}

// vmHWM is the process's peak resident set in MiB, from /proc/self/status
// ("?" where there is none).
func vmHWM() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "?"
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(v), "%f", &kb)
			return fmt.Sprintf("%.0f", kb/1024)
		}
	}
	return "?"
}
