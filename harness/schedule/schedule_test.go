package schedule

import (
	"strings"
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

// TestParseWhen: words become an interval or a cron expression in the
// person's time zone, Describe says them back, and bad words are refused
// with the forms that work.
func TestParseWhen(t *testing.T) {
	t.Setenv("TZ", "Europe/Berlin")
	if _, err := time.LoadLocation("Europe/Berlin"); err != nil {
		t.Skip("no time zone database:", err)
	}
	for _, c := range []struct{ words, cron, tz, describe string }{
		{"weekdays at 09:00", "0 9 * * 1-5", "Europe/Berlin", "weekdays at 09:00 Europe/Berlin"},
		{"Weekdays  at 9:05", "5 9 * * 1-5", "Europe/Berlin", "weekdays at 09:05 Europe/Berlin"},
		{"daily at 07:30", "30 7 * * *", "Europe/Berlin", "daily at 07:30 Europe/Berlin"},
		{"every day at 23:59", "59 23 * * *", "Europe/Berlin", "daily at 23:59 Europe/Berlin"},
		{"weekends at 10:00", "0 10 * * 0,6", "Europe/Berlin", "weekends at 10:00 Europe/Berlin"},
		{"monday at 18:00", "0 18 * * 1", "Europe/Berlin", "mondays at 18:00 Europe/Berlin"},
		{"sundays at 00:00", "0 0 * * 0", "Europe/Berlin", "sundays at 00:00 Europe/Berlin"},
	} {
		var s journal.Schedule
		if err := ParseWhen(c.words, &s); err != nil || s.Cron != c.cron || s.TimeZone != c.tz || s.Every != 0 {
			t.Errorf("ParseWhen(%q) = %+v, %v; want cron %q in %s", c.words, s, err, c.cron, c.tz)
			continue
		}
		if err := Check(s); err != nil {
			t.Errorf("Check(%q) = %v", c.words, err)
		}
		if d := Describe(s); d != c.describe {
			t.Errorf("Describe(%q) = %q; want %q", c.words, d, c.describe)
		}
	}
	s := journal.Schedule{TimeZone: "America/New_York"}
	if err := ParseWhen("weekdays at 09:00", &s); err != nil || s.TimeZone != "America/New_York" {
		t.Errorf("a given time zone is kept: %+v, %v", s, err)
	}
	s = journal.Schedule{}
	if err := ParseWhen("every 2h", &s); err != nil || s.Every != 2*time.Hour || s.Cron != "" || Describe(s) != "every 2h" {
		t.Errorf("every 2h = %+v, %v", s, err)
	}
	if d := Describe(journal.Schedule{Cron: "*/5 * * * *"}); d != "cron */5 * * * * UTC" {
		t.Errorf("Describe(cron) = %q", d)
	}
	for d, want := range map[time.Duration]string{2 * time.Hour: "2h", 90 * time.Minute: "1h30m", 45 * time.Minute: "45m",
		90 * time.Second: "1m30s", 26 * time.Hour: "26h", time.Hour + 30*time.Second: "1h0m30s"} {
		if got := Interval(d); got != want {
			t.Errorf("Interval(%v) = %q; want %q", d, got, want)
		}
	}
	// UTC has one name, however the zone was given or found.
	for _, tz := range []string{"", "UTC", "Etc/UTC", "Zulu"} {
		if d := Describe(journal.Schedule{Cron: "0 9 * * 1-5", TimeZone: tz}); d != "weekdays at 09:00 UTC" {
			t.Errorf("Describe(weekdays at 09:00 in %q) = %q; want UTC", tz, d)
		}
	}
	t.Setenv("TZ", "Etc/UTC")
	if z := LocalZone(); z != "UTC" {
		t.Errorf("LocalZone with TZ=Etc/UTC = %q; want UTC", z)
	}
	for _, bad := range []string{"every 10s", "weekdays at 25:00", "weekdays at 09:60", "at nine", "fortnightly at 09:00", ""} {
		var s journal.Schedule
		if err := ParseWhen(bad, &s); err == nil || !strings.Contains(err.Error(), "want") && !strings.Contains(err.Error(), "not a time of day") {
			t.Errorf("ParseWhen(%q) = %v; want an error naming the forms", bad, err)
		}
	}
}

// TestWeekdaysAcrossDST: "weekdays at 09:00" in Berlin stays at 09:00 on
// the wall clock over the change to summer time (07:00 UTC after it,
// 08:00 before).
func TestWeekdaysAcrossDST(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	s := journal.Schedule{TimeZone: "Europe/Berlin", CreatedAt: time.Date(2026, 3, 27, 12, 0, 0, 0, time.UTC)} // a Friday
	if err := ParseWhen("weekdays at 09:00", &s); err != nil {
		t.Fatal(err)
	}
	slot, n, err := Due(s, time.Time{}, time.Date(2026, 3, 30, 7, 0, 0, 0, time.UTC)) // Monday, after the change
	if err != nil || n != 1 || !slot.Equal(time.Date(2026, 3, 30, 9, 0, 0, 0, berlin)) || slot.UTC().Hour() != 7 {
		t.Fatalf("Due = %v (%v UTC), %d, %v; want Monday 09:00 Berlin, 07:00 UTC", slot, slot.UTC(), n, err)
	}
}
