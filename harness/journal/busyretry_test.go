package journal

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// quickBusy makes the journals of a test give up on a held lock fast: the
// busy timeout and the retries both short.
func quickBusy(t *testing.T) {
	oldT, oldR := busyTimeoutMS, busyRetryFor
	busyTimeoutMS, busyRetryFor = 50, 200*time.Millisecond
	t.Cleanup(func() { busyTimeoutMS, busyRetryFor = oldT, oldR })
}

// holdLock takes the write lock of path on a connection of its own until
// the returned func is called.
func holdLock(t *testing.T, path string) (release func()) {
	t.Helper()
	db := rawDB(t, path)
	tx, err := db.BeginTx(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(`UPDATE sessions SET error = error WHERE 0`); err != nil {
		t.Fatal(err)
	}
	return func() { tx.Rollback() }
}

// executing opens path, starts a session and one executing call.
func executing(t *testing.T, path, sid, inv string) *Journal {
	t.Helper()
	j, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mkSession(t, j, sid)
	if err := j.BeginInvocation(context.Background(), Invocation{ID: inv, SessionID: sid, TurnID: sid + "-t1", Tool: "files.write", Arguments: json.RawMessage(`{}`)},
		&Approval{SessionID: sid, Decision: "allow_once", Source: "prompt"}); err != nil {
		t.Fatal(err)
	}
	return j
}

// TestBusyOutcomeKeptAndWrittenWhenFree: the final row of a call that ran
// meets a journal held past every retry; the outcome is kept (in memory
// and in the outbox file), and the next write, once the lock is free,
// writes it: succeeded, as it was.
func TestBusyOutcomeKeptAndWrittenWhenFree(t *testing.T) {
	quickBusy(t)
	path := testPath(t)
	j := executing(t, path, "s1", "inv1")
	defer j.Close()
	release := holdLock(t, path)
	err := j.FinishInvocation(context.Background(), "inv1", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"ok":1}`)})
	if !errors.Is(err, ErrFinishDeferred) || j.Pending() != 1 {
		t.Fatalf("FinishInvocation on a held journal = %v, pending %d; want ErrFinishDeferred and 1 kept", err, j.Pending())
	}
	file, _ := outboxFile(path, "inv1")
	if _, err := os.Stat(file); err != nil {
		t.Fatalf("outbox file: %v", err)
	}
	release()
	if err := j.Warn(context.Background(), "s1", "", "x", "the next write"); err != nil {
		t.Fatal(err)
	}
	inv, err := j.Invocation(context.Background(), "inv1")
	if err != nil || inv.Status != InvSucceeded || string(inv.Result) != `{"ok":1}` || j.Pending() != 0 {
		t.Fatalf("after the lock is free: %+v, %v, pending %d; want succeeded with its result", inv, err, j.Pending())
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("outbox file left after the write: %v", err)
	}
}

// TestBusyOutcomeWrittenByNextOpen: the process ends while the journal is
// still held; the next Open writes the kept outcome as succeeded with the
// honest reason, not "unknown" with "the app stopped".
func TestBusyOutcomeWrittenByNextOpen(t *testing.T) {
	quickBusy(t)
	path := testPath(t)
	j := executing(t, path, "s1", "inv1")
	release := holdLock(t, path)
	if err := j.FinishInvocation(context.Background(), "inv1", Finish{Status: InvSucceeded, Result: json.RawMessage(`{"ok":1}`)}); !errors.Is(err, ErrFinishDeferred) {
		t.Fatalf("FinishInvocation = %v; want ErrFinishDeferred", err)
	}
	j.Close() // its last try meets the lock too: the outbox file stays
	release()
	k := openAt(t, path)
	inv, err := k.Invocation(context.Background(), "inv1")
	if err != nil || inv.Status != InvSucceeded || inv.ErrorCode != BusyCode || !strings.Contains(inv.Error, "the journal was busy") ||
		!strings.Contains(inv.Error, "the call succeeded") || k.Recovered() != 0 {
		t.Fatalf("after the next Open: %+v (recovered %d); want succeeded, %s, the journal was busy … the call succeeded", inv, k.Recovered(), BusyCode)
	}
	if rep := mustVerify(t, k); !rep.OK {
		t.Errorf("Verify = %+v", rep.First)
	}
}

// TestFiftyConcurrentRuns: 50 writer processes (this test binary as a
// child, each opening the journal as `openworker run` does), each running
// a session of three calls on one journal, with the default busy timeout
// and retries: none refused, every outcome written as it was. It logs how
// long they took (docs/journal.md#busy). The children's busy timeout is 1
// ms, so that SQLite's own wait never suffices and every contended write
// rests on the retries (with busyRetryFor 0 the children are refused);
// the default 5 s timeout is the easier case.
func TestFiftyConcurrentRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("50 processes: seconds to a minute on a loaded machine")
	}
	const writers, calls = 50, 3
	path := testPath(t)
	openAt(t, path).Close()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	outs := make([]string, writers)
	errs := make([]error, writers)
	start := time.Now()
	for i := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(exe, "-test.run=^$")
			cmd.Env = append(os.Environ(), "JOURNAL_WRITER_CHILD="+path, fmt.Sprintf("JOURNAL_WRITER_SESSION=ses_%02d", i), "JOURNAL_WRITER_BUSY_MS=1")
			out, err := cmd.CombinedOutput()
			outs[i], errs[i] = strings.TrimSpace(string(out)), err
		}()
	}
	wg.Wait()
	took := time.Since(start)
	refused := 0
	for i := range writers {
		if errs[i] != nil || outs[i] != "ok" {
			refused++
			t.Errorf("writer %d: %v: %s", i, errs[i], outs[i])
		}
	}
	j := openAt(t, path)
	sids := make([]string, writers)
	for i := range sids {
		sids[i] = fmt.Sprintf("ses_%02d", i)
	}
	checkSessions(t, j, calls, sids...)
	if n := j.Recovered(); n != 0 {
		t.Errorf("the next Open recovered %d calls as unknown; want 0", n)
	}
	t.Logf("%d concurrent writer processes x %d calls: %d refused, took %s", writers, calls, refused, took.Round(time.Millisecond))
}

func init() {
	testChildren["JOURNAL_WRITER_CHILD"] = func(path string) {
		ctx := context.Background()
		if ms, err := strconv.Atoi(os.Getenv("JOURNAL_WRITER_BUSY_MS")); err == nil {
			busyTimeoutMS = ms
		}
		if os.Getenv("JOURNAL_WRITER_NO_RETRY") != "" {
			busyRetryFor = 0
		}
		j, err := Open(path, nil)
		if err == nil {
			err = writeSession(ctx, j, os.Getenv("JOURNAL_WRITER_SESSION"), 3)
		}
		if err == nil && j.Pending() > 0 {
			err = fmt.Errorf("%d outcomes still kept", j.Pending())
		}
		if j != nil {
			j.Close()
		}
		if err != nil {
			fmt.Println("error:", err)
			os.Exit(1)
		}
		fmt.Println("ok")
	}
}
