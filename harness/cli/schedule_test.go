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
