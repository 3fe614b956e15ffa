package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// saveTo is a Dialogs whose save dialog answers path.
type saveTo struct {
	pickFile
	path, name string
}

func (s *saveTo) SaveFile(_, _, name string) (string, error) {
	s.name = name
	return s.path, nil
}

// copyExe copies the test binary to dir/name (a program whose name says
// it may download: npx).
func copyExe(t *testing.T, dir, name string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	b, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, name)
	if err := os.WriteFile(out, b, 0o755); err != nil {
		t.Fatal(err)
	}
	return out
}

// The Diagnostics screen (issue 39): a run starts only the servers a
// coworker uses (real stdio servers: the test binary), never one no
// coworker uses, and one that would download (an npx never started here)
// only once the person allows it; after that start it is remembered and no
// longer asked about. The report is saved where the save dialog says.
func TestDiagnosticsStartsOnlyWhatCoworkersUse(t *testing.T) {
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	npx := copyExe(t, dir, "npx")
	logOf := func(ns string) string { return filepath.Join(dir, ns+".starts") }
	entry := func(cmd string, args []string, ns string) map[string]any {
		return map[string]any{"transport": "stdio", "command": cmd, "args": args, "env": map[string]string{serveDeviceEnv: "1", startLogEnv: logOf(ns)}}
	}
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{
		"dev":     entry(exe, []string{}, "dev"),
		"fetcher": entry(npx, []string{"-y", "@example/fetcher-mcp"}, "fetcher"),
		"idle":    entry(exe, []string{}, "idle"),
	}})
	serversPath := filepath.Join(dir, "servers.json")
	if err := os.WriteFile(serversPath, body, 0o600); err != nil {
		t.Fatal(err)
	}
	// The coworkers are there before the app starts: no live reload of
	// the folder checks them (which would start their servers).
	e := newTestEnv(t, envOpts{cfg: config{Servers: serversPath}, bundles: func(dir string) {
		writeBundle(t, dir, "devhelper", "dev.battery_status_get")
		writeBundle(t, dir, "fetch", "fetcher.battery_status_get", "dev.system_info_get")
	}})

	plan, err := e.app.Activity.DiagnosticsPlan()
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Servers) != 2 || plan.Servers[0].Namespace != "dev" || plan.Servers[0].MayDownload != "" ||
		plan.Servers[1].Namespace != "fetcher" || !strings.Contains(plan.Servers[1].MayDownload, "npx may still be downloading") ||
		strings.Join(plan.Servers[0].Coworkers, ",") != "Test devhelper,Test fetch" || strings.Join(plan.Unused, ",") != "idle" {
		t.Fatalf("DiagnosticsPlan() = %+v", plan)
	}

	rep, err := e.app.Activity.RunDiagnostics(false)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"provider dev      ok: stdio ", ": started, ", "provider fetcher  unavailable: not started: npx may still be downloading the package",
		"not started       no coworker uses idle", "[model]", "reachable"} {
		if !strings.Contains(rep.Text, want) {
			t.Errorf("report without downloads lacks %q:\n%s", want, rep.Text)
		}
	}
	if _, err := os.Stat(logOf("dev")); err != nil {
		t.Errorf("dev was not started: %v", err)
	}
	for _, ns := range []string{"fetcher", "idle"} {
		if _, err := os.Stat(logOf(ns)); err == nil {
			t.Errorf("%s was started without being asked for", ns)
		}
	}
	if len(rep.Sections) == 0 || rep.TookMS <= 0 {
		t.Errorf("report sections %d, took %d ms", len(rep.Sections), rep.TookMS)
	}

	rep, err = e.app.Activity.RunDiagnostics(true)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.Text, "provider fetcher  ok: stdio ") {
		t.Errorf("report with downloads:\n%s", rep.Text)
	}
	if _, err := os.Stat(logOf("fetcher")); err != nil {
		t.Errorf("fetcher was not started once allowed: %v", err)
	}
	if _, err := os.Stat(logOf("idle")); err == nil {
		t.Error("idle, which no coworker uses, was started")
	}
	if plan, _ = e.app.Activity.DiagnosticsPlan(); plan.Servers[1].MayDownload != "" {
		t.Errorf("fetcher after a successful start still may download: %+v", plan.Servers[1])
	}

	out := filepath.Join(dir, "report.txt")
	save := &saveTo{path: out}
	e.app.dialogs = save
	got, err := e.app.Activity.SaveDiagnostics(rep.Text)
	if err != nil || got != out {
		t.Fatalf("SaveDiagnostics = %q, %v", got, err)
	}
	if b, _ := os.ReadFile(out); string(b) != rep.Text || !strings.HasPrefix(save.name, "openworker-diagnostics-") {
		t.Errorf("saved %q as %s", b, save.name)
	}
}
