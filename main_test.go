package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/internal/testbin"
)

// These tests build the real openworker binary once and drive it as a user
// would: check, run against a scripted model on 127.0.0.1, journal show.

var binary string

func TestMain(m *testing.M) { testbin.Main(m, &binary) }

type result struct {
	code           int
	stdout, stderr string
}

func runBin(t *testing.T, args ...string) result {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "OPENAI_API_KEY=", "OPENAI_BASE_URL=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return result{code, out.String(), errb.String()}
}

func TestCheckExamples(t *testing.T) {
	r := runBin(t, "check", "--coworkers", "examples/coworkers", "--json")
	if r.code != 0 {
		t.Fatalf("check exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	var rep struct {
		OK []struct {
			ID    string
			Tools []struct{ Name, Alias, Provider, Remote string }
		}
		Broken []any
	}
	if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
		t.Fatalf("check --json printed %q: %v", r.stdout, err)
	}
	if len(rep.OK) == 0 || len(rep.Broken) != 0 {
		t.Fatalf("check = %+v, want every example ok", rep)
	}
	want := map[string]string{
		"notification.show":         "native/notification.show",
		"device.battery_status_get": "mcp:device/battery_status_get",
		"device.system_info_get":    "mcp:device/system_info_get",
	}
	for _, cw := range rep.OK {
		if cw.ID != "device-assistant" {
			continue
		}
		for _, tl := range cw.Tools {
			if want[tl.Name] != tl.Provider+"/"+tl.Remote {
				t.Errorf("%s resolved to %s/%s, want %s", tl.Name, tl.Provider, tl.Remote, want[tl.Name])
			}
			delete(want, tl.Name)
		}
	}
	if len(want) != 0 {
		t.Fatalf("tools not listed: %v", want)
	}
	// Every example is a bundle that check passes, and the files templates
	// select the built-in files provider (docs/files.md#templates).
	dirs, err := os.ReadDir("examples/coworkers")
	if err != nil {
		t.Fatal(err)
	}
	ok := map[string]bool{}
	for _, cw := range rep.OK {
		ok[cw.ID] = true
		if cw.ID != "files-assistant" && cw.ID != "notes-keeper" {
			continue
		}
		if len(cw.Tools) < 7 {
			t.Errorf("%s selects %d tools, want the files tools", cw.ID, len(cw.Tools))
		}
		for _, tl := range cw.Tools {
			if tl.Provider != "mcp:files" || "files."+tl.Remote != tl.Name {
				t.Errorf("%s: %s resolved to %s/%s, want mcp:files", cw.ID, tl.Name, tl.Provider, tl.Remote)
			}
		}
	}
	for _, d := range dirs {
		if d.IsDir() && !ok[d.Name()] {
			t.Errorf("example %s is not listed ok by check", d.Name())
		}
	}
	for _, id := range []string{"device-assistant", "files-assistant", "notes-keeper"} {
		if !ok[id] {
			t.Errorf("example %s is missing", id)
		}
	}
	human := runBin(t, "check", "--coworkers", "examples/coworkers")
	if human.code != 0 || !strings.Contains(human.stdout, "device.battery_status_get") || !strings.Contains(human.stdout, "mcp:device") {
		t.Fatalf("check (text) exit %d:\n%s%s", human.code, human.stdout, human.stderr)
	}
}

