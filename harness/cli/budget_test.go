package cli_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestBudgetUnattendedCLI: a coworker whose manifest sets
// tokens_per_run: 1000, run --unattended against a scripted model that
// reports 1,500 tokens for its first reply (a tool call): the run parks
// before the call (exit 3) with a budget item; `inbox answer ID continue`
// and `resume` take it on to the end, the model asked twice in all.
func TestBudgetUnattendedCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	bundles := writeCoworker(t)
	manifest := filepath.Join(bundles, "sysinfo", "coworker", "manifest.md")
	if err := os.WriteFile(manifest, []byte("---\nid: sysinfo\nname: System Info\nlimits: {tokens_per_run: 1000}\n---\nAnswer with the system facts.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__system_info_get", Arguments: `{}`}}, InputTokens: 1200, OutputTokens: 300},
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c2", Name: "device__system_info_get", Arguments: `{}`}}, InputTokens: 100, OutputTokens: 10},
		modeltest.Reply{Text: "All good.", InputTokens: 100, OutputTokens: 10})
	bin := func(args ...string) (string, int) {
		cmd := exec.Command(binary, args...)
		cmd.Env = binEnv(t)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	flags := []string{"--coworkers", bundles, "--db", db, "--base-url", m.URL, "--model", "test", "--approve", "bypass"}
	out, code := bin(append([]string{"run", "--unattended", "--coworker", "sysinfo", "Check the system."}, flags...)...)
	if code != 3 || !strings.Contains(out, "tokens_per_run") {
		t.Fatalf("run --unattended = exit %d\n%s\nwant exit 3, parked at the budget", code, out)
	}
	if n := len(m.Requests()); n != 1 {
		t.Fatalf("%d model requests; want 1", n)
	}
	list, code := bin("inbox", "list", "--json", "--db", db)
	var items []journal.InboxItem
	if code != 0 || json.Unmarshal([]byte(list), &items) != nil || len(items) != 1 || items[0].Kind != journal.InboxBudget {
		t.Fatalf("inbox list = exit %d\n%s", code, list)
	}
	if out, code := bin(append([]string{"resume"}, flags...)...); code != 0 || !strings.Contains(out, "no parked run has an answered") {
		t.Fatalf("resume before the answer = exit %d\n%s", code, out)
	}
	if out, code := bin("inbox", "answer", items[0].ID, "continue", "--db", db); code != 0 {
		t.Fatalf("inbox answer = exit %d\n%s", code, out)
	}
	if out, code := bin(append([]string{"resume"}, flags...)...); code != 0 || !strings.Contains(out, "All good.") {
		t.Fatalf("resume = exit %d\n%s", code, out)
	}
	if n := len(m.Requests()); n != 3 {
		t.Fatalf("%d model requests; want 3", n)
	}
	if out, _ := bin("journal", "show", items[0].SessionID, "--db", db); !strings.Contains(out, "tokens") {
		t.Logf("journal show:\n%s", out)
	}
}
