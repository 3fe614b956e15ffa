package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// newTestInbox is an inboxWatch over a real journal file.
func newTestInbox(t *testing.T, rec *recorder) *inboxWatch {
	t.Helper()
	j, err := journal.Open(filepath.Join(t.TempDir(), "journal.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	w := &inboxWatch{emit: rec}
	w.open(j)
	return w
}

func TestPrompterAnswersAndCancels(t *testing.T) {
	rec := newRecorder()
	m := newModalPrompter(rec, newTestInbox(t, rec).inbox)
	if err := m.Respond("inb_nope", consent.AllowOnce); err != ErrNoSuchApproval {
		t.Fatalf("unknown id: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan consent.Decision, 1)
	go func() {
		d, _ := m.Prompt(ctx, consent.Request{Coworker: "helper", Tool: "a.b"})
		done <- d
	}()
	p := rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if !strings.HasPrefix(p.ID, "inb_") {
		t.Fatalf("prompt id %q: want its inbox item's", p.ID)
	}
	if err := m.Respond(p.ID, "maybe"); err == nil {
		t.Fatal("an invalid decision was accepted")
	}
	cancel()
	select {
	case d := <-done:
		if d != consent.Deny {
			t.Fatalf("cancelled prompt = %s, want deny", d)
		}
	case <-time.After(hangGuard):
		t.Fatal("a cancelled prompt did not return")
	}
	if c := rec.waitFor(t, EventApprovalClosed, nil).(ApprovalClosed); c.Reason != "the turn was cancelled" {
		t.Fatalf("closed = %+v", c)
	}
	if pend, _ := m.Pending(nil); len(pend) != 0 {
		t.Fatal("a cancelled prompt is still pending")
	}
	err := m.Respond(p.ID, consent.AllowOnce)
	if !errors.Is(err, journal.ErrAlreadyAnswered) || !strings.Contains(err.Error(), "cancelled") {
		t.Fatalf("answering a withdrawn prompt: %v", err)
	}
}

// TestPrompterTwoAnswersAtOnce: the window and a terminal (`openworker
// inbox answer`, another Journal on the same file) answer one prompt at
// once, many times over: exactly one wins, the prompt returns the
// winner's decision, and the other is told it was already answered, by
// whom.
func TestPrompterTwoAnswersAtOnce(t *testing.T) {
	rec := newRecorder()
	w := newTestInbox(t, rec)
	m := newModalPrompter(rec, w.inbox)
	b, _ := w.inbox()
	other, err := journal.Open(b.Journal().Path(), nil) // the terminal's own connection to the file
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	for i := range 20 {
		got := make(chan consent.Decision, 1)
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			d, _ := m.Prompt(ctx, consent.Request{Coworker: "helper", Tool: "a.b"})
			got <- d
		}()
		p := rec.waitFor(t, EventApprovalRequest, func(v any) bool { return len(rec.all(EventApprovalRequest)) > i }).(PendingApproval)
		p = rec.all(EventApprovalRequest)[i].(PendingApproval)
		var wg sync.WaitGroup
		var winErr, termErr error
		wg.Add(2)
		go func() { defer wg.Done(); winErr = m.Respond(p.ID, consent.AllowOnce) }()
		go func() {
			defer wg.Done()
			_, termErr = other.AnswerInboxItem(context.Background(), p.ID, []byte(`"deny"`), "cli: inbox answer")
		}()
		wg.Wait()
		if (winErr == nil) == (termErr == nil) {
			t.Fatalf("round %d: window %v, terminal %v; want exactly one winner", i, winErr, termErr)
		}
		want := consent.AllowOnce
		loser := termErr
		if termErr == nil {
			want, loser = consent.Deny, winErr
		}
		if !errors.Is(loser, journal.ErrAlreadyAnswered) || !strings.Contains(loser.Error(), "already answered") {
			t.Fatalf("round %d: the loser was told %v", i, loser)
		}
		if termErr == nil && !strings.Contains(winErr.Error(), "cli: inbox answer") {
			t.Fatalf("round %d: the window was not told who answered: %v", i, winErr)
		}
		select {
		case d := <-got:
			if d != want {
				t.Fatalf("round %d: prompt = %s, want the winner's %s", i, d, want)
			}
		case <-time.After(hangGuard):
			t.Fatalf("round %d: the prompt did not return", i)
		}
		it, _ := b.Item(context.Background(), p.ID)
		if it.Status != journal.InboxConsumed {
			t.Fatalf("round %d: item %s, want consumed", i, it.Status)
		}
	}
}

// TestInboxNotifiesOncePerRun: while the window is not focused, the first
// item of a run raises a native notification and the next items of that
// run do not; once an item of the run is answered (or the window is
// focused) its next item notifies again; another run notifies on its own.
// The notification names the coworker and the tool, never the arguments.
func TestInboxNotifiesOncePerRun(t *testing.T) {
	rec := newRecorder()
	n := &countNotifier{}
	w := newTestInbox(t, rec)
	w.notify, w.focused = n, func() bool { return false }
	b, _ := w.inbox()
	add := func(turn, args string) journal.InboxItem {
		t.Helper()
		raw := []byte(`{"coworker":"helper","coworker_name":"Helper","tool":"notes.append","arguments":` + args + `}`)
		it, err := b.Add(context.Background(), journal.InboxItem{Kind: journal.InboxApproval, Coworker: "helper", TurnID: turn, Tool: "notes.append", Asked: raw})
		if err != nil {
			t.Fatal(err)
		}
		return it
	}
	count := func(want int32) {
		t.Helper()
		eventually(t, fmt.Sprintf("%d notifications", want), func() bool { return n.n.Load() >= want })
		time.Sleep(100 * time.Millisecond) // a moment for one too many to show
		if got := n.n.Load(); got != want {
			t.Fatalf("%d notifications, want %d: %v", got, want, n.all)
		}
	}
	first := add("tur_1", `{"text":"secret one"}`)
	count(1)
	add("tur_1", `{"text":"secret two"}`)
	add("tur_1", `{"text":"secret three"}`)
	count(1)
	add("tur_2", `{}`)
	count(2)
	if _, err := b.AnswerDecision(context.Background(), first.ID, consent.Deny, "window"); err != nil {
		t.Fatal(err)
	}
	add("tur_1", `{"text":"secret four"}`)
	count(3)
	w.focus(true)
	add("tur_2", `{}`)
	count(4)
	for _, s := range n.all {
		if !strings.Contains(s, "Helper wants to run notes.append") || strings.Contains(s, "secret") {
			t.Fatalf("notification %q: want who and what tool, no arguments", s)
		}
	}
}
