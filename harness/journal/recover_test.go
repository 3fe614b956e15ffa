package journal

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReopenRecoversExecuting(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if j.Recovered() != 0 {
		t.Errorf("Recovered() on a new file = %d", j.Recovered())
	}
	mkSession(t, j, "s1")
	for _, id := range []string{"e1", "e2", "p1", "done"} {
		prepare(t, j, "s1", id)
	}
	j.MarkExecuting(ctx, "e1")
	j.MarkExecuting(ctx, "e2")
	j.MarkExecuting(ctx, "done")
	j.FinishInvocation(ctx, "done", Finish{Status: InvSucceeded})
	j.Close() // a Close without finishing is a stop too

	j2 := openAt(t, path)
	if j2.Recovered() != 2 {
		t.Errorf("Recovered() = %d, want 2", j2.Recovered())
	}
	for id, want := range map[string]InvocationStatus{"e1": InvUnknown, "e2": InvUnknown, "p1": InvPrepared, "done": InvSucceeded} {
		inv, err := j2.Invocation(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if inv.Status != want {
			t.Errorf("%s status = %q, want %q", id, inv.Status, want)
		}
		if want == InvUnknown && (inv.Error != RecoveredReason || inv.ErrorCode != RecoveredCode ||
			inv.Effect != EffectUnknown || inv.FinishedAt.IsZero()) {
			t.Errorf("%s recovered as %+v", id, inv)
		}
	}
	if rep := mustVerify(t, j2); !rep.OK {
		t.Errorf("Verify after recovery: %v", rep.First)
	}
	// Recovery is not repeated, and unknown calls are never re-run.
	j2.Close()
	j3 := openAt(t, path)
	if j3.Recovered() != 0 {
		t.Errorf("second reopen Recovered() = %d, want 0", j3.Recovered())
	}
	if err := j3.Reconcile(ctx, "e1", OutcomeApplied); err != nil {
		t.Errorf("Reconcile(recovered) = %v", err)
	}
}

// TestLiveOwnerNotRecovered: the app and a CLI run share journal.db; one
// opening the file must not declare the other's running call unknown.
func TestLiveOwnerNotRecovered(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	a := openAt(t, path)
	mkSession(t, a, "s1")
	prepare(t, a, "s1", "running")
	if err := a.MarkExecuting(ctx, "running"); err != nil {
		t.Fatal(err)
	}
	b, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b.Recovered() != 0 || status(t, b, "running") != InvExecuting {
		t.Fatalf("second Journal recovered a live call: Recovered()=%d status=%s", b.Recovered(), status(t, b, "running"))
	}
	b.Close()
	if err := a.FinishInvocation(ctx, "running", Finish{Status: InvSucceeded}); err != nil {
		t.Fatalf("owner could not finish its call: %v", err)
	}
	// Lease files of closed Journals are removed.
	ents, _ := os.ReadDir(ownersDir(a.Path()))
	if len(ents) != 2 || !strings.HasPrefix(ents[0].Name(), a.owner.token) || !strings.HasPrefix(ents[1].Name(), a.owner.token) {
		t.Errorf("lease files = %v, want only %s's .lock and .who", ents, a.owner.token)
	}
}

// TestCrashRecovery runs a child process that marks an invocation
// executing and is then killed with SIGKILL (TerminateProcess on Windows)
// while "doing I/O": reopening shows the call unknown.
func TestCrashRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	path := filepath.Join(t.TempDir(), "journal.db")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "JOURNAL_CRASH_CHILD="+path)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		if strings.TrimSpace(s) != "executing" {
			t.Fatalf("child said %q", s)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("child did not reach executing in 60 s")
	}

	// While the child lives, its call is not ours to recover.
	live, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if live.Recovered() != 0 || status(t, live, "inv_crash") != InvExecuting {
		t.Errorf("call of a live child: Recovered()=%d status=%s", live.Recovered(), status(t, live, "inv_crash"))
	}
	if live.RecoveredTurns() != 0 || turnStatus(t, live, "ses_crash", "ses_crash-t1") != TurnRunning {
		t.Errorf("turn of a live child: RecoveredTurns()=%d status=%s", live.RecoveredTurns(), turnStatus(t, live, "ses_crash", "ses_crash-t1"))
	}
	live.Close()

	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	j := openAt(t, path)
	if j.Recovered() != 1 {
		t.Errorf("Recovered() after SIGKILL = %d, want 1", j.Recovered())
	}
	inv, err := j.Invocation(context.Background(), "inv_crash")
	if err != nil {
		t.Fatal(err)
	}
	// The dead process is named (its lease's .who), not "the app".
	wantReason := fmt.Sprintf("the process that ran this call, pid %d (%s, the desktop app), stopped while it was running; it needs reconciliation", cmd.Process.Pid, strings.TrimSuffix(filepath.Base(os.Args[0]), ".exe"))
	if inv.Status != InvUnknown || inv.Error != wantReason {
		t.Errorf("after crash: status %q error %q; want unknown, %q", inv.Status, inv.Error, wantReason)
	}
	if d, _ := j.Detail(context.Background(), "ses_crash"); len(d.Turns) != 1 || !strings.HasSuffix(d.Turns[0].Reason, ") stopped during this turn") {
		t.Errorf("after crash: turn %+v; want its reason to name the process", d.Turns)
	}
	if j.RecoveredTurns() != 3 || turnStatus(t, j, "ses_crash", "ses_crash-t1") != TurnFailed {
		t.Errorf("after crash: RecoveredTurns()=%d turn %s; want 3, failed", j.RecoveredTurns(), turnStatus(t, j, "ses_crash", "ses_crash-t1"))
	}
	// A turn that ended with the model's final reply did its work; one
	// whose last message asks for a call did not (docs/journal.md#recovery).
	if got := turnStatus(t, j, "ses_replied", "ses_replied-t1"); got != TurnCompleted {
		t.Errorf("turn whose last message is the final reply: %s; want completed", got)
	}
	if d, _ := j.Detail(context.Background(), "ses_replied"); len(d.Turns) != 1 || !strings.HasSuffix(d.Turns[0].Reason, "after the model's final reply was recorded") {
		t.Errorf("turn completed by recovery: %+v; want its reason to say so", d.Turns)
	}
	if got := turnStatus(t, j, "ses_asked", "ses_asked-t1"); got != TurnFailed {
		t.Errorf("turn whose last message asks for a call: %s; want failed", got)
	}
	if s, _ := j.Session(context.Background(), "ses_crash"); s.Status != SessionOpen {
		t.Errorf("session after crash = %s; recovery leaves sessions alone", s.Status)
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify after crash: %v", rep.First)
	}
	// The dead child's lease file is swept once it is old enough; its .who
	// stays a while (whoKeep) to name it should more of its rows turn up.
	defer func(d time.Duration) { staleLeaseAge = d }(staleLeaseAge)
	staleLeaseAge = 0
	j.Close()
	j = openAt(t, path)
	ents, _ := os.ReadDir(ownersDir(j.Path()))
	var locks []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".lock") {
			locks = append(locks, e.Name())
		}
	}
	if len(locks) != 1 || locks[0] != j.owner.token+".lock" {
		t.Errorf("lease files after crash recovery = %v, want only our .lock", ents)
	}
}

