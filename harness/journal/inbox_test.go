package journal

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func init() { testChildren["JOURNAL_INBOX_ANSWER_CHILD"] = inboxAnswerChild }

// addApproval adds an open approval item in session sid.
func addApproval(t *testing.T, j *Journal, sid string) InboxItem {
	t.Helper()
	it, err := j.AddInboxItem(context.Background(), InboxItem{Kind: InboxApproval, Coworker: "demo", SessionID: sid,
		TurnID: sid + "-t1", InvocationID: "inv_x", CallID: "call-x", Tool: "notes.append",
		Asked: json.RawMessage(`{"tool":"notes.append","arguments":{"text":"hi"}}`)})
	if err != nil {
		t.Fatalf("AddInboxItem = %v", err)
	}
	return it
}

// TestInboxLifecycle: an item is written open, listed, answered once; a
// second answer is told who won and with what; the answer is consumed
// once; every state is chained and verifies.
func TestInboxLifecycle(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "ses_a")
	it := addApproval(t, j, "ses_a")
	if !strings.HasPrefix(it.ID, "inb_") || it.Status != InboxOpen || it.CreatedAt.IsZero() {
		t.Fatalf("added item = %+v", it)
	}
	open, err := j.Inbox(ctx, InboxFilter{})
	if err != nil || len(open) != 1 || open[0].ID != it.ID || string(open[0].Asked) != string(it.Asked) {
		t.Fatalf("Inbox() = %+v, %v", open, err)
	}
	got, err := j.AnswerInboxItem(ctx, it.ID, json.RawMessage(`"allow_once"`), "terminal")
	if err != nil || got.Status != InboxAnswered || string(got.Answer) != `"allow_once"` || got.AnsweredBy != "terminal" || got.AnsweredAt.IsZero() {
		t.Fatalf("AnswerInboxItem = %+v, %v", got, err)
	}
	_, err = j.AnswerInboxItem(ctx, it.ID, json.RawMessage(`"deny"`), "window")
	var ae *AnsweredError
	if !errors.Is(err, ErrAlreadyAnswered) || !errors.As(err, &ae) || string(ae.Item.Answer) != `"allow_once"` || ae.Item.AnsweredBy != "terminal" {
		t.Fatalf("second answer = %v; want an AnsweredError naming the terminal's allow_once", err)
	}
	if !strings.Contains(err.Error(), "already answered") || !strings.Contains(err.Error(), it.ID) {
		t.Errorf("second answer's message %q does not say the item was already answered", err)
	}
	// A withdrawal after the answer is told the answer, to honour it.
	if _, err := j.CloseInboxItem(ctx, it.ID, InboxCancelled, "turn ended"); !errors.As(err, &ae) || string(ae.Item.Answer) != `"allow_once"` {
		t.Fatalf("CloseInboxItem after the answer = %v", err)
	}
	if open, _ := j.Inbox(ctx, InboxFilter{}); len(open) != 0 {
		t.Fatalf("answered item still listed as open: %+v", open)
	}
	if _, err := j.ConsumeInboxItem(ctx, it.ID); err != nil {
		t.Fatalf("ConsumeInboxItem = %v", err)
	}
	if _, err := j.ConsumeInboxItem(ctx, it.ID); !errors.Is(err, ErrAlreadyConsumed) {
		t.Fatalf("second ConsumeInboxItem = %v; want ErrAlreadyConsumed", err)
	}
	final, err := j.InboxItem(ctx, it.ID)
	if err != nil || final.Status != InboxConsumed || final.ConsumedAt.IsZero() || string(final.Answer) != `"allow_once"` {
		t.Fatalf("InboxItem after consume = %+v, %v", final, err)
	}
	if _, err := j.InboxItem(ctx, "inb_none"); !errors.Is(err, ErrNotFound) {
		t.Errorf("InboxItem(inb_none) = %v; want ErrNotFound", err)
	}
	if _, err := j.AnswerInboxItem(ctx, "inb_none", json.RawMessage(`"deny"`), "x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("AnswerInboxItem(inb_none) = %v; want ErrNotFound", err)
	}
	// An open item cannot be consumed; a withdrawn one takes no answer.
	it2 := addApproval(t, j, "ses_a")
	if _, err := j.ConsumeInboxItem(ctx, it2.ID); !errors.Is(err, ErrAlreadyConsumed) {
		t.Errorf("ConsumeInboxItem(open) = %v; want ErrAlreadyConsumed", err)
	}
	if c, err := j.CloseInboxItem(ctx, it2.ID, InboxExpired, "deadline"); err != nil || c.Status != InboxExpired || c.Answer != nil {
		t.Fatalf("CloseInboxItem = %+v, %v", c, err)
	}
	if _, err := j.AnswerInboxItem(ctx, it2.ID, json.RawMessage(`"allow_once"`), "terminal"); !errors.Is(err, ErrAlreadyAnswered) ||
		!strings.Contains(err.Error(), "expired") {
		t.Errorf("answer of an expired item = %v; want ErrAlreadyAnswered saying it expired", err)
	}
	all, err := j.Inbox(ctx, InboxFilter{Statuses: []InboxStatus{InboxConsumed, InboxExpired}, SessionID: "ses_a"})
	if err != nil || len(all) != 2 || all[0].ID != it.ID || all[1].ID != it2.ID {
		t.Errorf("Inbox(consumed, expired) = %+v, %v", all, err)
	}
	for _, bad := range []InboxItem{
		{Kind: "nag", Coworker: "demo", Asked: json.RawMessage(`{}`)},
		{Kind: InboxQuestion, Asked: json.RawMessage(`{}`)},
		{Kind: InboxQuestion, Coworker: "demo"},
		{Kind: InboxQuestion, Coworker: "demo", Asked: json.RawMessage(`{`)},
		{Kind: InboxQuestion, Coworker: "demo", SessionID: "ses_none", Asked: json.RawMessage(`{}`)},
	} {
		if _, err := j.AddInboxItem(ctx, bad); err == nil {
			t.Errorf("AddInboxItem(%+v) = nil; want an error", bad)
		}
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify: %+v", rep.First)
	}
}

