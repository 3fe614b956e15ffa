package app

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestActivityTokens: chats with two coworkers on three days (the app's
// clock moved between them), their model reporting usage: Activity's
// RunTokens gives each run's input and output tokens, and
// CoworkerTokens each coworker's tokens today and over the last 7 days
// (a run 9 days ago counts in neither), the most first.
func TestActivityTokens(t *testing.T) {
	start := time.Now()
	var offset atomic.Int64
	base := time.Date(2026, 11, 27, 15, 0, 0, 0, time.UTC)
	clock := func() time.Time { return base.Add(time.Duration(offset.Load()) + time.Since(start)) }
	at := func(day time.Time) { offset.Store(int64(day.Sub(base) - time.Since(start))) }
	e := newTestEnv(t, envOpts{clock: clock, replies: []modeltest.Reply{
		{Text: "old", InputTokens: 5000, OutputTokens: 5000},
		{Text: "week", InputTokens: 300, OutputTokens: 30},
		{Text: "today one", InputTokens: 1000, OutputTokens: 200},
		{Text: "today two", InputTokens: 40, OutputTokens: 2},
		{Text: "other today", InputTokens: 2500, OutputTokens: 100},
	}})
	writeBundle(t, e.bundles, "other", "test.echo")
	today := time.Date(2026, 12, 6, 10, 0, 0, 0, time.UTC)
	chat := func(coworker, prompt string, when time.Time) string {
		t.Helper()
		at(when)
		c, err := e.app.Chats.OpenChat(coworker)
		if err != nil {
			t.Fatal(err)
		}
		if res := waitResult(t, sendAsync(e.app, c.SessionID, prompt)); res.Status != "completed" {
			t.Fatalf("turn %q = %+v", prompt, res)
		}
		return c.SessionID
	}
	old := chat("helper", "nine days ago", today.AddDate(0, 0, -9))
	week := chat("helper", "three days ago", today.AddDate(0, 0, -3))
	now := chat("helper", "this morning", today)
	at(today.Add(time.Hour))
	if res := waitResult(t, sendAsync(e.app, now, "and again")); res.Status != "completed" {
		t.Fatalf("second turn = %+v", res)
	}
	other := chat("other", "now", today.Add(2*time.Hour))

	runs, err := e.app.Activity.RunTokens([]string{old, week, now, other, "ses_unknown"})
	if err != nil {
		t.Fatal(err)
	}
	u := func(in, out, n int) journal.UsageTotal {
		return journal.UsageTotal{InputTokens: in, OutputTokens: out, Responses: n}
	}
	for id, want := range map[string]journal.UsageTotal{old: u(5000, 5000, 1), week: u(300, 30, 1), now: u(1040, 202, 2), other: u(2500, 100, 1)} {
		if runs[id] != want {
			t.Errorf("RunTokens[%s] = %+v; want %+v", id, runs[id], want)
		}
	}
	if _, ok := runs["ses_unknown"]; ok || len(runs) != 4 {
		t.Errorf("RunTokens = %+v; want the 4 runs", runs)
	}
	ct, err := e.app.Activity.CoworkerTokens()
	if err != nil {
		t.Fatal(err)
	}
	want := []journal.CoworkerUsage{
		{Coworker: "other", Today: u(2500, 100, 1), Days: u(2500, 100, 1)},
		{Coworker: "helper", Today: u(1040, 202, 2), Days: u(1340, 232, 3)},
	}
	if ct.Today != "2026-12-06" || ct.Days != 7 || len(ct.Coworkers) != 2 || ct.Coworkers[0] != want[0] || ct.Coworkers[1] != want[1] {
		t.Errorf("CoworkerTokens = %+v; want today 2026-12-06, 7 days, %+v", ct, want)
	}
}
