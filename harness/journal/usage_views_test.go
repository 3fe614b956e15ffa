package journal

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"
)

// setClock is a time source a test sets (the journal stamps each usage
// row with it).
type setClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *setClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *setClock) set(t time.Time) {
	c.mu.Lock()
	c.t = t
	c.mu.Unlock()
}

// TestUsageViews: on a real journal file, usage journaled by several runs
// of three coworkers over ten days (the journal's clock set for each
// row) adds up per run (RunsUsage) and per coworker today and over the
// last 7 days (UsageByCoworker): the days are UTC and the bounds exact
// (midnight counts for the day it starts; a row stamped tomorrow, from a
// clock set wrong, is not today's); most tokens first.
func TestUsageViews(t *testing.T) {
	ctx := context.Background()
	clk := &setClock{t: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)}
	j, err := Open(testPath(t), &Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { j.Close() })
	day := time.Date(2026, 12, 10, 0, 0, 0, 0, time.UTC) // "today"
	for _, s := range []struct{ id, coworker string }{
		{"ses_old", "writer"}, {"ses_week", "writer"}, {"ses_today", "writer"}, {"ses_yday", "reader"}, {"ses_idle", "idle"}, {"ses_none", "writer"},
	} {
		if err := j.CreateSession(ctx, Session{ID: s.id, Coworker: s.coworker, CoworkerVersion: "1", Identity: "sha-" + s.id,
			Provider: "openai", Model: "m", Approve: "ask", IdentityParts: json.RawMessage(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	for i, u := range []struct {
		session, coworker string
		at                time.Time
		in, out           int
	}{
		{"ses_old", "writer", day.AddDate(0, 0, -6).Add(-time.Nanosecond), 1000, 0}, // the day before the 7
		{"ses_week", "writer", day.AddDate(0, 0, -6), 200, 100},                     // the first of the 7
		{"ses_today", "writer", day, 5, 5},                                          // today's first instant
		{"ses_today", "writer", day.Add(24*time.Hour - time.Nanosecond), 40, 10},    // today's last
		{"ses_yday", "reader", day.Add(-time.Hour), 900, 100},
		{"ses_idle", "idle", day.AddDate(0, 0, -9), 7, 7},
		{"ses_today", "writer", day.Add(24 * time.Hour), 3000, 3000}, // tomorrow: the clock was wrong
	} {
		clk.set(u.at)
		if _, err := j.RecordUsage(ctx, Usage{SessionID: u.session, TurnID: fmt.Sprintf("%s-t%d", u.session, i), Coworker: u.coworker,
			Model: "openai m", Attempt: 1, InputTokens: u.in, OutputTokens: u.out}); err != nil {
			t.Fatal(err)
		}
	}

	runs, err := j.RunsUsage(ctx, []string{"ses_old", "ses_week", "ses_today", "ses_yday", "ses_none", "ses_missing"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]UsageTotal{
		"ses_old": {1000, 0, 1}, "ses_week": {200, 100, 1}, "ses_today": {3045, 3015, 3}, "ses_yday": {900, 100, 1},
	}
	if len(runs) != len(want) {
		t.Errorf("RunsUsage = %+v; want %+v", runs, want)
	}
	for id, w := range want {
		if runs[id] != w {
			t.Errorf("RunsUsage[%s] = %+v; want %+v", id, runs[id], w)
		}
	}
	if r, err := j.RunsUsage(ctx, nil); err != nil || len(r) != 0 {
		t.Errorf("RunsUsage(nil) = %+v, %v", r, err)
	}
	if _, err := j.RunsUsage(ctx, make([]string, MaxUsageRuns+1)); err == nil {
		t.Errorf("RunsUsage of %d runs: no error", MaxUsageRuns+1)
	}

	noon := day.Add(12 * time.Hour)
	week, err := j.UsageByCoworker(ctx, noon, 7)
	if err != nil {
		t.Fatal(err)
	}
	wantWeek := []CoworkerUsage{
		{Coworker: "reader", Today: UsageTotal{}, Days: UsageTotal{900, 100, 1}},
		{Coworker: "writer", Today: UsageTotal{45, 15, 2}, Days: UsageTotal{245, 115, 3}},
	}
	if fmt.Sprint(week) != fmt.Sprint(wantWeek) {
		t.Errorf("UsageByCoworker(7 days) =\n%+v\nwant\n%+v", week, wantWeek)
	}
	// In another time zone, the same instant is the same UTC day.
	if other, err := j.UsageByCoworker(ctx, noon.In(time.FixedZone("UTC-11", -11*3600)), 7); err != nil || fmt.Sprint(other) != fmt.Sprint(wantWeek) {
		t.Errorf("UsageByCoworker(7 days, in UTC-11) = %+v, %v", other, err)
	}
	today, err := j.UsageByCoworker(ctx, noon, 1)
	if err != nil || fmt.Sprint(today) != fmt.Sprint([]CoworkerUsage{{Coworker: "writer", Today: UsageTotal{45, 15, 2}, Days: UsageTotal{45, 15, 2}}}) {
		t.Errorf("UsageByCoworker(1 day) = %+v, %v", today, err)
	}
	ten, err := j.UsageByCoworker(ctx, noon, 10)
	if err != nil || len(ten) != 3 || ten[0].Coworker != "writer" || ten[0].Days.Tokens() != 1360 || ten[2].Coworker != "idle" {
		t.Errorf("UsageByCoworker(10 days) = %+v, %v", ten, err)
	}
	if _, err := j.UsageByCoworker(ctx, noon, 0); err == nil {
		t.Error("UsageByCoworker(0 days): no error")
	}
	if rep := mustVerify(t, j); !rep.OK {
		t.Errorf("Verify = %+v", rep.First)
	}
}
