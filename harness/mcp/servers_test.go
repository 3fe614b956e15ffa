package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// fakeEnv replaces the environment seen by ${VAR} expansion for one test.
func fakeEnv(t *testing.T, env map[string]string) {
	t.Helper()
	old := lookupEnv
	lookupEnv = func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	t.Cleanup(func() { lookupEnv = old })
}

var testEnv = map[string]string{"ACER_TOKEN": "s3cret", "LIGHTS_TOKEN": "l1ghts", "EMPTY": ""}

// namedTool is a minimal native tool with a given qualified name.
type namedTool struct{ name string }

func (n namedTool) Descriptor() tool.Descriptor {
	return tool.Descriptor{Name: n.name, Version: "1.0.0", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

func (namedTool) Call(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
	return tool.Output{}, nil
}

func serversPath(name string) string { return filepath.Join("testdata", "servers", name) }

func TestRegisterServersFileGood(t *testing.T) {
	fakeEnv(t, testEnv)
	r := tool.NewRegistry()
	p := serversPath("good.json")
	if err := RegisterServersFile(r, p); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs(filepath.Dir(p))
	want := []tool.MCPServer{
		{Namespace: "acer", Transport: tool.TransportStdio, Program: "bin/acer-mcp-launcher", Args: []string{"--log", "debug"},
			Env: map[string]string{"LOG": "1", "TOKEN": "s3cret", "PRICE": "$5 and $HOME"},
			Dir: filepath.Join(abs, "work"), Source: p + ":3", Secrets: []string{"s3cret"}},
		{Namespace: "lights", Transport: tool.TransportStreamableHTTP, URL: "http://127.0.0.1:8931/mcp",
			Headers: map[string]string{"Authorization": "Bearer l1ghts"}, Source: p + ":10", Secrets: []string{"Bearer l1ghts", "l1ghts"}},
		{Namespace: "plain", Transport: tool.TransportStdio, Program: "/usr/bin/plain", Source: p + ":15"},
	}
	if d := cmp.Diff(want, r.Servers()); d != "" {
		t.Errorf("Servers() (-want +got):\n%s", d)
	}
	if err := r.Freeze(); err != nil {
		t.Errorf("Freeze = %v", err)
	}
}

func TestRegisterServersFileEcosystem(t *testing.T) {
	fakeEnv(t, testEnv)
	r := tool.NewRegistry()
	p := serversPath("ecosystem.json")
	if err := RegisterServersFile(r, p); err != nil {
		t.Fatal(err)
	}
	want := []tool.MCPServer{
		{Namespace: "files", Transport: tool.TransportStdio, Program: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "/tmp"},
			Env: map[string]string{"A": "s3cret"}, Source: p + ":3", Secrets: []string{"s3cret"}},
		{Namespace: "remote", Transport: tool.TransportStreamableHTTP, URL: "https://127.0.0.1:9443/mcp", Headers: map[string]string{"X-Key": "l1ghts"}, Source: p + ":4", Secrets: []string{"l1ghts"}},
		{Namespace: "typed-http", Transport: tool.TransportStreamableHTTP, URL: "http://localhost:1/mcp", Source: p + ":6"},
		{Namespace: "typed-s_h", Transport: tool.TransportStreamableHTTP, URL: "http://localhost:3/mcp", Source: p + ":8"},
		{Namespace: "typed-sh", Transport: tool.TransportStreamableHTTP, URL: "http://localhost:2/mcp", Source: p + ":7"},
		{Namespace: "typed-stdio", Transport: tool.TransportStdio, Program: "tool", Source: p + ":5"},
	}
	if d := cmp.Diff(want, r.Servers()); d != "" {
		t.Errorf("Servers() (-want +got):\n%s", d)
	}
}

func TestRegisterServersFileErrors(t *testing.T) {
	fakeEnv(t, testEnv)
	tests := []struct {
		file      string
		line, col int
		frag      string
	}{
		{"malformed.json", 3, 35, "invalid character '\"' after object key:value pair"},
		{"unknown-top.json", 3, 3, `unknown field "inputs"; allowed fields here: servers, mcpServers`},
		{"url-on-stdio.json", 5, 5, `unknown field "url"; "url" belongs to the streamable_http transport`},
		{"type-in-servers.json", 2, 11, `server "acer" has no "transport"; the "servers" form names it "transport", not "type"`},
		{"sse.json", 2, 24, "SSE transport is not supported; use streamable_http"},
		{"sse-ecosystem.json", 2, 19, "SSE transport is not supported; use streamable_http"},
		{"unset-env.json", 3, 50, `environment variable NOT_SET_ANYWHERE is not set`},
		{"unset-header.json", 3, 34, `"mcpServers.lights.headers.Authorization": environment variable MISSING_TOKEN is not set`},
		{"both-forms.json", 2, 2, `both "servers" and "mcpServers" are present`},
		{"command-and-url.json", 2, 32, `has both "command" and "url"`},
		{"neither.json", 2, 3, `server "x" has neither "command" nor "url"`},
		{"args-type.json", 2, 62, `"servers.x.args[1]" must be a string, not a number`},
		{"duplicate.json", 3, 3, `duplicate key "x" (first at line 2, column 3)`},
		{"bad-url.json", 2, 48, `"ftp://127.0.0.1/mcp" is not an http:// or https:// URL`},
		{"remote-url.json", 2, 48, `"mcp.example.com" is not a loopback address; a streamable_http provider must be a service on this computer`},
		{"remote-url-ecosystem.json", 2, 16, `"192.168.1.10" is not a loopback address`},
		{"bad-transport.json", 2, 22, `unknown transport "websocket"; use "stdio" or "streamable_http"`},
		{"type-mismatch.json", 2, 17, `server "x" is of type "http" but has no "url"`},
		{"bad-var.json", 2, 60, `"HOME:-/root" is not a variable name`},
		{"no-servers.json", 1, 1, `no "servers" object`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			r := tool.NewRegistry()
			p := serversPath(tc.file)
			err := RegisterServersFile(r, p)
			var e *jsonfile.Error
			if !errors.As(err, &e) {
				t.Fatalf("RegisterServersFile = %v, want a positioned error", err)
			}
			if e.File != p || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Error(), tc.frag) {
				t.Errorf("RegisterServersFile(%s) = %q, want %s:%d:%d containing %q", tc.file, e, p, tc.line, tc.col, tc.frag)
			}
			if len(r.Servers()) != 0 {
				t.Errorf("bad file registered %v", r.Servers())
			}
			if ferr := r.Freeze(); ferr == nil || !strings.Contains(ferr.Error(), tc.frag) {
				t.Errorf("Freeze = %v, want the kept error", ferr)
			}
		})
	}
}

