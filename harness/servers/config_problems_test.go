package servers

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// writeConfig writes text as dir/name (making its folders) and returns
// the path.
func writeConfig(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// entryNamed returns the entry of cfg written as name.
func entryNamed(t *testing.T, cfg *Config, name string) ConfigEntry {
	t.Helper()
	for _, e := range cfg.Entries {
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no entry %q in %+v", name, cfg.Entries)
	return ConfigEntry{}
}

// wantEntryErr checks that e's error is at line:col of path and holds
// every fragment.
func wantEntryErr(t *testing.T, e ConfigEntry, path string, line, col int, frags ...string) {
	t.Helper()
	je, ok := jsonfile.AsError(e.Err)
	if !ok || je.File != path || je.Line != line || je.Col != col {
		t.Errorf("%s: Err = %v; want an error at %s:%d:%d", e.Name, e.Err, path, line, col)
		return
	}
	for _, f := range frags {
		if !strings.Contains(je.Error(), f) {
			t.Errorf("%s: Err = %v; want it to contain %q", e.Name, je, f)
		}
	}
}

func wantNotice(t *testing.T, notices []string, frags ...string) {
	t.Helper()
	all := strings.Join(notices, "\n")
	for _, f := range frags {
		if !strings.Contains(all, f) {
			t.Errorf("notices:\n%s\nwant one containing %q", all, f)
		}
	}
}

// TestRegisterServersFileBuiltInClash: entries named like the binary's own
// namespaces (a provider registered in code, native tools) are errors of
// those entries, at their names, with the fix; the error is the entry's
// Err and the broken record's, names no Go type, and the other entries
// register.
func TestRegisterServersFileBuiltInClash(t *testing.T) {
	r := tool.NewRegistry()
	if err := r.Register(namedTool{"notification.show"}); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterMCP(tool.MCPServer{Namespace: "device", Program: "/opt/openworker", Args: []string{"mcp", "serve", "device"}}); err != nil {
		t.Fatal(err)
	}
	p := writeConfig(t, t.TempDir(), "devclash.json", `{"mcpServers": {
  "device": {"command": "/bin/true"},
    "notification": {"command": "/bin/true"},
  "mine": {"command": "/bin/true"}
}}`)
	cfg, err := RegisterServersFile(r, p, nil)
	if err == nil || cfg == nil {
		t.Fatalf("RegisterServersFile = %v, %v; want both clashes reported", cfg, err)
	}
	dev, note := entryNamed(t, cfg, "device"), entryNamed(t, cfg, "notification")
	wantEntryErr(t, dev, p, 2, 3, `server "device" cannot have the namespace "device": OpenWorker's built-in MCP provider "device" (program /opt/openworker) has it`,
		"rename the server in "+p+", and select its tools as NEW_NAME.TOOL: the namespace device is OpenWorker's built-in MCP provider")
	wantEntryErr(t, note, p, 3, 5, `server "notification" cannot have the namespace "notification": OpenWorker's built-in native tools notification.show have it`,
		"rename the server in "+p)
	if strings.Contains(err.Error(), "(tool.") || strings.Contains(err.Error(), "(mcp.") || strings.Contains(err.Error(), "(*") {
		t.Errorf("the error names a Go type: %v", err)
	}
	if _, ok := r.Server("mine"); !ok {
		t.Error("the good entry was not registered")
	}
	if s, _ := r.Server("device"); s.Program != "/opt/openworker" {
		t.Errorf("device = %+v; want the built-in kept", s)
	}
	b := r.Broken()
	if len(b) != 2 || b[0].Err != dev.Err || b[1].Err != note.Err || !b[0].Entry || b[0].Namespace != "device" {
		t.Errorf("Broken() = %+v; want the entries' own errors", b)
	}
	if err := r.Freeze(); err != nil {
		t.Errorf("Freeze = %v; a clash of an entry does not stop the runtime", err)
	}

	// A host that installs the entries itself (Runtime.SetServers) checks
	// them against its frozen registry first: the same errors.
	r = tool.NewRegistry()
	if err := r.Register(namedTool{"notification.show"}); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterMCP(tool.MCPServer{Namespace: "device", Program: "/opt/openworker", Args: []string{"mcp", "serve", "device"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Freeze(); err != nil {
		t.Fatal(err)
	}
	cfg, err = ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.CheckRegistry(r)
	if got := entryNamed(t, cfg, "device").Err; got == nil || got.Error() != dev.Err.Error() {
		t.Errorf("CheckRegistry: device = %v; want %v", got, dev.Err)
	}
	servers, broken := cfg.Servers()
	if len(servers) != 1 || servers[0].Namespace != "mine" || len(broken) != 2 || broken[1].Namespace != "notification" {
		t.Errorf("Servers() = %+v, %+v; want mine and the two clashes broken", servers, broken)
	}
}

// TestStartErrorNamesTheVariable: a folder or a program substituted from
// the environment is never shown in a start error; the error says which
// field and which variable instead.
func TestStartErrorNamesTheVariable(t *testing.T) {
	dir := t.TempDir()
	fakeHome(t, t.TempDir())
	env := map[string]string{"CWD_SECRET": "/nonexistent/CWDSECRET9", "PROG_SECRET": "/nonexistent/PROGSECRET7/server", "PROG_NAME": "no-such-programSECRET7"}
	p := writeConfig(t, dir, ".mcp.json", `{"mcpServers": {
  "folder": {"command": "`+filepath.ToSlash(os.Args[0])+`", "cwd": "${CWD_SECRET}"},
  "program": {"command": "${PROG_SECRET}"},
  "bare": {"command": "${PROG_NAME}"}
}}`)
	cfg, err := ReadConfig(p, &ConfigOptions{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }})
	if err != nil || cfg.Err() != nil {
		t.Fatalf("ReadConfig = %v, %v", err, cfg.Err())
	}
	notStarted := `did not start: fork/exec [command from ${PROG_SECRET}]: no such file or directory`
	if runtime.GOOS == "windows" { // os/exec quotes the program, resolved against the install folder
		notStarted = `did not start: exec: "[command from ${PROG_SECRET}]": executable file not found in %PATH%`
	}
	for name, want := range map[string]string{
		"folder":  `the working folder (from ${CWD_SECRET}) does not exist or is not a folder; fix its "cwd" at ` + p + ":2",
		"program": notStarted,
		"bare":    `the program (from ${PROG_NAME} in "command") cannot be found: program "[command from ${PROG_NAME}]" cannot be found: it is not in the install folder`,
	} {
		srv := entryNamed(t, cfg, name).Server
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		pr, err := mcp.Connect(ctx, srv, nil)
		cancel()
		if err == nil {
			pr.Close()
			t.Fatalf("%s: Connect succeeded", name)
		}
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Connect = %v; want %q", name, err, want)
		}
		if strings.Contains(err.Error(), "SECRET9") || strings.Contains(err.Error(), "SECRET7") {
			t.Errorf("%s: the substituted value is shown: %v", name, err)
		}
	}
}

// TestInputDefinitionProblemsStayWithTheirEntries: a bad definition in
// "inputs" never breaks the file. One without an id is a notice; a
// repeated id, a bad field or another type is an error of the entries
// that use it (a notice naming its line when none does); entries that use
// no input load.
func TestInputDefinitionProblemsStayWithTheirEntries(t *testing.T) {
	fakeHome(t, t.TempDir())
	p := writeConfig(t, t.TempDir(), filepath.Join(".vscode", "mcp.json"), `{
  "inputs": [
    {"type": "promptString"},
    {"type": "promptString", "id": "twice", "description": "first"},
    {"type": "promptString", "id": "twice", "description": "second"},
    {"type": "promptString", "id": "pw", "password": "yes"},
    {"type": "pickString", "id": "unused"},
    {"type": "promptString", "id": "good"}
  ],
  "servers": {
    "plain": {"command": "plain"},
    "dup": {"command": "dup", "env": {"T": "${input:twice}"}},
    "pass": {"command": "pass", "args": ["${input:pw}"]},
    "fine": {"command": "fine", "args": ["${input:good}"]}
  }
}`)
	var a answers
	cfg, err := ReadConfig(p, &ConfigOptions{Inputs: a.ask})
	if err != nil {
		t.Fatalf("ReadConfig = %v; a bad input definition must not break the file", err)
	}
	for _, name := range []string{"plain", "fine"} {
		if e := entryNamed(t, cfg, name); e.Err != nil {
			t.Errorf("%s: %v", name, e.Err)
		}
	}
	wantEntryErr(t, entryNamed(t, cfg, "dup"), p, 12, 44, `input "twice" is defined twice in "inputs" (lines 4 and 5)`, "keep one of them")
	wantEntryErr(t, entryNamed(t, cfg, "pass"), p, 13, 42, `input "pw" (line 6) cannot be asked: its "password" must be true or false (without quotes), not a string`)
	wantNotice(t, cfg.Notices, p+`:3: inputs[0] is ignored: it has no "id"`,
		p+`:7: input "unused" (line 7) is of type "pickString"`, "(no entry uses it)")
	if len(cfg.Notices) != 2 {
		t.Errorf("notices = %q; want 2", cfg.Notices)
	}
	if len(a.asked) != 1 {
		t.Errorf("asked %v; want only the good input", a.asked)
	}

	// "inputs" that is not an array: a notice, and only the entries that
	// use an input fail.
	p = writeConfig(t, t.TempDir(), filepath.Join(".vscode", "mcp.json"), `{"inputs": {"id": "x"},
  "servers": {"plain": {"command": "plain"}, "uses": {"command": "uses", "args": ["${input:x}"]}}}`)
	cfg, err = ReadConfig(p, &ConfigOptions{Inputs: a.ask})
	if err != nil {
		t.Fatal(err)
	}
	if e := entryNamed(t, cfg, "plain"); e.Err != nil {
		t.Errorf("plain: %v", e.Err)
	}
	wantEntryErr(t, entryNamed(t, cfg, "uses"), p, 2, 83, `the top-level "inputs" (line 1) must be an array`)
	wantNotice(t, cfg.Notices, p+`:1: the top-level "inputs" (line 1) must be an array`)
}

// TestTimeoutBounds: any value over the bound is capped at 75 s with the
// notice; under 1 s (1000 ms) or not positive it is ignored with a notice;
// a string or null is an error saying to write a number without quotes.
func TestTimeoutBounds(t *testing.T) {
	fakeHome(t, t.TempDir())
	for _, tc := range []struct {
		file, value string
		want        time.Duration
		notice, err string
	}{
		{"servers.json", "1e20", tool.DefaultCallTimeout, `"timeout" 1e20 seconds of server "s" is over OpenWorker's bound of 1m15s per call`, ""},
		{"servers.json", "1e400", tool.DefaultCallTimeout, `is over OpenWorker's bound of 1m15s`, ""},
		{"servers.json", "30", 30 * time.Second, "", ""},
		{"servers.json", "0.5", 0, `"timeout" 0.5 of server "s" is ignored: the OpenWorker servers.json format counts it in seconds, and OpenWorker ignores values under 1s (1000 ms)`, ""},
		{"servers.json", "-3", 0, `"timeout" -3 of server "s" is ignored: it must be a positive number of seconds`, ""},
		{"servers.json", `"60"`, 0, "", `"timeout" of server "s" must be a number, not a string; write the number without quotes: "timeout": 60 (seconds)`},
		{"servers.json", "null", 0, "", `"timeout" of server "s" must be a number, not null; write a number of seconds without quotes, like "timeout": 60, or remove the key`},
		{".amazonq/mcp.json", "1", 0, `"timeout" 1 of server "s" is ignored: the Amazon Q format counts it in milliseconds, and OpenWorker ignores values under 1s (1000 ms)`, ""},
		{".amazonq/mcp.json", "1500", 1500 * time.Millisecond, "", ""},
		{".amazonq/mcp.json", `"abc"`, 0, "", `write a number of milliseconds without quotes, like "timeout": 60000`},
		{"cline_mcp_settings.json", "0.2", 0, `the Cline format counts it in seconds, and OpenWorker ignores values under 1s`, ""},
	} {
		entry := `{"command": "x", "timeout": ` + tc.value + `}`
		text := `{"mcpServers": {"s": ` + entry + `}}`
		if tc.file == "servers.json" {
			text = `{"servers": {"s": {"transport": "stdio", "command": "x", "timeout": ` + tc.value + `}}}`
		}
		p := writeConfig(t, t.TempDir(), tc.file, text)
		cfg, err := ReadConfig(p, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", tc.file, tc.value, err)
		}
		e := cfg.Entries[0]
		if tc.err != "" {
			if e.Err == nil || !strings.Contains(e.Err.Error(), tc.err) {
				t.Errorf("%s %s: Err = %v; want %q", tc.file, tc.value, e.Err, tc.err)
			}
			continue
		}
		if e.Err != nil || e.Server.Timeout != tc.want {
			t.Errorf("%s %s: timeout %v, err %v; want %v", tc.file, tc.value, e.Server.Timeout, e.Err, tc.want)
		}
		if tc.notice == "" && len(e.Notices) != 0 || tc.notice != "" && (len(e.Notices) != 1 || !strings.Contains(e.Notices[0], tc.notice)) {
			t.Errorf("%s %s: notices %q; want %q", tc.file, tc.value, e.Notices, tc.notice)
		}
	}
}

// TestMissingServerList: a file whose format its name (or --format) says
// and that names no servers (a new Claude Desktop user's file) is an empty
// list with a notice; a file whose format is unknown gets a fix showing
// both forms; a named format whose list is under the other key is an
// error saying so.
func TestMissingServerList(t *testing.T) {
	fakeHome(t, t.TempDir())
	dir := t.TempDir()
	p := writeConfig(t, dir, "claude_desktop_config.json", "{\n  \"preferences\": {\"quickEntryShortcut\": \"off\"}\n}\n")
	cfg, err := ReadConfig(p, nil)
	if err != nil || cfg.Format != FormatClaudeDesktop || len(cfg.Entries) != 0 {
		t.Fatalf("ReadConfig = %+v, %v; want an empty Claude Desktop file", cfg, err)
	}
	wantNotice(t, cfg.Notices, p+`:1: this Claude Desktop file names no MCP servers (it has no "mcpServers" object)`, `top-level key "preferences" is ignored`)

	other := writeConfig(t, dir, "settings.json", `{"preferences": {}}`)
	if cfg, err := ReadConfig(other, &ConfigOptions{Format: FormatCursor}); err != nil || len(cfg.Entries) != 0 {
		t.Errorf("--format cursor = %+v, %v; want an empty list", cfg, err)
	} else {
		wantNotice(t, cfg.Notices, "this Cursor file names no MCP servers")
	}
	_, err = ReadConfig(other, nil)
	if err == nil || !strings.Contains(err.Error(), `{"servers": {"NAMESPACE": {"transport": "stdio", "command": "..."}}}`) ||
		!strings.Contains(err.Error(), `{"mcpServers": {"NAME": {"command": "..."}}}`) {
		t.Errorf("unknown format = %v; want a fix with both forms", err)
	}
	vs := writeConfig(t, dir, "vs.json", `{"servers": {"a": {"type": "stdio", "command": "a"}}}`)
	if _, err := ReadConfig(vs, &ConfigOptions{Format: FormatClaudeDesktop}); err == nil || !strings.Contains(err.Error(), `lists its servers under "mcpServers", and this file has "servers" instead`) {
		t.Errorf("--format claude-desktop on a servers file = %v", err)
	}
}

// TestSubstitutionHintsPerFormat: only the product's own servers.json has
// "$$"; a VS Code hint never offers it.
func TestSubstitutionHintsPerFormat(t *testing.T) {
	fakeHome(t, t.TempDir())
	dir := t.TempDir()
	vs := writeConfig(t, dir, filepath.Join(".vscode", "mcp.json"), `{"servers": {"a": {"type": "stdio", "command": "a", "args": ["${config:foo}", "${unclosed"]}}}`)
	cfg, err := ReadConfig(vs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if e := cfg.Entries[0].Err; e == nil || !strings.Contains(e.Error(), "${config:foo} is not a variable OpenWorker can substitute") || strings.Contains(e.Error(), "$$") || !strings.Contains(e.Error(), "or the value itself") {
		t.Errorf("VS Code ${config:foo} = %v; want a hint without $$", e)
	}
	ow := writeConfig(t, dir, "servers.json", `{"servers": {"a": {"transport": "stdio", "command": "a", "args": ["${config:foo}"]}}}`)
	if cfg, err = ReadConfig(ow, nil); err != nil {
		t.Fatal(err)
	}
	if e := cfg.Entries[0].Err; e == nil || !strings.Contains(e.Error(), "or $$ for a literal $") {
		t.Errorf("servers.json ${config:foo} = %v; want the $$ hint", e)
	}
}

// TestEntryLabelsAndPositions: an oversized file's error names the file
// once and no :0:0; an entry named "" is an entry, not the file; a
// derived namespace is labelled with the name as written.
func TestEntryLabelsAndPositions(t *testing.T) {
	fakeHome(t, t.TempDir())
	dir := t.TempDir()
	big := writeConfig(t, dir, "big.json", `{"servers": {}, "pad": "`+strings.Repeat("x", MaxServersFileBytes)+`"}`)
	_, err := ReadConfig(big, nil)
	if err == nil || strings.Contains(err.Error(), "servers file:") || strings.Count(err.Error(), big) != 1 || strings.Contains(err.Error(), ":0:0") ||
		!strings.HasPrefix(err.Error(), big+": file is ") {
		t.Errorf("big file = %v; want %q once, no :0:0", err, big)
	}
	p := writeConfig(t, dir, "names.json", `{"mcpServers": {
  "": {"command": "x"},
  "a b": {"url": "https://a.example.com/mcp", "headers": {"X": 1}}
}}`)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, broken := cfg.Servers()
	if len(broken) != 2 || broken[0].WholeFile() || broken[0].Label() != `servers entry ""` || broken[1].Label() != `servers entry "a b" (namespace a_b)` {
		t.Errorf("broken = %+v; want two entries labelled as written", broken)
	}
	r := tool.NewRegistry()
	if _, err := RegisterServersFile(r, p, nil); err == nil {
		t.Fatal("want the two bad entries")
	}
	if b := r.Broken(); len(b) != 2 || b[0].WholeFile() || b[0].Source != p+":2" {
		t.Errorf("Broken() = %+v", b)
	}
}

// TestNamespaceNameProblems: names with nothing ASCII to derive from, the
// reserved name and names too long for a model's 64-byte tool names are
// errors (or a notice) of their entry that say why and what to do.
func TestNamespaceNameProblems(t *testing.T) {
	fakeHome(t, t.TempDir())
	long, longish := strings.Repeat("n", 200), strings.Repeat("m", 50)
	p := writeConfig(t, t.TempDir(), "names.json", `{"mcpServers": {
  "服务器": {"command": "x"},
  "openworker": {"command": "x"},
  "`+long+`": {"command": "x"},
  "`+longish+`": {"command": "x"},
  "skills": {"command": "x"}
}}`)
	cfg, err := ReadConfig(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantEntryErr(t, entryNamed(t, cfg, "服务器"), p, 2, 3, "has no ASCII letter (a-z, A-Z), digit, '_' or '-'", "rename the server with ASCII letters")
	wantEntryErr(t, entryNamed(t, cfg, "openworker"), p, 3, 3, `would have the namespace "openworker", which is reserved for OpenWorker itself; rename the server: no server may be named "openworker"`)
	wantEntryErr(t, entryNamed(t, cfg, long), p, 4, 3, "has a namespace of 200 bytes, so none of its tools could be offered to a model: a tool's model alias", "must fit in 64 bytes", "rename the server to at most 46 bytes")
	e := entryNamed(t, cfg, longish)
	if e.Err != nil {
		t.Fatal(e.Err)
	}
	wantNotice(t, e.Notices, p+`:5: server "`+longish+`" has a namespace of 50 bytes`, "only its tools with names of at most 12 bytes can be offered to a model")
	wantEntryErr(t, entryNamed(t, cfg, "skills"), p, 6, 3, `would have the namespace "skills", which is reserved for the tools OpenWorker gives a coworker with skills (skills.load, skills.read); rename the server: no server may be named "skills"`)
}
