package cli

import (
	"os"
	"strconv"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/schedule"
	"github.com/openworker/desktop/harness/settings"
)

// What schedule add and edit check beyond the schedule itself
// (docs/schedules.md): a time zone only where it means something, and a
// coworker the folder holds.

// checkTZ refuses --tz on a schedule that runs every D: its slots are
// counted from when it was added, in no time zone.
func checkTZ(s journal.Schedule, tz bool, when string) error {
	if !tz || s.Every == 0 {
		return nil
	}
	every := "--every"
	if when != "" {
		every = "--when " + strconv.Quote(when)
	}
	return usageErr("--tz does not go with %s: an interval is counted from when the schedule was added, in no time zone; use --tz with --cron or --when \"weekdays at 09:00\"", every)
}

// checkCoworker refuses a coworker id the bundles folder does not hold,
// when the folder is known: dir (--coworkers), else in the desktop app's
// binary the app's coworkers folder (docs/schedules.md).
func (c *config) checkCoworker(dir, id string) error {
	if dir == "" {
		dir = c.appCoworkers()
	}
	if dir == "" || id == "" {
		return nil
	}
	if err := schedule.CheckCoworker(dir, id); err != nil {
		return usageErr("--coworker %s: %v", id, err)
	}
	return nil
}

// appCoworkers is the desktop app's coworkers folder (its settings', else
// the default) when this is the app's binary and the folder exists; ""
// otherwise.
func (c *config) appCoworkers() string {
	if !c.app {
		return ""
	}
	paths, err := settings.ResolvePaths(c.appDir)
	if err != nil {
		return ""
	}
	s, err := settings.Load(paths.Settings)
	if err != nil {
		return ""
	}
	dir := s.CoworkersDir
	if dir == "" {
		dir = paths.DefaultCoworkers
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return ""
	}
	return dir
}