func TestServersFileNeverLeaksSecrets(t *testing.T) {
	fakeEnv(t, testEnv)
	// unset-env.json expands ACER_TOKEN successfully before failing on the
	// next variable: the error must not carry the expanded value.
	err := RegisterServersFile(tool.NewRegistry(), serversPath("unset-env.json"))
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error = %v", err)
	}
}

func TestRegisterServersFileMissingAndLarge(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.json")
	err := RegisterServersFile(tool.NewRegistry(), missing)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "does not exist; check the --servers path") {
		t.Errorf("missing file: %v", err)
	}
	big := filepath.Join(dir, "big.json")
	data := `{"servers": {}, "pad": "` + strings.Repeat("x", MaxServersFileBytes) + `"}`
	if err := os.WriteFile(big, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	err = RegisterServersFile(tool.NewRegistry(), big)
	if err == nil || !strings.Contains(err.Error(), big) || !strings.Contains(err.Error(), "the limit is 1048576 bytes") {
		t.Errorf("big file: %v", err)
	}
	if err := RegisterServersFile(tool.NewRegistry(), dir); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Errorf("folder: %v", err)
	}
}

// docs/registry.md: streamable HTTP is for a local service; only loopback hosts
// are accepted.
func TestServersFileURLMustBeLoopback(t *testing.T) {
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
		p := filepath.Join(t.TempDir(), "servers.json")
		data := `{"servers": {"x": {"transport": "streamable_http", "url": "` + tc.url + `"}}}`
		if err := os.WriteFile(p, []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := ReadServersFile(p)
		if tc.ok && (err != nil || len(s) != 1 || s[0].URL != tc.url) {
			t.Errorf("%s: ReadServersFile = %v, %v; want it accepted", tc.url, s, err)
		}
		if !tc.ok {
			e, isPos := jsonfile.AsError(err)
			if !isPos || e.Line != 1 || e.Col != 59 || !strings.Contains(e.Msg, "is not a loopback address") || len(s) != 0 {
				t.Errorf("%s: ReadServersFile = %v, %v; want a loopback error at 1:59", tc.url, s, err)
			}
		}
	}
}

