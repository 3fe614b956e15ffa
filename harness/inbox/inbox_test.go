package inbox

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/journal"
)

// open opens two journals on one file (as two processes would) with a
// session ses_1, and an Inbox on each.
func open(t *testing.T) (*Inbox, *Inbox) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.db")
	var bs []*Inbox
	for i := 0; i < 2; i++ {
		j, err := journal.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { j.Close() })
		bs = append(bs, New(j, &Options{Poll: 20 * time.Millisecond}))
	}
	if err := bs[0].Journal().CreateSession(context.Background(), journal.Session{ID: "ses_1", Coworker: "demo", Identity: "id"}); err != nil {
		t.Fatal(err)
	}
	return bs[0], bs[1]
}

var req = consent.Request{SessionID: "ses_1", TurnID: "ses_1-t1", CallID: "c1", Coworker: "demo", Tool: "notes.append",
	Arguments: json.RawMessage(`{"text":"hi"}`)}

// only returns the one item of the inbox.
func only(t *testing.T, b *Inbox) journal.InboxItem {
	t.Helper()
	all, err := b.Journal().Inbox(context.Background(), allStatuses())
	if err != nil || len(all) != 1 {
		t.Fatalf("inbox = %+v, %v; want one item", all, err)
	}
	return all[0]
}

// allStatuses selects items of every status.
func allStatuses() journal.InboxFilter {
	return journal.InboxFilter{Statuses: []journal.InboxStatus{journal.InboxOpen, journal.InboxAnswered,
		journal.InboxConsumed, journal.InboxCancelled, journal.InboxExpired}}
}

// TestPrompterAsks: the terminal's answer is the item's answer, and the
// item was written before the terminal was asked.
func TestPrompterAsks(t *testing.T) {
	b, _ := open(t)
	var seen journal.InboxItem
	p := &Prompter{Inbox: b, AskedBy: "terminal", Ask: func(ctx context.Context, id string, r consent.Request) (consent.Decision, error) {
		seen, _ = b.Item(ctx, id)
		return consent.AllowSession, nil
	}}
	d, err := p.Prompt(context.Background(), req)
	if err != nil || d != consent.AllowSession {
		t.Fatalf("Prompt = %s, %v", d, err)
	}
	if seen.Status != journal.InboxOpen || seen.Kind != journal.InboxApproval || seen.Tool != "notes.append" || seen.SessionID != "ses_1" {
		t.Errorf("item while asking = %+v; want an open approval of notes.append", seen)
	}
	it := only(t, b)
	if it.Status != journal.InboxConsumed || it.AnsweredBy != "terminal" || Decision(it) != consent.AllowSession {
		t.Errorf("item after = %+v", it)
	}
	var got consent.Request
	if err := json.Unmarshal(it.Asked, &got); err != nil || got.Tool != req.Tool || string(got.Arguments) != string(req.Arguments) {
		t.Errorf("asked = %s (%v); want the request", it.Asked, err)
	}
}

