package servers

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

func TestRegisterServersFileGood(t *testing.T) {
	fakeEnv(t, testEnv)
	r := tool.NewRegistry()
	p := serversPath("good.json")
	if _, err := RegisterServersFile(r, p, nil); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Dir(p))
	want := []tool.MCPServer{
		{Namespace: "acer", Transport: tool.TransportStdio, Program: "bin/acer-mcp-launcher", Args: []string{"--log", "debug"},
			Env: map[string]string{"LOG": "1", "TOKEN": "s3cret", "PRICE": "$5 and $HOME"},
			Dir: filepath.Join(abs, "work"), Source: p + ":3", Secrets: []string{"s3cret"}, Vars: map[string]string{"env.TOKEN": "${ACER_TOKEN}"}},
		{Namespace: "lights", Transport: tool.TransportStreamableHTTP, URL: "http://127.0.0.1:8931/mcp",
			Headers: map[string]string{"Authorization": "Bearer l1ghts"}, Source: p + ":10", Secrets: []string{"l1ghts", "Bearer l1ghts"},
			Vars: map[string]string{"headers.Authorization": "${LIGHTS_TOKEN}"}},
		{Namespace: "plain", Transport: tool.TransportStdio, Program: "/usr/bin/plain", Source: p + ":15"},
	}
	if d := cmp.Diff(want, r.Servers()); d != "" {
		t.Errorf("Servers() (-want +got):\n%s", d)
	}
	if err := r.Freeze(); err != nil || len(r.Broken()) != 0 {
		t.Errorf("Freeze = %v, broken %v", err, r.Broken())
	}
}

// TestGenericFormIsLiteral: the mcpServers form of other clients is read
// as Claude Desktop reads it: "${ACER_TOKEN}" stays "${ACER_TOKEN}".
func TestGenericFormIsLiteral(t *testing.T) {
	fakeEnv(t, testEnv)
	r := tool.NewRegistry()
	p := serversPath("ecosystem.json")
	if _, err := RegisterServersFile(r, p, nil); err != nil {
		t.Fatal(err)
	}
	want := []tool.MCPServer{
		{Namespace: "files", Transport: tool.TransportStdio, Program: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
			Env: map[string]string{"A": "${ACER_TOKEN}"}, Source: p + ":3"},
		{Namespace: "remote", Transport: tool.TransportStreamableHTTP, URL: "https://127.0.0.1:9443/mcp", Headers: map[string]string{"X-Key": "${LIGHTS_TOKEN}"},
			Source: p + ":4", Secrets: []string{"${LIGHTS_TOKEN}"}},
		{Namespace: "typed-http", Transport: tool.TransportStreamableHTTP, URL: "http://localhost:1/mcp", Source: p + ":6"},
		{Namespace: "typed-s_h", Transport: tool.TransportStreamableHTTP, URL: "http://localhost:3/mcp", Source: p + ":8"},
		{Namespace: "typed-sh", Transport: tool.TransportStreamableHTTP, URL: "http://localhost:2/mcp", Source: p + ":7"},
		{Namespace: "typed-stdio", Transport: tool.TransportStdio, Program: "tool", Source: p + ":5"},
	}
	if d := cmp.Diff(want, r.Servers()); d != "" {
		t.Errorf("Servers() (-want +got):\n%s", d)
	}
}