func TestRegisterServersFileNamingRules(t *testing.T) {
	p := serversPath("reserved.json")
	r := tool.NewRegistry()
	err := RegisterServersFile(r, p)
	for _, frag := range []string{
		`MCP provider "openworker" from ` + p + `:3: namespace "openworker" is reserved`,
		`MCP provider "bad ns" from ` + p + `:4: namespace "bad ns" has ' ' at byte 3`,
	} {
		if err == nil || !strings.Contains(err.Error(), frag) {
			t.Errorf("RegisterServersFile = %v, want it to contain %q", err, frag)
		}
	}
	if got := r.Servers(); len(got) != 1 || got[0].Namespace != "good" {
		t.Errorf("good entry not registered beside the bad ones: %v", got)
	}
	if ferr := r.Freeze(); ferr == nil || !strings.Contains(ferr.Error(), "reserved") || !strings.Contains(ferr.Error(), "bad ns") {
		t.Errorf("Freeze = %v, want both kept errors", ferr)
	}
	if err := RegisterServersFile(r, p); !errors.Is(err, tool.ErrFrozen) {
		t.Errorf("after Freeze: %v, want ErrFrozen", err)
	}
}

func TestServersFileNamespaceConflicts(t *testing.T) {
	fakeEnv(t, testEnv)
	good, other := serversPath("good.json"), serversPath("other-acer.json")

	r := tool.NewRegistry()
	if err := RegisterServersFile(r, good); err != nil {
		t.Fatal(err)
	}
	err := RegisterServersFile(r, other)
	want := `namespace "acer" has two MCP providers: MCP provider "acer" from ` + good + `:3 and MCP provider "acer" from ` + other + `:3`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("second provider: %v, want %q", err, want)
	}

	r = tool.NewRegistry()
	if err := r.Register(namedTool{"acer.battery_get"}); err != nil {
		t.Fatal(err)
	}
	err = RegisterServersFile(r, other)
	want = `namespace "acer" of MCP provider "acer" from ` + other + `:3 is already the namespace of native tool "acer.battery_get" (mcp.namedTool)`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("native first: %v, want %q", err, want)
	}

	r = tool.NewRegistry()
	if err := RegisterServersFile(r, other); err != nil {
		t.Fatal(err)
	}
	err = r.Register(namedTool{"acer.battery_get"})
	want = `namespace "acer" of native tool "acer.battery_get" (mcp.namedTool) is already the namespace of MCP provider "acer" from ` + other + `:3`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("servers file first: %v, want %q", err, want)
	}
}

func TestExpandVars(t *testing.T) {
	fakeEnv(t, testEnv)
	for in, want := range map[string]string{
		"":                          "",
		"plain":                     "plain",
		"${ACER_TOKEN}":             "s3cret",
		"a${ACER_TOKEN}b${EMPTY}c$": "as3cretbc$",
		"$$${ACER_TOKEN}$$":         "$s3cret$",
		"$HOME $ {x}":               "$HOME $ {x}",
	} {
		if got, _, err := expandVars(in); got != want || err != nil {
			t.Errorf("expandVars(%q) = %q, %v, want %q", in, got, err, want)
		}
	}
	for in, frag := range map[string]string{
		"${NOPE}":              "environment variable NOPE is not set",
		"${}":                  `"" is not a variable name`,
		"${1A}":                `"1A" is not a variable name`,
		"x${OPEN":              `"${" is not closed`,
		"${A B}":               `"A B" is not a variable name`,
		"${ACER_TOKEN}${NOPE}": "NOPE is not set",
	} {
		if got, _, err := expandVars(in); err == nil || !strings.Contains(err.Error(), frag) || got != "" {
			t.Errorf("expandVars(%q) = %q, %v, want error %q", in, got, err, frag)
		}
	}
}
