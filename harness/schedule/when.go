package schedule

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// When in words (docs/schedules.md#when): "every 2h", "weekdays at
// 09:00", "daily at 07:30", "mondays at 18:00" (any day of the week, in
// the plural or not). Words become an interval or a cron expression, so a
// schedule stores one of the two whatever way it was written, and
// Describe turns the cron expressions that words make back into words.

var (
	atRe    = regexp.MustCompile(`^(?i)(weekdays|weekends|daily|every day|(?:mon|tues|wednes|thurs|fri|satur|sun)days?) at (\d{1,2}):(\d{2})$`)
	everyRe = regexp.MustCompile(`^(?i)every (\S+)$`)
	// "every minute", "every 2 hours", "every 90 min", "hourly".
	everyWordsRe = regexp.MustCompile(`^(?i)(?:every (?:(\d+) ?)?(minutes?|mins?|hours?|hrs?)|(hourly))$`)
	cronAt       = regexp.MustCompile(`^(\d{1,2}) (\d{1,2}) \* \* (\*|1-5|0,6|[0-6])$`)
)

var dayNames = []string{"sundays", "mondays", "tuesdays", "wednesdays", "thursdays", "fridays", "saturdays"}

// dows maps the words for days to cron's day-of-week field, and back.
var dows = map[string]string{"weekdays": "1-5", "weekends": "0,6", "daily": "*", "every day": "*"}

func init() {
	for i, d := range dayNames {
		dows[d], dows[strings.TrimSuffix(d, "s")] = strconv.Itoa(i), strconv.Itoa(i)
	}
}

// ParseWhen reads "when" in words into s: Every for "every D" (a Go
// duration, or words: "every minute", "every 2 hours", "hourly"), Cron for
// "<days> at HH:MM" (in s.TimeZone; when it is empty, the person's time
// zone, LocalZone). It returns an error that names the forms it reads.
func ParseWhen(words string, s *journal.Schedule) error {
	w := strings.Join(strings.Fields(words), " ")
	if m := everyWordsRe.FindStringSubmatch(w); m != nil {
		n, unit := 1, time.Minute
		if m[1] != "" {
			n, _ = strconv.Atoi(m[1])
		}
		if m[3] != "" || strings.HasPrefix(strings.ToLower(m[2]), "h") {
			unit = time.Hour
		}
		if n < 1 || n > 100000 {
			return fmt.Errorf("%q: want an interval of at least a minute, e.g. \"every 2 hours\" or \"every 30m\"", words)
		}
		s.Every, s.Cron = time.Duration(n)*unit, ""
		return nil
	}
	if m := everyRe.FindStringSubmatch(w); m != nil && !strings.EqualFold(m[1], "day") {
		d, err := time.ParseDuration(m[1])
		if err != nil || d < time.Minute {
			return fmt.Errorf("%q: want an interval of at least a minute, e.g. \"every 2h\" or \"every 30m\"", words)
		}
		s.Every, s.Cron = d, ""
		return nil
	}
	m := atRe.FindStringSubmatch(w)
	if m == nil {
		return fmt.Errorf("%q: want \"every D\" (e.g. every 2h), \"weekdays at HH:MM\", \"weekends at HH:MM\", \"daily at HH:MM\" or \"mondays at HH:MM\" (any day)", words)
	}
	h, _ := strconv.Atoi(m[2])
	mi, _ := strconv.Atoi(m[3])
	if h > 23 || mi > 59 {
		return fmt.Errorf("%q: %s:%s is not a time of day (00:00 to 23:59)", words, m[2], m[3])
	}
	s.Every, s.Cron = 0, fmt.Sprintf("%d %d * * %s", mi, h, dows[strings.ToLower(m[1])])
	if s.TimeZone == "" {
		s.TimeZone = LocalZone()
	}
	return nil
}

// Describe says when s runs, in words where words made it ("weekdays at
// 09:00 Europe/Berlin", "every 2h", "every 1h30m"), else the cron
// expression ("cron 0 */4 * * * UTC"). UTC is called UTC whatever its
// name in the zone database (ZoneName).
func Describe(s journal.Schedule) string {
	if s.Cron == "" {
		return "every " + Interval(s.Every)
	}
	tz := ZoneName(s.TimeZone)
	if m := cronAt.FindStringSubmatch(s.Cron); m != nil {
		mi, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		if h < 24 && mi < 60 {
			days := map[string]string{"*": "daily", "1-5": "weekdays", "0,6": "weekends"}[m[3]]
			if days == "" {
				n, _ := strconv.Atoi(m[3])
				days = dayNames[n]
			}
			return fmt.Sprintf("%s at %02d:%02d %s", days, h, mi, tz)
		}
	}
	return "cron " + s.Cron + " " + tz
}

// Interval writes d as people write an interval: "2h", "1h30m", "45m",
// "1m30s" (time.Duration.String without its zero minutes and seconds).
func Interval(d time.Duration) string {
	out := d.String()
	if strings.HasSuffix(out, "m0s") {
		out = strings.TrimSuffix(out, "0s")
	}
	if strings.HasSuffix(out, "h0m") {
		out = strings.TrimSuffix(out, "0m")
	}
	return out
}

// utcNames are the zone database's other names of UTC.
var utcNames = map[string]bool{"": true, "UTC": true, "Etc/UTC": true, "Etc/UCT": true, "UCT": true, "Etc/Universal": true,
	"Universal": true, "Etc/Zulu": true, "Zulu": true}

// ZoneName is the name a schedule's time zone is shown with: "UTC" for
// "" and every other name of UTC (Etc/UTC, Zulu, ...), else tz.
func ZoneName(tz string) string {
	if utcNames[tz] {
		return "UTC"
	}
	return tz
}

// LocalZone is the person's time zone as an IANA name: $TZ when it names
// one, else the zone /etc/localtime links to, else "Local" (the system's
// zone, whatever its name; time.LoadLocation reads it). UTC by any of
// its names is "UTC" (ZoneName).
func LocalZone() string {
	// A leading colon is POSIX's "implementation-defined" form, which glibc
	// and Go's time.Local read as the name after it.
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" {
		if _, err := time.LoadLocation(tz); err == nil {
			return ZoneName(tz)
		}
	}
	if target, err := filepath.EvalSymlinks("/etc/localtime"); err == nil {
		if i := strings.Index(target, "zoneinfo/"); i >= 0 {
			name := target[i+len("zoneinfo/"):]
			if _, err := time.LoadLocation(name); err == nil {
				return ZoneName(name)
			}
		}
	}
	return "Local"
}
