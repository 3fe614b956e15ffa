package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/schedule"
)

// TestScheduleZoneWithTZColon: TZ=":Asia/Tokyo" is the POSIX/glibc spelling (and
// what Go's own time.Local accepts); schedule.LocalZone does not strip the
// colon, so schedule add and schedule list fall back to /etc/localtime's
// zone while date(1) and Go's time.Local use Tokyo.
func TestScheduleZoneWithTZColon(t *testing.T) {
	t.Setenv("TZ", ":Asia/Tokyo")
	if z := schedule.LocalZone(); z != "Asia/Tokyo" {
		t.Errorf("LocalZone with TZ=:Asia/Tokyo = %q, want Asia/Tokyo", z)
	}
	got := localTime(time.Date(2026, 12, 7, 0, 0, 0, 0, time.UTC))
	if !strings.HasSuffix(got, "JST") {
		t.Errorf("localTime with TZ=:Asia/Tokyo = %q, want JST", got)
	}
}