// TestServersFileEntryErrors: a bad entry is an error of that entry only,
// at its file, line and column, with the fix; the file's other entries
// (none here) would load.
func TestServersFileEntryErrors(t *testing.T) {
	fakeEnv(t, testEnv)
	tests := []struct {
		file      string
		line, col int
		frag      string
	}{
		{"url-on-stdio.json", 5, 5, `unknown field "url"; "url" belongs to the streamable_http transport`},
		{"unset-env.json", 3, 50, `environment variable NOT_SET_ANYWHERE is not set`},
		{"command-and-url.json", 2, 25, `has both "command" and "url"`},
		{"neither.json", 2, 3, `server "x" has neither "command" nor "url"`},
		{"args-type.json", 2, 62, `"servers.x.args[1]" must be a string, not a number`},
		{"bad-url.json", 2, 48, `"ftp://127.0.0.1/mcp" is not an http:// or https:// URL`},
		{"remote-url-ecosystem.json", 2, 16, `"192.168.1.10" is not this computer; plain http:// is allowed only for a loopback address`},
		{"bad-transport.json", 2, 22, `unknown transport "websocket"; use "stdio", "streamable_http", "sse" or "a2a"`},
		{"type-mismatch.json", 2, 17, `server "x" is of type "http" but has no "url"`},
		{"bad-var.json", 2, 83, `"${OPEN" is not closed`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			r := tool.NewRegistry()
			p := serversPath(tc.file)
			cfg, err := RegisterServersFile(r, p, nil)
			var e *jsonfile.Error
			if !errors.As(err, &e) || cfg == nil || len(cfg.Entries) != 1 || !errors.As(cfg.Entries[0].Err, &e) {
				t.Fatalf("RegisterServersFile = %v, %v; want one entry with a positioned error", cfg, err)
			}
			if e.File != p || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Error(), tc.frag) {
				t.Errorf("entry error = %q, want %s:%d:%d containing %q", e, p, tc.line, tc.col, tc.frag)
			}
			if len(r.Servers()) != 0 {
				t.Errorf("bad entry registered %v", r.Servers())
			}
			if ferr := r.Freeze(); ferr != nil {
				t.Errorf("Freeze = %v; a bad entry must not stop the runtime from opening", ferr)
			}
			if b := r.Broken(); len(b) != 1 || b[0].Err != cfg.Entries[0].Err || b[0].Source != p+":2" && b[0].Source != p+":3" {
				t.Errorf("Broken() = %+v; want the entry recorded", b)
			}
		})
	}
}

// TestServersFileWholeFileErrors: what makes the whole file unreadable is
// the error of ReadConfig, recorded as broken with namespace "".
func TestServersFileWholeFileErrors(t *testing.T) {
	for _, tc := range []struct {
		file      string
		line, col int
		frag      string
	}{
		{"malformed.json", 3, 35, "invalid JSON"},
		{"duplicate.json", 3, 3, `duplicate key "x" (first at line 2, column 3)`},
		{"both-forms.json", 2, 2, `both "servers" and "mcpServers" are present`},
		{"no-servers.json", 1, 1, `no "servers" or "mcpServers" object`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := tool.NewRegistry()
			p := serversPath(tc.file)
			cfg, err := RegisterServersFile(r, p, nil)
			e, ok := jsonfile.AsError(err)
			if cfg != nil || !ok || e.File != p || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.frag) {
				t.Fatalf("RegisterServersFile = %v, %v; want %s:%d:%d containing %q", cfg, err, p, tc.line, tc.col, tc.frag)
			}
			if ferr := r.Freeze(); ferr != nil {
				t.Errorf("Freeze = %v", ferr)
			}
			if b := r.Broken(); len(b) != 1 || b[0].Namespace != "" || b[0].Source != p {
				t.Errorf("Broken() = %+v; want the whole file", b)
			}
		})
	}
}

// TestProductFormAcceptsWhatClientsWrite: the product's own form no longer
// refuses sse, remote https, "inputs", autoApprove or unknown keys.
func TestProductFormAcceptsWhatClientsWrite(t *testing.T) {
	for file, want := range map[string]tool.MCPServer{
		"sse.json":             {Namespace: "old", Transport: tool.TransportSSE, URL: "http://127.0.0.1:1/sse"},
		"sse-ecosystem.json":   {Namespace: "old", Transport: tool.TransportSSE, URL: "http://127.0.0.1:1/sse"},
		"remote-url.json":      {Namespace: "x", Transport: tool.TransportStreamableHTTP, URL: "https://mcp.example.com/mcp"},
		"type-in-servers.json": {Namespace: "acer", Transport: tool.TransportStdio, Program: "bin/acer"}, // the VS Code form
	} {
		servers, err := ReadServersFile(serversPath(file))
		if err != nil || len(servers) != 1 {
			t.Errorf("%s: %v, %v", file, servers, err)
			continue
		}
		want.Source = servers[0].Source
		if d := cmp.Diff(want, servers[0]); d != "" {
			t.Errorf("%s (-want +got):\n%s", file, d)
		}
	}
	if s, err := ReadServersFile(serversPath("unknown-top.json")); err != nil || len(s) != 0 {
		t.Errorf("unknown-top.json = %v, %v", s, err)
	}
}