// TestInboxConsumedWithTheCall: an approval from the inbox is consumed in
// the commit that begins the call; a second begin with the same item
// fails and writes nothing, and so does a refusal.
func TestInboxConsumedWithTheCall(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "ses_c")
	it := addApproval(t, j, "ses_c")
	if _, err := j.AnswerInboxItem(ctx, it.ID, json.RawMessage(`"allow_once"`), "cli"); err != nil {
		t.Fatal(err)
	}
	inv := func(id string) Invocation {
		return Invocation{ID: id, SessionID: "ses_c", TurnID: "ses_c-t1", CallID: "call-x", Tool: "notes.append",
			Arguments: json.RawMessage(`{"text":"hi"}`)}
	}
	appr := func() *Approval {
		return &Approval{SessionID: "ses_c", Decision: "allow_once", Source: "inbox", InboxItem: it.ID}
	}
	if err := j.BeginInvocation(ctx, inv("inv_1"), appr()); err != nil {
		t.Fatalf("BeginInvocation = %v", err)
	}
	if got, _ := j.InboxItem(ctx, it.ID); got.Status != InboxConsumed {
		t.Fatalf("item after BeginInvocation is %s; want consumed", got.Status)
	}
	if err := j.BeginInvocation(ctx, inv("inv_2"), appr()); !errors.Is(err, ErrAlreadyConsumed) {
		t.Fatalf("second BeginInvocation = %v; want ErrAlreadyConsumed", err)
	}
	r := inv("inv_3")
	r.ErrorCode = "denied"
	a := appr()
	a.Decision = "deny"
	if err := j.RefuseInvocation(ctx, r, a); !errors.Is(err, ErrAlreadyConsumed) {
		t.Fatalf("RefuseInvocation with a consumed item = %v; want ErrAlreadyConsumed", err)
	}
	for _, id := range []string{"inv_2", "inv_3"} {
		if _, err := j.Invocation(ctx, id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Invocation(%s) = %v; want ErrNotFound (nothing written)", id, err)
		}
	}
	if as, _ := j.Approvals(ctx, "ses_c"); len(as) != 1 {
		t.Errorf("%d approvals journaled; want 1", len(as))
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify: %+v", rep.First)
	}
}

