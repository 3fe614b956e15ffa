package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// scheduleBin runs the real binary and returns its combined output and
// exit code.
func scheduleBin(t *testing.T) func(args ...string) (string, int) {
	env := binEnv(t)
	return func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(binary, args...)
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
}

type listedSchedule struct {
	journal.Schedule
	When string `json:"when"`
	Runs []struct {
		journal.ScheduleRun
		Run journal.Run `json:"run"`
	} `json:"runs"`
}

func listSchedules(t *testing.T, bin func(...string) (string, int), db string) []listedSchedule {
	t.Helper()
	out, code := bin("schedule", "list", "--json", "--db", db)
	var rows []listedSchedule
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("schedule list = exit %d\n%s", code, out)
	}
	return rows
}

// TestScheduleRunDueParkedHoldsNextSlot: an hourly schedule whose coworker
// has a token budget parks at its first slot (run-due exits 3, not 0);
// while that run waits on its inbox item, the next slot does not start
// another run: it is recorded "held: the last run is waiting on you —
// inbox item …" (exit 3, no model request, still one open item); once the
// item is answered and the run resumed, the next slot runs and counts the
// held slot as missed (caught up (missed 2)), exit 0.
func TestScheduleRunDueParkedHoldsNextSlot(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	bundles := writeBudgetedCoworker(t)
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__system_info_get", Arguments: `{}`}}, InputTokens: 1200, OutputTokens: 300},
		modeltest.Reply{Text: "Checked.", InputTokens: 10, OutputTokens: 10},
		modeltest.Reply{Text: "Checked again.", InputTokens: 10, OutputTokens: 10})
	bin := scheduleBin(t)
	if out, code := bin("schedule", "add", "--coworker", "sysinfo", "--every", "1h", "--prompt", "Check.", "--db", db, "--coworkers", bundles); code != 0 {
		t.Fatalf("schedule add = exit %d\n%s", code, out)
	}
	created := listSchedules(t, bin, db)[0].CreatedAt
	flags := []string{"--coworkers", bundles, "--db", db, "--base-url", m.URL, "--model", "test", "--approve", "bypass"}
	due := func(at time.Duration) (string, int) {
		return bin(append([]string{"schedule", "run-due", "--now", created.Add(at).Format(time.RFC3339Nano)}, flags...)...)
	}
	if out, code := due(time.Hour + time.Minute); code != 3 || !strings.Contains(out, "waiting on you") {
		t.Fatalf("run-due at the first slot = exit %d\n%s\nwant exit 3, parked", code, out)
	}
	out, code := bin("inbox", "list", "--json", "--db", db)
	var items []journal.InboxItem
	if code != 0 || json.Unmarshal([]byte(out), &items) != nil || len(items) != 1 {
		t.Fatalf("inbox list = exit %d\n%s", code, out)
	}
	held := "held: the last run is waiting on you — inbox item " + items[0].ID
	if out, code := due(2*time.Hour + time.Minute); code != 3 || !strings.Contains(out, held) {
		t.Fatalf("run-due at the second slot = exit %d\n%s\nwant exit 3 and %q", code, out, held)
	}
	if n := len(m.Requests()); n != 1 {
		t.Fatalf("%d model requests; want 1 (the held slot starts no run)", n)
	}
	if out, _ := bin("inbox", "list", "--json", "--db", db); strings.Count(out, `"id": "inb_`)+strings.Count(out, `"id":"inb_`) != 1 {
		t.Fatalf("inbox after the held slot:\n%s\nwant still one item", out)
	}
	rows := listSchedules(t, bin, db)
	if r := rows[0].Runs; len(r) != 2 || r[0].Run.State != journal.RunHeld || r[0].SessionID != "" || r[0].Missed != 1 {
		t.Fatalf("runs = %+v; want the newest held", r)
	}
	if out, code := bin("inbox", "answer", items[0].ID, "continue", "--db", db); code != 0 {
		t.Fatalf("inbox answer = exit %d\n%s", code, out)
	}
	if out, code := bin(append([]string{"resume"}, flags...)...); code != 0 {
		t.Fatalf("resume = exit %d\n%s", code, out)
	}
	if out, code := due(3*time.Hour + time.Minute); code != 0 || !strings.Contains(out, "caught up (missed 2)") {
		t.Fatalf("run-due after the answer = exit %d\n%s\nwant exit 0, caught up (missed 2)", code, out)
	}
}