func TestServersFileNeverLeaksSecrets(t *testing.T) {
	fakeEnv(t, testEnv)
	// unset-env.json expands ACER_TOKEN successfully before failing on the
	// next variable: the error must not carry the expanded value.
	_, err := RegisterServersFile(tool.NewRegistry(), serversPath("unset-env.json"), nil)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error = %v", err)
	}
}

func TestRegisterServersFileMissingAndLarge(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	_, err := RegisterServersFile(tool.NewRegistry(), missing, nil)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "does not exist; check the path of the servers file") {
		t.Errorf("missing file: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	data := `{"servers": {}, "pad": "` + strings.Repeat("x", MaxServersFileBytes) + `"}`
	if err := os.WriteFile(big, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = RegisterServersFile(tool.NewRegistry(), big, nil)
	if err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "the limit is 1048576 bytes") {
		t.Errorf("big file: %v", err)
	}
	if _, err := RegisterServersFile(tool.NewRegistry(), dir, nil); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: %v", err)
	}
}

// docs/servers.md#remote-servers: https:// on any host; plain http:// only
// on a loopback host.
func TestServersFileURLRules(t *testing.T) {
	for _, tc := range []struct {
		url string
		ok  bool
	}{
		{"http://127.0.0.1:8931/mcp", true},
		{"https://127.4.5.6/mcp", true},
		{"http://[::1]:8931/mcp", true},
		{"http://[::ffff:127.0.0.1]:1/mcp", true},
		{"http://localhost:8931/mcp", true},
		{"http://LocalHost/mcp", true},
		{"https://mcp.example.com/mcp", true},
		{"https://10.0.0.1/mcp", true},
		{"http://0.0.0.0:8931/mcp", false},
		{"http://[::]:8931/mcp", false},
		{"http://10.0.0.1/mcp", false},
		{"http://[fe80::1%25lo]:1/mcp", false},
		{"http://localhost.:1/mcp", false},
		{"http://evil.localhost/mcp", false},
		{"http://localhost.example.com/mcp", false},
		{"http://127.0.0.1.nip.io/mcp", false},
		{"http://2130706433/mcp", false}, // 127.0.0.1 as a number: not an IP literal Go parses
	} {
		for _, transport := range []string{"streamable_http", "sse"} {
			p := filepath.Join(t.TempDir(), "servers.json")
			data := `{"servers": {"x": {"transport": "` + transport + `", "url": "` + tc.url + `"}}}`
			if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := ReadServersFile(p)
			if tc.ok && (err != nil || len(s) != 1 || s[0].URL != tc.url) {
				t.Errorf("%s %s: ReadServersFile = %v, %v; want it accepted", transport, tc.url, s, err)
			}
			if !tc.ok {
				e, isPos := jsonfile.AsError(err)
				if !isPos || e.Line != 1 || e.Col != 44+len(transport) || !strings.Contains(e.Msg, "is not this computer") || !strings.Contains(e.Fix, "https://") || len(s) != 0 {
					t.Errorf("%s %s: ReadServersFile = %v, %v; want a loopback error at 1:%d", transport, tc.url, s, err, 44+len(transport))
				}
			}
		}
	}
}

// TestServersFileNamingRules: a reserved name is an error for its entry; a
// name that is not a namespace gets a derived one; the others register and
// the registry still opens.
func TestServersFileNamingRules(t *testing.T) {
	p := serversPath("reserved.json")
	r := tool.NewRegistry()
	cfg, err := RegisterServersFile(r, p, nil)
	if err == nil || !strings.Contains(err.Error(), p+`:3:3: server "openworker" would have the namespace "openworker", which is reserved for OpenWorker itself; rename the server: no server may be named "openworker"`) {
		t.Errorf("RegisterServersFile = %v; want the reserved name at 3:3", err)
	}
	var names []string
	for _, s := range r.Servers() {
		names = append(names, s.Namespace)
	}
	if strings.Join(names, ",") != "bad_ns,good" {
		t.Errorf("registered %v; want bad_ns (derived) and good", names)
	}
	if n := cfg.Entries[2].Notices; len(n) != 1 || !strings.Contains(n[0], `server "bad ns" gets the namespace "bad_ns"`) {
		t.Errorf("notices of \"bad ns\" = %q", n)
	}
	if ferr := r.Freeze(); ferr != nil {
		t.Errorf("Freeze = %v", ferr)
	}
	if _, err := RegisterServersFile(r, p, nil); !errors.Is(err, tool.ErrFrozen) {
		t.Errorf("after Freeze: %v, want ErrFrozen", err)
	}
}