func TestCheckReportsBrokenBundleAndListsGoodOne(t *testing.T) {
	dir := t.TempDir()
	copyDir(t, "examples/coworkers/device-assistant", filepath.Join(dir, "device-assistant"))
	broken := filepath.Join(dir, "broken", "coworker")
	os.MkdirAll(broken, 0o755)
	os.WriteFile(filepath.Join(broken, "manifest.md"), []byte("---\nid: broken\nname: Broken\n---\nBroken on purpose.\n"), 0o644)
	os.WriteFile(filepath.Join(broken, "tools.json"), []byte("{\n  \"version\": 3,\n  \"tools\": [\"notification.show\",]\n}\n"), 0o644)
	r := runBin(t, "check", "--coworkers", dir)
	if r.code != 2 {
		t.Fatalf("exit %d, want 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, "tools.json:3:") || !strings.Contains(r.stdout, "broken") {
		t.Fatalf("output does not name tools.json line 3:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "ok      device-assistant") {
		t.Fatalf("the good bundle is not listed:\n%s", r.stdout)
	}
}

func TestRunEndToEnd(t *testing.T) {
	srv := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__battery_status_get", Arguments: `{}`}}},
		modeltest.Reply{Text: "Your battery status is in."},
	)
	db := filepath.Join(t.TempDir(), "journal.db")
	r := runBin(t, "run", "--coworkers", "examples/coworkers", "--coworker", "device-assistant",
		"--base-url", srv.URL, "--model", "test", "--approve", "bypass", "--db", db, "How is my battery?")
	if r.code != 0 || !strings.Contains(r.stdout, "Your battery status is in.") {
		t.Fatalf("run exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	show := runBin(t, "journal", "show", "--db", db, "--json")
	if show.code != 0 {
		t.Fatalf("journal show exit %d: %s", show.code, show.stderr)
	}
	var d struct {
		Invocations []struct {
			Tool, Status string
			Result       json.RawMessage
		}
	}
	if err := json.Unmarshal([]byte(show.stdout), &d); err != nil {
		t.Fatalf("journal show --json: %v\n%s", err, show.stdout)
	}
	if len(d.Invocations) != 1 || d.Invocations[0].Tool != "device.battery_status_get" || d.Invocations[0].Status != "succeeded" {
		t.Fatalf("invocations = %+v, want one succeeded battery call", d.Invocations)
	}
	if !strings.Contains(string(d.Invocations[0].Result), "present") {
		t.Fatalf("journaled result %s is not the device server's battery answer", d.Invocations[0].Result)
	}
}

func TestRunRefusesUnselectedTool(t *testing.T) {
	srv := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__disk_usage_get", Arguments: `{}`}}},
		modeltest.Reply{Text: "I cannot check disks."},
	)
	db := filepath.Join(t.TempDir(), "journal.db")
	r := runBin(t, "run", "--coworkers", "examples/coworkers", "--coworker", "device-assistant",
		"--base-url", srv.URL, "--model", "test", "--approve", "bypass", "--db", db, "How full is my disk?")
	if r.code != 0 {
		t.Fatalf("run exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	show := runBin(t, "journal", "show", "--db", db, "--json")
	var d struct {
		Invocations []struct {
			Alias, Status string
			ErrorCode     string `json:"error_code"`
		}
	}
	json.Unmarshal([]byte(show.stdout), &d)
	if len(d.Invocations) != 1 || d.Invocations[0].Alias != "device__disk_usage_get" || d.Invocations[0].Status != "refused" || d.Invocations[0].ErrorCode != "not_selected" {
		t.Fatalf("invocations = %+v, want one refused not_selected", d.Invocations)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 || len(reqs[1].ToolResults()) != 1 || !strings.Contains(reqs[1].ToolResults()[0].Text, "not_selected") {
		t.Fatalf("the model did not get an error result: %+v", reqs)
	}
}

func TestRunUnreachableModel(t *testing.T) {
	db := filepath.Join(t.TempDir(), "journal.db")
	r := runBin(t, "run", "--coworkers", "examples/coworkers", "--coworker", "device-assistant",
		"--base-url", "http://127.0.0.1:1/v1", "--model", "test", "--approve", "bypass", "--db", db, "hi")
	if r.code != 1 || !strings.Contains(r.stderr, "http://127.0.0.1:1/v1") {
		t.Fatalf("exit %d, want 1 with the base URL\n%s", r.code, r.stderr)
	}
	list := runBin(t, "journal", "list", "--db", db, "--json")
	if !strings.Contains(list.stdout, `"failed"`) {
		t.Fatalf("session not journaled as failed:\n%s", list.stdout)
	}
	table := runBin(t, "journal", "list", "--db", db)
	if lines := strings.Split(strings.TrimSpace(table.stdout), "\n"); len(lines) != 2 || !strings.HasPrefix(lines[0], "SESSION") ||
		!strings.Contains(lines[1], "device-assistant") || !strings.Contains(lines[1], "failed") || !strings.HasSuffix(lines[1], "hi") {
		t.Fatalf("journal list = %q; want a header and the session with its status and first prompt", table.stdout)
	}
}

func TestRunAskWithoutTerminalDenies(t *testing.T) {
	srv := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "device__battery_status_get", Arguments: `{}`}}},
		modeltest.Reply{Text: "I was not allowed."},
	)
	db := filepath.Join(t.TempDir(), "journal.db")
	r := runBin(t, "run", "--coworkers", "examples/coworkers", "--coworker", "device-assistant",
		"--base-url", srv.URL, "--model", "test", "--approve", "ask", "--db", db, "battery?")
	if r.code != 0 || !strings.Contains(r.stderr, "no terminal") {
		t.Fatalf("exit %d, want 0 with a message about the missing terminal\n%s", r.code, r.stderr)
	}
	show := runBin(t, "journal", "show", "--db", db, "--json")
	if !strings.Contains(show.stdout, `"deny"`) {
		t.Fatalf("the denial is not journaled:\n%s", show.stdout)
	}
}

func TestBadServersFileExits2(t *testing.T) {
	f := filepath.Join(t.TempDir(), "servers.json")
	os.WriteFile(f, []byte("{\"servers\": {\"x\": {\"transport\": \"stdio\", \"comand\": \"y\"}}}"), 0o644)
	r := runBin(t, "check", "--coworkers", "examples/coworkers", "--servers", f)
	if r.code != 2 || !strings.Contains(r.stderr, "servers.json:1:") {
		t.Fatalf("exit %d, want 2 naming servers.json:1:COL\n%s", r.code, r.stderr)
	}
}

func TestVersionAndUsage(t *testing.T) {
	if r := runBin(t, "version"); r.code != 0 || !strings.HasPrefix(r.stdout, "openworker ") {
		t.Fatalf("version: %d %q", r.code, r.stdout)
	}
	if r := runBin(t, "frobnicate"); r.code != 2 {
		t.Fatalf("unknown command exit %d, want 2", r.code)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if info.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSecretsFromServersFileNeverPrinted(t *testing.T) {
	const secret = "sk-supersecret-TOKEN-42"
	t.Setenv("MY_SECRET", secret)
	dir := t.TempDir()
	servers := filepath.Join(dir, "servers.json")
	os.WriteFile(servers, []byte(`{"servers": {"leak": {"transport": "stdio", "command": "/bin/sh",
  "args": ["-c", "echo auth failed for token $TOKEN >&2; exit 1"], "env": {"TOKEN": "${MY_SECRET}"}}}}`), 0o644)
	cw := filepath.Join(dir, "cw", "leaky", "coworker")
	os.MkdirAll(cw, 0o755)
	os.WriteFile(filepath.Join(cw, "manifest.md"), []byte("---\nid: leaky\nname: Leaky\n---\nLeak.\n"), 0o644)
	os.WriteFile(filepath.Join(cw, "tools.json"), []byte(`{"version":3,"tools":["leak.get"]}`), 0o644)
	r := runBin(t, "check", "--coworkers", filepath.Join(dir, "cw"), "--servers", servers)
	out := r.stdout + r.stderr
	// The value is replaced by where it came from (docs/servers.md#substitution).
	if r.code != 2 || !strings.Contains(out, "auth failed for token [env.TOKEN from ${MY_SECRET}]") || strings.Contains(out, secret) {
		t.Fatalf("exit %d, want 2 with the stderr tail naming the variable, never its value:\n%s", r.code, out)
	}
}