// TestInboxTwoAnswersAtOnce: goroutines answering the same items at once
// through two Journals on one file: each item has exactly one winner, and
// every loser is told the winner's answer.
func TestInboxTwoAnswersAtOnce(t *testing.T) {
	patientBusy(t)
	ctx := context.Background()
	path := testPath(t)
	j1 := openAt(t, path)
	j2 := openAt(t, path)
	mkSession(t, j1, "ses_r")
	for round := 0; round < 20; round++ {
		it := addApproval(t, j1, "ses_r")
		var wg sync.WaitGroup
		start := make(chan struct{})
		type result struct {
			by  string
			it  InboxItem
			err error
		}
		res := make([]result, 4)
		for i := range res {
			wg.Add(1)
			go func() {
				defer wg.Done()
				j, by := j1, fmt.Sprintf("g%d", i)
				if i%2 == 1 {
					j = j2
				}
				<-start
				got, err := j.AnswerInboxItem(ctx, it.ID, json.RawMessage(fmt.Sprintf(`"%s"`, by)), by)
				res[i] = result{by, got, err}
			}()
		}
		close(start)
		wg.Wait()
		winners := 0
		var winner string
		for _, r := range res {
			if r.err == nil {
				winners++
				winner = r.by
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d winners; want 1: %+v", round, winners, res)
		}
		for _, r := range res {
			var ae *AnsweredError
			if r.err != nil && (!errors.As(r.err, &ae) || ae.Item.AnsweredBy != winner || string(ae.Item.Answer) != `"`+winner+`"`) {
				t.Fatalf("round %d: loser %s got %v; want an AnsweredError naming %s", round, r.by, r.err, winner)
			}
		}
	}
}

// TestInboxTwoProcessesAnswer: two OS processes answer the same items on
// one SQLite file at once; each item has exactly one winner and the other
// process is told "already answered".
func TestInboxTwoProcessesAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "journal.db")
	j := openAt(t, path)
	mkSession(t, j, "ses_p")
	type child struct {
		cmd *exec.Cmd
		in  *bufio.Writer
		out *bufio.Reader
	}
	var kids []child
	for i := 0; i < 2; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "JOURNAL_INBOX_ANSWER_CHILD="+path)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { stdin.Close(); cmd.Process.Kill(); cmd.Wait() })
		kids = append(kids, child{cmd, bufio.NewWriter(stdin), bufio.NewReader(stdout)})
	}
	readLine := func(k child) string {
		ch := make(chan string, 1)
		go func() { s, _ := k.out.ReadString('\n'); ch <- strings.TrimSpace(s) }()
		select {
		case s := <-ch:
			return s
		case <-time.After(60 * time.Second):
			t.Fatal("a child said nothing in 60 s")
			return ""
		}
	}
	for _, k := range kids {
		if s := readLine(k); s != "ready" {
			t.Fatalf("child said %q; want ready", s)
		}
	}
	for round := 0; round < 20; round++ {
		it := addApproval(t, j, "ses_p")
		for _, k := range kids {
			fmt.Fprintln(k.in, it.ID)
			k.in.Flush()
		}
		won := 0
		var lost []string
		for _, k := range kids {
			s := readLine(k)
			switch {
			case strings.HasPrefix(s, "won"):
				won++
			case strings.HasPrefix(s, "lost:"):
				lost = append(lost, s)
			default:
				t.Fatalf("round %d: child said %q", round, s)
			}
		}
		if won != 1 || len(lost) != 1 || !strings.Contains(lost[0], "already answered") {
			t.Fatalf("round %d: %d won, lost %q; want one winner and one told it was already answered", round, won, lost)
		}
		got, err := j.InboxItem(ctx, it.ID)
		if err != nil || got.Status != InboxAnswered || !strings.HasPrefix(got.AnsweredBy, "pid ") {
			t.Fatalf("round %d: item = %+v, %v", round, got, err)
		}
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Fatalf("Verify: %+v", rep.First)
	}
}

// inboxAnswerChild opens the journal at path and answers each item ID read
// from stdin, printing "won" or "lost: <error>".
func inboxAnswerChild(path string) {
	busyTimeoutMS = 60_000
	j, err := Open(path, nil)
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(2)
	}
	fmt.Println("ready")
	by := fmt.Sprintf("pid %d", os.Getpid())
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		_, err := j.AnswerInboxItem(context.Background(), strings.TrimSpace(sc.Text()), json.RawMessage(`"allow_once"`), by)
		switch {
		case err == nil:
			fmt.Println("won")
		case errors.Is(err, ErrAlreadyAnswered):
			fmt.Println("lost:", err)
		default:
			fmt.Println("error:", err)
		}
	}
	j.Close()
	os.Exit(0)
}

// TestRunStatus: a session with an open inbox item is waiting on you,
// whatever its last turn says; answered, it waits to resume; then the
// last turn speaks.
func TestRunStatus(t *testing.T) {
	ctx := context.Background()
	j := openTest(t)
	mkSession(t, j, "ses_s")
	if err := j.FinishTurn(ctx, "ses_s-t1", TurnCompleted, "", 1, 0); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		t.Helper()
		d, err := j.Detail(ctx, "ses_s")
		if err != nil {
			t.Fatal(err)
		}
		items, err := j.Inbox(ctx, InboxFilter{SessionID: "ses_s", Statuses: []InboxStatus{InboxOpen, InboxAnswered, InboxConsumed}})
		if err != nil {
			t.Fatal(err)
		}
		return RunStatus(d, items)
	}
	if got := run(); got != "succeeded" {
		t.Fatalf("RunStatus = %q", got)
	}
	it := addApproval(t, j, "ses_s")
	if got := run(); got != "waiting on you: "+it.ID+" (approval of notes.append)" {
		t.Fatalf("RunStatus with an open item = %q", got)
	}
	if _, err := j.AnswerInboxItem(ctx, it.ID, json.RawMessage(`"allow_once"`), "cli"); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != "answered, waiting to resume" {
		t.Fatalf("RunStatus with an answered item = %q", got)
	}
	if _, err := j.ConsumeInboxItem(ctx, it.ID); err != nil {
		t.Fatal(err)
	}
	if got := run(); got != "succeeded" {
		t.Fatalf("RunStatus after = %q", got)
	}
}