// TestScheduleUnknownCoworker: schedule add and edit refuse a coworker
// the --coworkers folder does not hold (exit 2, naming the flag and the
// ids found); run-due with a mistyped --coworkers folder, or for a
// coworker that is gone, exits 1 saying why and claims no slot (it stays
// due and runs once the folder is right); a run that fails exits 1.
func TestScheduleUnknownCoworker(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	bundles := writeCoworker(t)
	m := modeltest.NewOpenAI(t, modeltest.Reply{Err: 401, ErrMessage: "bad key"}, modeltest.Reply{Text: "Fine."})
	bin := scheduleBin(t)
	out, code := bin("schedule", "add", "--coworker", "sysinf", "--every", "1h", "--prompt", "Check.", "--db", db, "--coworkers", bundles)
	if code != 2 || !strings.Contains(out, "--coworker sysinf") || !strings.Contains(out, "found: sysinfo") {
		t.Fatalf("schedule add with an unknown coworker = exit %d\n%s\nwant exit 2 naming --coworker and the ids found", code, out)
	}
	if out, code := bin("schedule", "add", "--coworker", "sysinfo", "--every", "1h", "--prompt", "Check.", "--db", db, "--coworkers", bundles); code != 0 {
		t.Fatalf("schedule add = exit %d\n%s", code, out)
	}
	s := listSchedules(t, bin, db)[0]
	if out, code := bin("schedule", "edit", s.ID, "--coworker", "ghost", "--db", db, "--coworkers", bundles); code != 2 || !strings.Contains(out, "found: sysinfo") {
		t.Fatalf("schedule edit to an unknown coworker = exit %d\n%s", code, out)
	}
	due := func(coworkers string, at time.Duration) (string, int) {
		return bin("schedule", "run-due", "--coworkers", coworkers, "--db", db, "--base-url", m.URL, "--model", "test",
			"--now", s.CreatedAt.Add(at).Format(time.RFC3339Nano))
	}
	typo := filepath.Join(dir, "cowrkers")
	if out, code := due(typo, time.Hour+time.Minute); code != 1 || !strings.Contains(out, typo) || !strings.Contains(out, "stay due") {
		t.Fatalf("run-due with a mistyped folder = exit %d\n%s\nwant exit 1 naming the folder", code, out)
	}
	if r := listSchedules(t, bin, db)[0].Runs; len(r) != 0 {
		t.Fatalf("runs after a mistyped folder = %+v; want none (the slot stays due)", r)
	}
	if out, code := bin("schedule", "edit", s.ID, "--coworker", "ghost", "--db", db); code != 0 {
		t.Fatalf("schedule edit without the folder = exit %d\n%s", code, out)
	}
	if out, code := due(bundles, time.Hour+time.Minute); code != 1 || !strings.Contains(out, `no coworker "ghost"`) || !strings.Contains(out, "stays due") {
		t.Fatalf("run-due for a coworker that is gone = exit %d\n%s\nwant exit 1", code, out)
	}
	if r := listSchedules(t, bin, db)[0].Runs; len(r) != 0 {
		t.Fatalf("runs after a missing coworker = %+v; want none", r)
	}
	if len(m.Requests()) != 0 {
		t.Fatalf("%d model requests; want none", len(m.Requests()))
	}
	if out, code := bin("schedule", "edit", s.ID, "--coworker", "sysinfo", "--db", db, "--coworkers", bundles); code != 0 {
		t.Fatalf("schedule edit back = exit %d\n%s", code, out)
	}
	if out, code := due(bundles, time.Hour+time.Minute); code != 1 || !strings.Contains(out, "failed") {
		t.Fatalf("run-due whose run fails = exit %d\n%s\nwant exit 1", code, out)
	}
	if out, code := due(bundles, 2*time.Hour+time.Minute); code != 0 || !strings.Contains(out, "succeeded") {
		t.Fatalf("run-due whose run succeeds = exit %d\n%s\nwant exit 0", code, out)
	}
}