func turnStatus(t *testing.T, j *Journal, sid, id string) TurnStatus {
	t.Helper()
	ts, err := j.Turns(context.Background(), sid)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range ts {
		if tr.ID == id {
			return tr.Status
		}
	}
	t.Fatalf("turn %s not in session %s", id, sid)
	return ""
}

// TestReopenFailsRunningTurns: a turn still running when its Journal went
// away becomes failed with RecoveredTurnReason; finished turns, the turns
// of a live Journal and the session itself are left alone.
func TestReopenFailsRunningTurns(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	j, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mkSession(t, j, "s1") // turn s1-t1, running
	// In s1-t1 the model replied once and asked for a call that started.
	if _, err := j.AppendMessage(ctx, Message{SessionID: "s1", TurnID: "s1-t1", Role: "assistant", Content: json.RawMessage(`{"role":"assistant"}`)}); err != nil {
		t.Fatal(err)
	}
	prepare(t, j, "s1", "inv-t1")
	if err := j.MarkExecuting(ctx, "inv-t1"); err != nil {
		t.Fatal(err)
	}
	if err := j.StartTurn(ctx, Turn{ID: "s1-t2", SessionID: "s1", Prompt: "done"}); err != nil {
		t.Fatal(err)
	}
	if err := j.FinishTurn(ctx, "s1-t2", TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	live := openAt(t, path) // another process, still running its own turn
	if live.RecoveredTurns() != 0 {
		t.Errorf("RecoveredTurns() while the owner lives = %d", live.RecoveredTurns())
	}
	if err := live.StartTurn(ctx, Turn{ID: "s1-live", SessionID: "s1", Prompt: "mine"}); err != nil {
		t.Fatal(err)
	}
	j.Close()

	j2 := openAt(t, path)
	if j2.RecoveredTurns() != 1 || j2.Recovered() != 1 {
		t.Errorf("RecoveredTurns() = %d, Recovered() = %d; want 1, 1", j2.RecoveredTurns(), j2.Recovered())
	}
	ts, err := j2.Turns(ctx, "s1")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]TurnStatus{"s1-t1": TurnFailed, "s1-t2": TurnCompleted, "s1-live": TurnRunning}
	for _, tr := range ts {
		if tr.Status != want[tr.ID] {
			t.Errorf("turn %s = %s, want %s", tr.ID, tr.Status, want[tr.ID])
		}
		if tr.ID == "s1-t1" && (tr.Reason != RecoveredTurnReason || tr.FinishedAt.IsZero() || tr.Attempts != 1 || tr.Calls != 1) {
			t.Errorf("recovered turn = %+v; want its reason, an end time, and the 1 reply and 1 call the journal holds", tr)
		}
	}
	if s, _ := j2.Session(ctx, "s1"); s.Status != SessionOpen {
		t.Errorf("session = %s; recovery leaves sessions alone", s.Status)
	}
	if err := j2.StartTurn(ctx, Turn{ID: "s1-t4", SessionID: "s1", Prompt: "again"}); err != nil {
		t.Errorf("a new turn after recovery: %v", err)
	}
	if err := live.FinishTurn(ctx, "s1-live", TurnCompleted, "", 1, 0); err != nil {
		t.Errorf("the live owner could not finish its turn: %v", err)
	}
	if rep := mustVerify(t, j2); !rep.OK {
		t.Errorf("Verify after turn recovery: %v", rep.First)
	}
}
