package cli_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestRunTakesTheAppsCoworkersFolder: without --coworkers, run uses the
// desktop app's coworkers folder (its settings.json "coworkers_dir"), as
// schedule add does; with no such folder it still asks for --coworkers.
func TestRunTakesTheAppsCoworkersFolder(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.MkdirAll(cfg, 0o700); err != nil {
		t.Fatal(err)
	}
	bundles := writeCoworker(t)
	m := modeltest.NewOpenAI(t, modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__system_info_get", Arguments: `{}`}}}, modeltest.Reply{Text: "It is a computer."})
	run := func() (string, error) {
		cmd := exec.Command(binary, "run", "--coworker", "sysinfo", "--db", filepath.Join(dir, "journal.db"), "--base-url", m.URL, "--model", "test", "--approve", "bypass", "What is this?")
		cmd.Env = append(binEnv(t), "OPENWORKER_CONFIG_DIR="+cfg)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run(); err == nil || !strings.Contains(out, "needs --coworkers DIR") {
		t.Fatalf("run with no app folder = %v\n%s\nwant the usage error", err, out)
	}
	settings, _ := json.Marshal(map[string]string{"coworkers_dir": bundles})
	if err := os.WriteFile(filepath.Join(cfg, "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := run(); err != nil || !strings.Contains(out, "It is a computer.") {
		t.Fatalf("run with the app's folder = %v\n%s", err, out)
	}
}
