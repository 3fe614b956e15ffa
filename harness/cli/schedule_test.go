package cli_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestScheduleCatchUpOnce: a schedule every hour that missed 5 slots runs
// once when two `schedule run-due` processes start at the same moment,
// marked "caught up (missed 5)"; a third run-due finds nothing due; the
// run is one unattended session; remove takes the schedule off the list.
func TestScheduleCatchUpOnce(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	bundles := writeCoworker(t)
	m := modeltest.NewOpenAI(t, modeltest.Reply{Text: "Tidied."}, modeltest.Reply{Text: "Tidied again."})
	bin := func(args ...string) *exec.Cmd {
		cmd := exec.Command(binary, args...)
		cmd.Env = binEnv(t)
		return cmd
	}
	out, err := bin("schedule", "add", "--coworker", "sysinfo", "--every", "1h", "--prompt", "Tidy up.", "--db", db).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "added sch_") {
		t.Fatalf("schedule add = %v\n%s", err, out)
	}
	var rows []struct {
		journal.Schedule
		Runs []journal.ScheduleRun `json:"runs"`
	}
	list := func() {
		out, err := bin("schedule", "list", "--json", "--db", db).Output()
		if err != nil || json.Unmarshal(out, &rows) != nil || len(rows) != 1 {
			t.Fatalf("schedule list = %v\n%s", err, out)
		}
	}
	list()
	now := rows[0].CreatedAt.Add(5*time.Hour + 30*time.Minute).Format(time.RFC3339Nano)
	due := []string{"schedule", "run-due", "--coworkers", bundles, "--db", db, "--base-url", m.URL, "--model", "test", "--now", now}
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for i := 0; i < 2; i++ {
		cmd := bin(due...)
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, &b)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("run-due %d = %v\n%s", i, err, outs[i])
		}
	}
	if n := strings.Count(outs[0].String()+outs[1].String(), "caught up (missed 5)"); n != 1 {
		t.Fatalf("%d run-due processes ran the slot; want 1:\n%s\n---\n%s", n, outs[0], outs[1])
	}
	if reqs := len(m.Requests()); reqs != 1 {
		t.Fatalf("%d model requests; want 1 (one run)", reqs)
	}
	list()
	r := rows[0].Runs
	if len(r) != 1 || r[0].Status != "caught up (missed 5)" || r[0].Missed != 5 || !strings.HasPrefix(r[0].SessionID, "ses_") ||
		!r[0].Slot.Equal(rows[0].CreatedAt.Add(5*time.Hour)) {
		t.Fatalf("runs = %+v", r)
	}
	again, err := bin(due...).CombinedOutput()
	if err != nil || !strings.Contains(string(again), "no schedule is due") {
		t.Fatalf("third run-due = %v\n%s", err, again)
	}
	show, err := bin("journal", "show", r[0].SessionID, "--db", db).Output()
	if err != nil || !strings.Contains(string(show), "run      succeeded") {
		t.Fatalf("journal show = %v\n%s", err, show)
	}
	if out, err := bin("schedule", "remove", rows[0].ID, "--db", db).CombinedOutput(); err != nil {
		t.Fatalf("schedule remove = %v\n%s", err, out)
	}
	if out, _ := bin("schedule", "list", "--json", "--db", db).Output(); strings.TrimSpace(string(out)) != "[]" {
		t.Fatalf("list after remove = %s", out)
	}
}

// TestScheduleWeekdaysNoCatchUp: "weekdays at 09:00" in Berlin with
// catch-up off, left over a weekend (5 slots): run-due runs nothing and
// records the slots "missed"; edited to catch up, the next slot runs and
// is "succeeded"; edit refuses bad words with the forms that work.
func TestScheduleWeekdaysNoCatchUp(t *testing.T) {
	if _, err := time.LoadLocation("Europe/Berlin"); err != nil {
		t.Skip("no time zone database:", err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	bundles := writeCoworker(t)
	m := modeltest.NewOpenAI(t, modeltest.Reply{Text: "Morning report."})
	bin := func(args ...string) (string, error) {
		cmd := exec.Command(binary, args...)
		cmd.Env = binEnv(t)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := bin("schedule", "add", "--coworker", "sysinfo", "--when", "weekdays at 09:00", "--tz", "Europe/Berlin",
		"--no-catch-up", "--prompt", "Report.", "--db", db)
	if err != nil || !strings.Contains(out, "(weekdays at 09:00 Europe/Berlin)") {
		t.Fatalf("schedule add = %v\n%s", err, out)
	}
	var rows []struct {
		journal.Schedule
		When string                `json:"when"`
		Next time.Time             `json:"next"`
		Runs []journal.ScheduleRun `json:"runs"`
	}
	list := func() {
		t.Helper()
		out, err := bin("schedule", "list", "--json", "--db", db)
		if err != nil || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 {
			t.Fatalf("schedule list = %v\n%s", err, out)
		}
	}
	list()
	if rows[0].Cron != "0 9 * * 1-5" || rows[0].CatchUp || rows[0].When != "weekdays at 09:00 Europe/Berlin" || rows[0].Next.IsZero() {
		t.Fatalf("schedule = %+v", rows[0])
	}
	// Left until a Monday at 12:00 UTC more than a week away: at least
	// the five weekdays before it were missed.
	created := rows[0].CreatedAt
	monday := created.AddDate(0, 0, (8-int(created.Weekday()))%7+7).Truncate(24 * time.Hour).Add(12 * time.Hour)
	due := func(at time.Time) string {
		t.Helper()
		out, err := bin("schedule", "run-due", "--coworkers", bundles, "--db", db, "--base-url", m.URL, "--model", "test",
			"--now", at.Format(time.RFC3339))
		if err != nil {
			t.Fatalf("run-due = %v\n%s", err, out)
		}
		return out
	}
	if out := due(monday); !strings.Contains(out, "missed (") {
		t.Fatalf("run-due over the weekend = %s; want the slots missed", out)
	}
	if len(m.Requests()) != 0 {
		t.Fatalf("%d model requests; want none (catch-up is off)", len(m.Requests()))
	}
	list()
	if r := rows[0].Runs; len(r) != 1 || r[0].Status != "missed" || r[0].Missed < 2 || r[0].SessionID != "" {
		t.Fatalf("runs = %+v; want one missed record", r)
	}
	if out, err := bin("schedule", "edit", rows[0].ID, "--when", "fortnightly", "--db", db); err == nil || !strings.Contains(out, "weekdays at HH:MM") {
		t.Fatalf("edit with bad words = %v\n%s", err, out)
	}
	if out, err := bin("schedule", "edit", rows[0].ID, "--catch-up=true", "--prompt", "Report, please.", "--db", db); err != nil ||
		!strings.Contains(out, "edited "+rows[0].ID) {
		t.Fatalf("schedule edit = %v\n%s", err, out)
	}
	if out := due(monday.AddDate(0, 0, 1)); !strings.Contains(out, "succeeded") {
		t.Fatalf("run-due on Tuesday = %s; want the slot run", out)
	}
	list()
	if r := rows[0].Runs; len(r) != 2 || r[0].Status != "succeeded" || r[0].Missed != 1 || !rows[0].CatchUp || rows[0].Prompt != "Report, please." {
		t.Fatalf("after the edit: %+v runs %+v", rows[0].Schedule, r)
	}
	if reqs := m.Requests(); len(reqs) != 1 {
		t.Fatalf("%d model requests; want 1", len(reqs))
	}
}
