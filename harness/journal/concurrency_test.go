package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"
)

// writeSession runs n full invocations in session sid.
func writeSession(ctx context.Context, j *Journal, sid string, n int) error {
	if err := j.CreateSession(ctx, Session{ID: sid, Coworker: "demo", Identity: "id"}); err != nil {
		return err
	}
	if err := j.StartTurn(ctx, Turn{ID: sid + "-t", SessionID: sid}); err != nil {
		return err
	}
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("%s-inv%d", sid, i)
		if _, err := j.AppendMessage(ctx, Message{SessionID: sid, TurnID: sid + "-t", Role: "assistant", Content: json.RawMessage(`"call"`)}); err != nil {
			return err
		}
		if err := j.PrepareInvocation(ctx, Invocation{ID: id, SessionID: sid, TurnID: sid + "-t", Tool: "t.x", Arguments: json.RawMessage(`{}`)}); err != nil {
			return err
		}
		if err := j.MarkExecuting(ctx, id); err != nil {
			return err
		}
		if err := j.FinishInvocation(ctx, id, Finish{Status: InvSucceeded, Result: json.RawMessage(fmt.Sprintf(`{"i":%d}`, i))}); err != nil {
			return err
		}
	}
	return j.FinishTurn(ctx, sid+"-t", TurnCompleted, "", 1, n)
}

func checkSessions(t *testing.T, j *Journal, n int, sids ...string) {
	t.Helper()
	ctx := context.Background()
	for _, sid := range sids {
		invs, err := j.Invocations(ctx, sid)
		if err != nil || len(invs) != n {
			t.Fatalf("Invocations(%s) = %d rows, %v; want %d", sid, len(invs), err, n)
		}
		for _, inv := range invs {
			if inv.Status != InvSucceeded {
				t.Errorf("%s status = %s", inv.ID, inv.Status)
			}
		}
	}
	rep := mustVerify(t, j)
	if !rep.OK {
		t.Errorf("Verify after concurrent writes: %v", rep.First)
	}
}

func TestConcurrentSessions(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for g := range 2 {
		wg.Go(func() { errs[g] = writeSession(ctx, j, fmt.Sprintf("s%d", g), n) })
	}
	// Verify reads one snapshot: run while writes land, it never sees a
	// row without its chain entry or the reverse.
	stop := make(chan struct{})
	verified := make(chan int)
	go func() {
		runs := 0
		defer func() { verified <- runs }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			rep, err := j.Verify(ctx)
			if err != nil || !rep.OK {
				t.Errorf("Verify during writes = %v, %v", rep.First, err)
				return
			}
			runs++
		}
	}()
	wg.Wait()
	close(stop)
	if runs := <-verified; runs == 0 {
		t.Log("Verify did not run during the writes")
	}
	for g, err := range errs {
		if err != nil {
			t.Errorf("goroutine %d: %v", g, err)
		}
	}
	checkSessions(t, j, n, "s0", "s1")
}

// TestTwoJournalsOneFile: two *Journal (two connection pools, as two
// processes would have) write to the same file at once; BEGIN IMMEDIATE
// and the busy timeout serialize them without "database is locked".
func TestTwoJournalsOneFile(t *testing.T) {
	ctx := context.Background()
	patientBusy(t)
	path := testPath(t)
	a := openAt(t, path)
	b := openAt(t, path)
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for g, j := range []*Journal{a, b} {
		wg.Go(func() { errs[g] = writeSession(ctx, j, fmt.Sprintf("s%d", g), n) })
	}
	wg.Wait()
	for g, err := range errs {
		if err != nil {
			t.Errorf("journal %d: %v", g, err)
		}
	}
	checkSessions(t, a, n, "s0", "s1")
	checkSessions(t, b, n, "s0", "s1")
}

// TestBusyTimeoutWaits holds the write lock from a raw connection for a
// while; a journal write waits for it instead of failing.
func TestBusyTimeoutWaits(t *testing.T) {
	ctx := context.Background()
	patientBusy(t)
	path := testPath(t)
	j := openAt(t, path)
	mkSession(t, j, "s1")
	raw := rawDB(t, path)
	tx, err := raw.Begin() // BEGIN IMMEDIATE (dsn): holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- j.Warn(ctx, "s1", "", "w", "waited") }()
	select {
	case err := <-done:
		t.Fatalf("Warn returned while the lock was held: %v", err)
	case <-timeAfter(300):
	}
	tx.Rollback()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Warn after the lock was released = %v", err)
		}
	case <-timeAfter(30_000): // a hang guard: the write goes on once the lock is free
		t.Fatal("Warn did not return within 30 s of the lock's release")
	}
}

func timeAfter(ms int) <-chan time.Time { return time.After(time.Duration(ms) * time.Millisecond) }
