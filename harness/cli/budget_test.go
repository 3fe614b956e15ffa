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
	bundles := writeBudgetedCoworker(t)
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

// TestBudgetDefaultsCLI: the default limits of the app's Settings
// (settings.json "limits" in OPENWORKER_CONFIG_DIR) apply to a terminal
// run of a coworker whose manifest sets none; a --limit-* flag wins over
// them, and the manifest wins per key: its tokens_per_run stands while the
// settings' tokens_per_day applies. A negative flag is bad usage; a
// settings file that cannot be read is said, and the run goes on.
func TestBudgetDefaultsCLI(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	cfg := filepath.Join(dir, "config")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	writeSettings := func(body string) {
		if err := os.WriteFile(filepath.Join(cfg, "settings.json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	bundles := writeCoworker(t)
	manifest := filepath.Join(bundles, "sysinfo", "coworker", "manifest.md")
	call := func(id string, in, out int64) modeltest.Reply {
		return modeltest.Reply{ToolCalls: []model.ToolCall{{ID: id, Name: "device__system_info_get", Arguments: `{}`}}, InputTokens: in, OutputTokens: out}
	}
	m := modeltest.NewOpenAI(t,
		call("c1", 1200, 300), // parks: over the settings' tokens_per_run
		call("c2", 1200, 300), modeltest.Reply{Text: "Done with the flag.", InputTokens: 10, OutputTokens: 5},
		modeltest.Reply{Text: "Fine without settings.", InputTokens: 10, OutputTokens: 5})
	bin := func(extra ...string) (string, int) {
		args := append([]string{"run", "--unattended", "--coworker", "sysinfo", "--coworkers", bundles, "--db", db, "--base-url", m.URL, "--model", "test", "--approve", "bypass"}, extra...)
		cmd := exec.Command(binary, append(args, "Check the system.")...)
		cmd.Env = append(binEnv(t), "OPENWORKER_CONFIG_DIR="+cfg)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return string(out), ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), 0
	}
	requests := func(want int) {
		t.Helper()
		if n := len(m.Requests()); n != want {
			t.Fatalf("%d model requests; want %d", n, want)
		}
	}

	writeSettings(`{"limits": {"tokens_per_run": 1000, "tokens_per_day": 3500}}`)
	if out, code := bin(); code != 3 || !strings.Contains(out, "tokens_per_run") {
		t.Fatalf("run with the settings' default tokens_per_run 1000 = exit %d\n%s\nwant exit 3, parked at tokens_per_run", code, out)
	}
	requests(1)
	if out, code := bin("--limit-tokens-per-run", "100000"); code != 0 || !strings.Contains(out, "Done with the flag.") {
		t.Fatalf("run with --limit-tokens-per-run 100000 = exit %d\n%s\nwant the run to the end", code, out)
	}
	requests(3)
	// The manifest's tokens_per_run stands; the settings' tokens_per_day
	// (3500, and 3015 used today) applies to the key it leaves out.
	if err := os.WriteFile(manifest, []byte("---\nid: sysinfo\nname: System Info\nlimits: {tokens_per_run: 100000}\n---\nAnswer with the system facts.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	writeSettings(`{"limits": {"tokens_per_run": 10, "tokens_per_day": 3000}}`)
	if out, code := bin(); code != 3 || !strings.Contains(out, "tokens_per_day") {
		t.Fatalf("run over the settings' tokens_per_day = exit %d\n%s\nwant exit 3, parked at tokens_per_day before any request", code, out)
	}
	requests(3)
	if out, code := bin("--limit-tokens-per-day", "-1"); code != 2 || !strings.Contains(out, "--limit-tokens-per-day -1: want a whole number from 0") {
		t.Fatalf("run --limit-tokens-per-day -1 = exit %d\n%s\nwant exit 2 naming the flag", code, out)
	}
	writeSettings(`{"limits": {"tokens_per_day": 0.5}}`)
	out, code := bin()
	if code != 0 || !strings.Contains(out, "Fine without settings.") || !strings.Contains(out, "the app's default limits do not apply") || !strings.Contains(out, "settings.json:1:") {
		t.Fatalf("run with an unreadable settings file = exit %d\n%s\nwant a warning naming the file, and the run", code, out)
	}
	requests(4)
}

// writeBudgetedCoworker is writeCoworker's sysinfo coworker with
// tokens_per_run: 1000 in its manifest; it returns the bundles folder.
func writeBudgetedCoworker(t *testing.T) string {
	t.Helper()
	bundles := writeCoworker(t)
	manifest := filepath.Join(bundles, "sysinfo", "coworker", "manifest.md")
	if err := os.WriteFile(manifest, []byte("---\nid: sysinfo\nname: System Info\nlimits: {tokens_per_run: 1000}\n---\nAnswer with the system facts.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return bundles
}
