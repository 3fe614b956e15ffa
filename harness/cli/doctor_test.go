package cli_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/doctor"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
)

// The secrets of TestDoctorNamesNoSecret, each in a place doctor reads.
const (
	doctorEnvSecret      = "owdoc-env-4Kq9Zt7Lw2"    // a servers env value (${LEDGER_TOKEN})
	doctorLiteralEnv     = "owdoc-lit-8Hc3Vb6Nm1"    // a servers env value written in the file
	doctorArgSecret      = "owdoc-arg-2Rf5Gh8Jk0"    // an arg (${DOCTOR_ARG}) the failing server prints on stderr
	doctorURLPassword    = "owdoc-pass-6Tn1Ys4Qa9"   // user:PASSWORD@ of a URL
	doctorURLQuery       = "owdoc-query-3Pe7Wd2Xc5"  // ?key=VALUE of a URL
	doctorHeaderSecret   = "owdoc-hdr-9Lm4Bv1Zs8"    // Authorization: Bearer VALUE
	doctorAPIKey         = "sk-owdoc-api-5Gt8Kw3Ry6" // OPENAI_API_KEY, also put in PATH
	doctorKeychainSecret = "sk-owdoc-kc-7Hu2Nj5Ef4"  // a key only the host's keychain knows
)

// `openworker doctor` (issue 13): a servers file with a real stdio MCP
// server that starts (mcp-go, this test binary), one that fails (the
// openworker binary asked for a built-in server that does not exist,
// which prints its argument on stderr), and an HTTP one on a closed
// 127.0.0.1 port whose URL holds a password and a key; a real SQLite
// journal. The report names every section, the started and the failed
// providers, and holds none of the secrets in any form (as written,
// URL-escaped, base64), in text or JSON.
func TestDoctorNamesNoSecret(t *testing.T) {
	if runtime.GOOS == "windows" {
		// doctor writes the home folder as ~, and on Windows the
		// temporary folders are in it (%LOCALAPPDATA%\Temp): a home of
		// its own keeps the paths below whole.
		t.Setenv("USERPROFILE", t.TempDir())
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Close(); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedPort := l.Addr().(*net.TCPAddr).Port
	l.Close()
	remote := (&url.URL{Scheme: "http", User: url.UserPassword("alice", doctorURLPassword), Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(closedPort)), Path: "/mcp", RawQuery: "key=" + doctorURLQuery}).String()
	servers := filepath.Join(dir, "servers.json")
	body, _ := json.MarshalIndent(map[string]any{"servers": map[string]any{
		"ledger": map[string]any{"transport": "stdio", "command": exe,
			"env": map[string]string{mcpgoEnv: "1", "LEDGER_TOKEN": "${LEDGER_TOKEN}", "LEDGER_LITERAL": doctorLiteralEnv, "GORACE": "atexit_sleep_ms=0"}},
		"broken": map[string]any{"transport": "stdio", "command": binary, "args": []string{"mcp", "serve", "${DOCTOR_ARG}"}},
		"remote": map[string]any{"transport": "streamable_http", "url": remote, "headers": map[string]string{"Authorization": "Bearer " + doctorHeaderSecret}},
	}}, "", "  ")
	if err := os.WriteFile(servers, body, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("LEDGER_TOKEN", doctorEnvSecret)
	t.Setenv("DOCTOR_ARG", doctorArgSecret)
	t.Setenv("OPENAI_API_KEY", doctorAPIKey)
	env := map[string]string{"OPENAI_API_KEY": doctorAPIKey, "PATH": filepath.Join(dir, doctorAPIKey, "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
	getenv := func(k string) string {
		if v, ok := env[k]; ok {
			return v
		}
		return os.Getenv(k)
	}
	hooks := doctor.Hooks{
		Desktop: doctor.Desktop{
			Webview:       func(context.Context) (string, string, error) { return "TestView", "1.2.3", nil },
			Notifications: func(context.Context) (string, error) { return "test back end", errors.New("no notification daemon") },
		},
		Keychain: func(context.Context) error { return nil },
		Secrets:  func() []string { return []string{doctorKeychainSecret} },
		Sections: func(context.Context) []doctor.Section {
			// A host that slips a key into its own section is redacted too.
			return []doctor.Section{{Name: "model", Facts: []doctor.Fact{{Key: "api key", Value: "set, " + doctorKeychainSecret}}}}
		},
	}
	run := func(args ...string) []byte {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		var out, errOut bytes.Buffer
		code := cli.Run(ctx, tool.NewRegistry(), args, cli.WithIO(strings.NewReader(""), &out, &errOut, getenv, func() bool { return false }), cli.WithDoctor(hooks))
		if code != cli.ExitOK {
			t.Fatalf("doctor = %d\nstdout:\n%s\nstderr:\n%s", code, out.Bytes(), errOut.Bytes())
		}
		for _, b := range [][]byte{out.Bytes(), errOut.Bytes()} {
			for _, leak := range doctorLeaks(b) {
				t.Errorf("%s leaks %s:\n%s", args, leak, b)
			}
		}
		return out.Bytes()
	}

	text := string(run("doctor", "--db", db, "--servers", servers))
	for _, want := range []string{"[openworker]", "[system]", "[webview]", "[notifications]", "[keychain]", "[path]", "[journal]", "[providers]", "[model]",
		"runtime  ok: TestView 1.2.3", "works    failed: no notification daemon", "available  ok: yes",
		"source  the process environment", "path         " + db, "schema       v", "quick check  ok:", "verify       ok: ",
		"provider ledger  ok: stdio " + exe, "env GORACE,LEDGER_LITERAL,LEDGER_TOKEN," + mcpgoEnv + ": started, 2 tools",
		"provider broken  failed: stdio " + binary, "[args[2] from ${DOCTOR_ARG}]",
		"provider remote  failed: streamable_http http://127.0.0.1:" + strconv.Itoa(closedPort) + "/mcp?… headers Authorization:",
		"api key  set, [redacted]"} {
		if !strings.Contains(text, want) {
			t.Errorf("doctor output lacks %q:\n%s", want, text)
		}
	}

	var rep doctor.Report
	if err := json.Unmarshal(run("doctor", "--db", db, "--servers", servers, "--json"), &rep); err != nil {
		t.Fatal(err)
	}
	status := map[string]string{}
	for _, s := range rep.Sections {
		for _, f := range s.Facts {
			status[s.Name+"/"+f.Key] = f.Status
		}
	}
	for key, want := range map[string]string{"providers/provider ledger": doctor.OK, "providers/provider broken": doctor.Failed,
		"providers/provider remote": doctor.Failed, "journal/verify": doctor.OK, "notifications/works": doctor.Failed} {
		if status[key] != want {
			t.Errorf("--json %s status = %q, want %q (all: %v)", key, status[key], want, status)
		}
	}
}

// doctorLeaks names each secret of TestDoctorNamesNoSecret found in b, as
// written or escaped.
func doctorLeaks(b []byte) []string {
	var out []string
	for _, s := range []string{doctorEnvSecret, doctorLiteralEnv, doctorArgSecret, doctorURLPassword, doctorURLQuery, doctorHeaderSecret, doctorAPIKey, doctorKeychainSecret} {
		for _, form := range []string{s, url.QueryEscape(s), base64.StdEncoding.EncodeToString([]byte(s)), s[:len(s)/2+2], s[len(s)/2-2:]} {
			if bytes.Contains(b, []byte(form)) {
				out = append(out, form)
			}
		}
	}
	return out
}

// A servers file that cannot be read is one failed line of [providers],
// not also a provider without a name.
func TestDoctorMissingServersFileOneLine(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	var out, errOut bytes.Buffer
	getenv := func(k string) string {
		if k == "HOME" {
			return dir
		}
		return ""
	}
	code := cli.Run(ctx, tool.NewRegistry(), []string{"doctor", "--db", filepath.Join(dir, "journal.db"), "--servers", missing},
		cli.WithIO(strings.NewReader(""), &out, &errOut, getenv, func() bool { return false }))
	if code != cli.ExitOK {
		t.Fatalf("doctor = %d\n%s\n%s", code, out.Bytes(), errOut.Bytes())
	}
	text := out.String()
	if n := strings.Count(text, "does not exist"); n != 1 {
		t.Errorf("the missing servers file is named %d times; want once:\n%s", n, text)
	}
	if !strings.Contains(text, "servers file  failed: ") || strings.Contains(text, "provider   ") {
		t.Errorf("want one failed servers-file line and no nameless provider:\n%s", text)
	}
}

// The product's `openworker doctor` without --db and --servers reports the
// app's files, read through harness/settings (cli.WithAppSettings): the
// journal of OPENWORKER_CONFIG_DIR, the servers file its settings.json
// names, and its model settings, the base URL without its query.
func TestDoctorReadsTheAppsFiles(t *testing.T) {
	dir := t.TempDir()
	servers := filepath.Join(t.TempDir(), "servers.json")
	write(t, servers, `{"servers": {}}`)
	const query = "owdoc-app-query-7Xw2"
	write(t, filepath.Join(dir, "settings.json"), `{"provider": "anthropic", "anthropic": {"base_url": "http://127.0.0.1:9/v1?key=`+query+`", "model": "claude-test"}, "servers_path": `+strconv.Quote(servers)+`}`)
	// No keychain is reached: the session bus is none.
	out, errOut, code := runBinary(t, []string{"OPENWORKER_CONFIG_DIR=" + dir, "DBUS_SESSION_BUS_ADDRESS=unix:path=" + filepath.Join(dir, "no-bus")}, "doctor")
	if code != 0 {
		t.Fatalf("doctor = %d\n%s\n%s", code, out, errOut)
	}
	flat := strings.Join(strings.Fields(out), " ") // keys are padded to one width
	wantAll(t, "doctor", flat, "[journal] path "+filepath.Join(dir, "journal.db"), "servers file ok: "+servers,
		"[model] provider anthropic base url http://127.0.0.1:9/v1?… model claude-test api key none")
	if strings.Contains(out, query) {
		t.Errorf("doctor shows the base URL's key:\n%s", out)
	}
}