// TestPrompterAnsweredElsewhere: while the terminal waits, another
// process answers the item; the prompt takes that answer and the
// terminal stops asking.
func TestPrompterAnsweredElsewhere(t *testing.T) {
	b, other := open(t)
	stopped := make(chan struct{})
	p := &Prompter{Inbox: b, AskedBy: "terminal", Ask: func(ctx context.Context, id string, r consent.Request) (consent.Decision, error) {
		go func() {
			if _, err := other.AnswerDecision(context.Background(), id, consent.Deny, "cli: inbox answer"); err != nil {
				t.Errorf("answer from the other process = %v", err)
			}
		}()
		<-ctx.Done()
		close(stopped)
		return consent.Deny, ctx.Err()
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	d, err := p.Prompt(ctx, req)
	if err != nil || d != consent.Deny {
		t.Fatalf("Prompt = %s, %v; want deny from the other process", d, err)
	}
	select {
	case <-stopped:
	case <-time.After(30 * time.Second):
		t.Fatal("the terminal kept asking after the item was answered")
	}
	if it := only(t, b); it.AnsweredBy != "cli: inbox answer" {
		t.Errorf("item = %+v", it)
	}
}

// TestPrompterCannotAsk: without a terminal the call is denied with the
// terminal's error and the item is withdrawn, not left open.
func TestPrompterCannotAsk(t *testing.T) {
	b, _ := open(t)
	p := &Prompter{Inbox: b, AskedBy: "terminal", Ask: func(context.Context, string, consent.Request) (consent.Decision, error) {
		return consent.Deny, consent.ErrNoTerminal
	}}
	d, err := p.Prompt(context.Background(), req)
	if d != consent.Deny || !errors.Is(err, consent.ErrNoTerminal) {
		t.Fatalf("Prompt = %s, %v; want deny, ErrNoTerminal", d, err)
	}
	if it := only(t, b); it.Status != journal.InboxCancelled || !strings.Contains(it.AnsweredBy, "no terminal") {
		t.Errorf("item = %+v; want cancelled, saying there was no terminal", it)
	}
}

// TestPrompterTimeout: nobody answers before the prompt's deadline: deny,
// and the item is expired so that a late answer is told so.
func TestPrompterTimeout(t *testing.T) {
	b, other := open(t)
	p := &Prompter{Inbox: b} // the protocol's shape: no Ask, answers come to the inbox
	var shown string
	p.Show = func(it journal.InboxItem, r consent.Request) { shown = it.ID }
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	d, err := p.Prompt(ctx, req)
	if d != consent.Deny || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Prompt = %s, %v; want deny, deadline exceeded", d, err)
	}
	it := only(t, b)
	if it.ID != shown || it.Status != journal.InboxExpired || it.Deadline.IsZero() {
		t.Fatalf("item = %+v (shown %s); want the shown item, expired, with its deadline", it, shown)
	}
	if _, err := other.AnswerDecision(context.Background(), it.ID, consent.AllowOnce, "late"); !errors.Is(err, journal.ErrAlreadyAnswered) ||
		!strings.Contains(err.Error(), "expired") {
		t.Errorf("late answer = %v; want told the item expired", err)
	}
}

// TestPrompterRace: the terminal and another process answer at the same
// moment, many times: the prompt always returns the answer the journal
// kept, and the loser was told.
func TestPrompterRace(t *testing.T) {
	b, other := open(t)
	for i := 0; i < 30; i++ {
		var otherErr error
		done := make(chan struct{})
		p := &Prompter{Inbox: b, AskedBy: "terminal", Ask: func(ctx context.Context, id string, r consent.Request) (consent.Decision, error) {
			go func() {
				defer close(done)
				_, otherErr = other.AnswerDecision(context.Background(), id, consent.Deny, "window")
			}()
			return consent.AllowOnce, nil
		}}
		d, err := p.Prompt(context.Background(), req)
		<-done
		if err != nil {
			t.Fatal(err)
		}
		all, _ := b.Journal().Inbox(context.Background(), allStatuses())
		it := all[len(all)-1]
		if Decision(it) != d {
			t.Fatalf("round %d: prompt returned %s; the journal kept %s (%s)", i, d, Decision(it), it.AnsweredBy)
		}
		if (it.AnsweredBy == "window") == (otherErr != nil) {
			t.Fatalf("round %d: kept %s's answer, window's answer got %v", i, it.AnsweredBy, otherErr)
		}
		if otherErr != nil && !errors.Is(otherErr, journal.ErrAlreadyAnswered) {
			t.Fatalf("round %d: window's answer = %v", i, otherErr)
		}
	}
}

// TestCheckAnswer: answers must fit the kind.
func TestCheckAnswer(t *testing.T) {
	for _, c := range []struct {
		kind journal.InboxKind
		ans  string
		ok   bool
	}{
		{journal.InboxApproval, `"allow_once"`, true},
		{journal.InboxApproval, `"maybe"`, false},
		{journal.InboxApproval, `{"decision":"deny"}`, false},
		{journal.InboxBudget, `"continue"`, true},
		{journal.InboxBudget, `"more"`, false},
		{journal.InboxReconcile, `"not_applied"`, true},
		{journal.InboxQuestion, `{"name":"x"}`, true},
		{journal.InboxQuestion, `"x"`, false},
	} {
		if err := CheckAnswer(c.kind, json.RawMessage(c.ans)); (err == nil) != c.ok {
			t.Errorf("CheckAnswer(%s, %s) = %v; want ok %v", c.kind, c.ans, err, c.ok)
		}
	}
}
