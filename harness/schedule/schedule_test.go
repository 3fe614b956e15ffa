package schedule

import (
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

var t0 = time.Date(2026, 12, 7, 8, 30, 0, 0, time.UTC) // a Monday

// TestDue: the newest due slot and how many were due, for intervals and
// cron expressions in a time zone.
func TestDue(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	every := journal.Schedule{Every: time.Hour, CreatedAt: t0}
	weekdays := journal.Schedule{Cron: "0 9 * * 1-5", TimeZone: "Europe/Berlin", CreatedAt: t0}
	for _, c := range []struct {
		name  string
		s     journal.Schedule
		after time.Time
		now   time.Time
		slot  time.Time
		n     int
	}{
		{"not yet", every, time.Time{}, t0.Add(59 * time.Minute), time.Time{}, 0},
		{"on time", every, time.Time{}, t0.Add(time.Hour), t0.Add(time.Hour), 1},
		{"missed 5", every, time.Time{}, t0.Add(5*time.Hour + 30*time.Minute), t0.Add(5 * time.Hour), 5},
		{"after the last claimed", every, t0.Add(5 * time.Hour), t0.Add(5*time.Hour + 59*time.Minute), time.Time{}, 0},
		{"next after the last claimed", every, t0.Add(5 * time.Hour), t0.Add(6 * time.Hour), t0.Add(6 * time.Hour), 1},
		// 09:00 Berlin is 08:00 UTC in December: Monday's has passed at t0.
		{"weekdays at 9, Tuesday", weekdays, time.Time{}, time.Date(2026, 12, 8, 8, 0, 0, 0, time.UTC), time.Date(2026, 12, 8, 9, 0, 0, 0, berlin), 1},
		{"weekdays at 9, over a weekend", weekdays, time.Time{}, time.Date(2026, 12, 14, 12, 0, 0, 0, time.UTC), time.Date(2026, 12, 14, 9, 0, 0, 0, berlin), 5},
	} {
		slot, n, err := Due(c.s, c.after, c.now)
		if err != nil || n != c.n || !slot.Equal(c.slot) {
			t.Errorf("%s: Due = %v, %d, %v; want %v, %d", c.name, slot, n, err, c.slot, c.n)
		}
	}
	for _, bad := range []journal.Schedule{
		{Cron: "every day"}, {Cron: "0 9 * * *", TimeZone: "Mars/Olympus"}, {Every: time.Second},
	} {
		if err := Check(bad); err == nil {
			t.Errorf("Check(%+v) = nil; want an error", bad)
		}
	}
}
