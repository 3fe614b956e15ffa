package app

import (
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// The Schedules screen words a schedule's when as the CLI's schedule list
// does: an interval as "every 2h", every name of UTC as "UTC".
func TestWhenOfWordsAsTheCLI(t *testing.T) {
	for _, c := range []struct {
		s    journal.Schedule
		want string
	}{
		{journal.Schedule{Every: 2 * time.Hour}, "every 2h"},
		{journal.Schedule{Every: 90 * time.Minute}, "every 1h30m"},
		{journal.Schedule{Cron: "0 9 * * 1-5", TimeZone: "Etc/UTC"}, "0 9 * * 1-5 (UTC)"},
		{journal.Schedule{Cron: "0 9 * * 1-5", TimeZone: "Europe/Berlin"}, "0 9 * * 1-5 (Europe/Berlin)"},
		{journal.Schedule{Cron: "0 9 * * 1-5"}, "0 9 * * 1-5 (UTC)"},
	} {
		if got := whenOf(c.s); got != c.want {
			t.Errorf("whenOf(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}