// TestServersFileNamespaceConflicts: a namespace taken by another provider
// or a native tool disables that entry, naming both sides; it is never a
// registration error that stops the runtime.
func TestServersFileNamespaceConflicts(t *testing.T) {
	fakeEnv(t, testEnv)
	good, other := serversPath("good.json"), serversPath("other-acer.json")

	r := tool.NewRegistry()
	if _, err := RegisterServersFile(r, good, nil); err != nil {
		t.Fatal(err)
	}
	cfg, err := RegisterServersFile(r, other, nil)
	want := other + `:3:3: server "acer" cannot have the namespace "acer": the MCP provider from ` + good + `:3 has it; rename the server in ` + other
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("second provider: %v, want %q", err, want)
	}
	if cfg == nil || cfg.Entries[0].Err == nil || cfg.Entries[0].Err.Error() != r.Broken()[0].Err.Error() {
		t.Errorf("the entry's Err is not the broken record's: %+v, %+v", cfg, r.Broken())
	}
	if s, ok := r.Server("acer"); !ok || s.Source != good+":3" {
		t.Errorf("acer = %+v; want the first one kept", s)
	}
	if ferr := r.Freeze(); ferr != nil {
		t.Errorf("Freeze = %v", ferr)
	}

	r = tool.NewRegistry()
	if err := r.Register(namedTool{"acer.battery_get"}); err != nil {
		t.Fatal(err)
	}
	_, err = RegisterServersFile(r, other, nil)
	want = other + `:3:3: server "acer" cannot have the namespace "acer": OpenWorker's built-in native tools acer.battery_get have it; rename the server in ` + other + `, and select its tools as NEW_NAME.TOOL`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("native first: %v, want %q", err, want)
	}
	if _, ok := r.BrokenMCP("acer"); ok {
		t.Error("the native namespace acer is reported broken; it works")
	}
	if b := r.Broken(); len(b) != 1 || !strings.Contains(b[0].Err.Error(), want) {
		t.Errorf("Broken() = %+v", b)
	}

	r = tool.NewRegistry()
	if _, err := RegisterServersFile(r, other, nil); err != nil {
		t.Fatal(err)
	}
	err = r.Register(namedTool{"acer.battery_get"})
	want = `namespace "acer" of native tool "acer.battery_get" (servers.namedTool) is already the namespace of MCP provider "acer" from ` + other + `:3`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("servers file first: %v, want %q", err, want)
	}
}

func TestProductSyntax(t *testing.T) {
	sy := specs[FormatOpenWorker].vars
	x := &expander{lookupEnv: func(k string) (string, bool) { v, ok := testEnv[k]; return v, ok }}
	for in, want := range map[string]string{
		"":                          "",
		"plain":                     "plain",
		"${ACER_TOKEN}":             "s3cret",
		"a${ACER_TOKEN}b${EMPTY}c$": "as3cretbc$",
		"$$${ACER_TOKEN}$$":         "$s3cret$",
		"$HOME $ {x}":               "$HOME $ {x}",
		"${NOPE:-dflt}":             "dflt",
		"${EMPTY:-dflt}":            "dflt",
		"${ACER_TOKEN:-dflt}":       "s3cret",
	} {
		tpl, err := sy.parse(in)
		if err != nil {
			t.Errorf("parse(%q) = %v", in, err)
			continue
		}
		if got, _, err := x.expand(tpl); got != want || err != nil {
			t.Errorf("expand(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	for in, frag := range map[string]string{
		"${}":      `${} is not a variable OpenWorker can substitute`,
		"${1A}":    `${1A} is not a variable`,
		"x${OPEN":  `"${OPEN" is not closed`,
		"${A B}":   `${A B} is not a variable`,
		"${env:A}": `${env:A} is not a variable`,
	} {
		if _, err := sy.parse(in); err == nil || !strings.Contains(err.Error(), frag) {
			t.Errorf("parse(%q) = %v, want error %q", in, err, frag)
		}
	}
	tpl, _ := sy.parse("${ACER_TOKEN}${NOPE}")
	if got, _, err := x.expand(tpl); err == nil || !strings.Contains(err.Error(), "NOPE is not set") || got != "" || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("expand(unset) = %q, %v", got, err)
	}
}
