package schedule

import (
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// TestParseWhenIntervalWords: intervals in words, as people write them.
func TestParseWhenIntervalWords(t *testing.T) {
	for words, want := range map[string]time.Duration{
		"every minute": time.Minute, "Every Minute": time.Minute, "every 5 minutes": 5 * time.Minute,
		"every 90 min": 90 * time.Minute, "every hour": time.Hour, "every 2 hours": 2 * time.Hour,
		"every 3hrs": 3 * time.Hour, "hourly": time.Hour, "every 2h": 2 * time.Hour, "every 30m": 30 * time.Minute,
	} {
		var s journal.Schedule
		if err := ParseWhen(words, &s); err != nil || s.Every != want || s.Cron != "" {
			t.Errorf("ParseWhen(%q) = every %v, cron %q, %v; want every %v", words, s.Every, s.Cron, err, want)
		}
	}
	for _, words := range []string{"every 0 minutes", "every second", "every 30s", "every minutes please"} {
		var s journal.Schedule
		if err := ParseWhen(words, &s); err == nil {
			t.Errorf("ParseWhen(%q) = every %v; want an error", words, s.Every)
		}
	}
}