// TestScheduleListWords: schedule list shows NEXT in the local time zone
// with its abbreviation, intervals as people write them ("every 2h"),
// UTC by one name whatever /etc/localtime or $TZ calls it; --tz with an
// interval is bad usage naming both flags; schedule's help lists edit.
func TestScheduleListWords(t *testing.T) {
	if _, err := time.LoadLocation("Europe/Berlin"); err != nil {
		t.Skip("no time zone database:", err)
	}
	db := filepath.Join(t.TempDir(), "journal.db")
	bin := func(tz string, args ...string) (string, int) {
		cmd := exec.Command(binary, args...)
		cmd.Env = append(binEnv(t), "TZ="+tz)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	if out, code := bin("Europe/Berlin", "schedule", "add", "--coworker", "sysinfo", "--every", "2h", "--prompt", "Check.", "--db", db); code != 0 || !strings.Contains(out, "(every 2h)") {
		t.Fatalf("schedule add --every 2h = exit %d\n%s", code, out)
	}
	for _, when := range [][]string{{"--every", "2h"}, {"--when", "every 2h"}} {
		args := append([]string{"schedule", "add", "--coworker", "sysinfo", "--tz", "Europe/Berlin", "--prompt", "Check.", "--db", db}, when...)
		if out, code := bin("Europe/Berlin", args...); code != 2 || !strings.Contains(out, "--tz does not go with "+when[0]) {
			t.Errorf("schedule add %s %s --tz = exit %d\n%s\nwant exit 2 naming --tz and %s", when[0], when[1], code, out, when[0])
		}
	}
	if out, code := bin("Etc/UTC", "schedule", "add", "--coworker", "sysinfo", "--when", "daily at 07:30", "--prompt", "Report.", "--db", db); code != 0 || !strings.Contains(out, "(daily at 07:30 UTC)") {
		t.Fatalf("schedule add --when in Etc/UTC = exit %d\n%s\nwant the zone called UTC", code, out)
	}
	out, code := bin("Europe/Berlin", "schedule", "list", "--db", db)
	if code != 0 || !strings.Contains(out, "every 2h ") || !strings.Contains(out, "daily at 07:30 UTC") || strings.Contains(out, "Etc/UTC") {
		t.Fatalf("schedule list = exit %d\n%s", code, out)
	}
	for _, row := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		if !strings.Contains(row, " CET") && !strings.Contains(row, " CEST") {
			t.Errorf("schedule list row without the zone of its NEXT time (Europe/Berlin):\n%s", row)
		}
	}
	if out, _ := bin("UTC", "schedule", "--help"); !strings.Contains(out, "add, list, edit, remove, run-due") {
		t.Errorf("schedule --help lacks edit:\n%s", out)
	}
	if out, code := bin("UTC", "schedule"); code != 2 || !strings.Contains(out, "add, list, edit, remove or run-due") {
		t.Errorf("schedule with no command = exit %d\n%s", code, out)
	}
}

// TestScheduleAddChecksTheAppsCoworkers: in the desktop app's binary the
// coworkers folder is known without --coworkers (the app's settings), so
// schedule add refuses an id it does not hold, listing the ones it does.
func TestScheduleAddChecksTheAppsCoworkers(t *testing.T) {
	cfg := t.TempDir()
	bundles := writeCoworker(t)
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(`{"coworkers_dir": `+strconvQuote(bundles)+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(t.TempDir(), "journal.db")
	run := func(args ...string) (int, string) {
		var out bytes.Buffer
		code := cli.Run(context.Background(), tool.NewRegistry(), args, cli.WithAppSettings(cfg),
			cli.WithIO(strings.NewReader(""), &out, &out, func(string) string { return "" }, func() bool { return false }))
		return code, out.String()
	}
	if code, out := run("schedule", "add", "--coworker", "sysinf", "--every", "1h", "--prompt", "Check.", "--db", db); code != 2 ||
		!strings.Contains(out, "--coworker sysinf: no coworker \"sysinf\" in "+bundles+" (found: sysinfo)") {
		t.Fatalf("schedule add of an unknown coworker in the app's binary = exit %d\n%s", code, out)
	}
	if code, out := run("schedule", "add", "--coworker", "sysinfo", "--every", "1h", "--prompt", "Check.", "--db", db); code != 0 {
		t.Fatalf("schedule add = exit %d\n%s", code, out)
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }
