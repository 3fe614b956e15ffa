package journal

import (
	"context"
	"testing"
	"time"
)

// TestMigrate17 upgrades the version-16 fixture: every row is kept, the
// chain verifies, and usage recorded afterwards is chained and adds up
// per run and per coworker per day.
func TestMigrate17(t *testing.T) {
	ctx := context.Background()
	j, _, _ := upgradeFixture(t, 16)
	rep := mustVerify(t, j)
	if !rep.OK {
		t.Fatalf("Verify after the upgrade: %+v", rep.First)
	}
	var now time.Time // the journal's clock
	for i, u := range []Usage{
		{SessionID: "ses_fx_closed", TurnID: "ses_fx_closed-t1", Coworker: "demo", Model: "openai m", Attempt: 1, InputTokens: 1200, OutputTokens: 300},
		{SessionID: "ses_fx_closed", TurnID: "ses_fx_closed-t1", Coworker: "demo", Model: "openai m", Attempt: 2, InputTokens: 1600, OutputTokens: 50},
		{SessionID: "ses_fx_failed", TurnID: "ses_fx_failed-t1", Coworker: "other", Model: "openai m", Attempt: 1, InputTokens: 10, OutputTokens: 5},
	} {
		got, err := j.RecordUsage(ctx, u)
		if err != nil || got.ID == 0 || got.At.IsZero() {
			t.Fatalf("RecordUsage %d = %+v, %v", i, got, err)
		}
		now = got.At
	}
	if _, err := j.RecordUsage(ctx, Usage{SessionID: "ses_fx_closed", TurnID: "t", Coworker: "demo", InputTokens: -1}); err == nil {
		t.Error("RecordUsage took a negative count")
	}
	run, err := j.RunUsage(ctx, "ses_fx_closed")
	if err != nil || run != (UsageTotal{InputTokens: 2800, OutputTokens: 350, Responses: 2}) || run.Tokens() != 3150 {
		t.Fatalf("RunUsage = %+v, %v", run, err)
	}
	day, err := j.CoworkerDayUsage(ctx, "demo", now)
	if err != nil || day.Tokens() != 3150 {
		t.Fatalf("CoworkerDayUsage today = %+v, %v", day, err)
	}
	if y, err := j.CoworkerDayUsage(ctx, "demo", now.Add(-24*time.Hour)); err != nil || y.Responses != 0 {
		t.Fatalf("CoworkerDayUsage yesterday = %+v, %v", y, err)
	}
	days, err := j.UsageByDay(ctx, now.Add(-24*time.Hour))
	if err != nil || len(days) != 2 || days[0].Coworker != "demo" || days[0].Tokens() != 3150 || days[1].Tokens() != 15 ||
		days[0].Day != now.UTC().Format(time.DateOnly) {
		t.Fatalf("UsageByDay = %+v, %v", days, err)
	}
	if end := mustVerify(t, j); !end.OK || end.Entries != rep.Entries+3 {
		t.Errorf("Verify after the new rows = %+v; want OK with %d entries", end, rep.Entries+3)
	}
}
