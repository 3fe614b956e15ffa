package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// namedTool is a minimal native tool with a given qualified name.
type namedTool struct{ name string }

func (n namedTool) Descriptor() Descriptor {
	return Descriptor{Name: n.name, Version: "1.0.0", InputSchema: json.RawMessage(`{"type":"object"}`)}
}

func (namedTool) Call(context.Context, *Call, json.RawMessage) (Output, error) { return Output{}, nil }

// otherTool is a second native tool type, so errors can name both sides.
type otherTool struct{ namedTool }

// step is one registration in a naming-rule scenario.
type step struct {
	tool Tool       // registered with Register when set
	mcp  *MCPServer // registered with RegisterMCP otherwise
}

func (s step) run(r *Registry) error {
	if s.tool != nil {
		return r.Register(s.tool)
	}
	return r.RegisterMCP(*s.mcp)
}

func native(name string) step { return step{tool: namedTool{name}} }
func other(name string) step  { return step{tool: otherTool{namedTool{name}}} }
func stdio(ns, prog string) step {
	return step{mcp: &MCPServer{Namespace: ns, Program: prog}}
}
func httpMCP(ns, url string) step {
	return step{mcp: &MCPServer{Namespace: ns, Transport: TransportStreamableHTTP, URL: url}}
}

// TestRegistryNamingRules covers every startup failure of docs/registry.md. All steps
// but the last must succeed; the last must fail with exactly want, which
// names both sides where there are two.
func TestRegistryNamingRules(t *testing.T) {
	name80 := "ex." + strings.Repeat("a", 77) // 80 bytes; alias 81
	name81 := "ex." + strings.Repeat("a", 78)
	tests := []struct {
		name  string
		steps []step
		want  string
	}{
		{"duplicate qualified name", []step{native("ex.search"), other("ex.search")},
			`tool "ex.search" is registered twice: first by tool.namedTool, then by tool.otherTool`},
		{"native then MCP in one namespace", []step{native("acer.x"), stdio("acer", "bin/acer")},
			`namespace "acer" of MCP provider "acer" (program bin/acer) is already the namespace of native tool "acer.x"; a namespace is either native or MCP`},
		{"MCP then native in one namespace", []step{stdio("acer", "bin/acer"), native("acer.x")},
			`namespace "acer" of native tool "acer.x" (tool.namedTool) is already the namespace of MCP provider "acer" (program bin/acer); a namespace is either native or MCP`},
		{"HTTP MCP then native", []step{httpMCP("lights", "http://127.0.0.1:8931/mcp"), native("lights.on")},
			`namespace "lights" of native tool "lights.on" (tool.namedTool) is already the namespace of MCP provider "lights" (http://127.0.0.1:8931/mcp)`},
		{"two MCP providers, one namespace", []step{stdio("acer", "bin/a"), httpMCP("acer", "http://127.0.0.1:1/mcp")},
			`namespace "acer" has two MCP providers: MCP provider "acer" (program bin/a) and MCP provider "acer" (http://127.0.0.1:1/mcp)`},
		{"reserved namespace, native", []step{native("openworker.x")},
			`register tool.namedTool: tool "openworker.x": namespace "openworker" is reserved for OpenWorker itself; choose another namespace`},
		{"reserved namespace, MCP", []step{stdio("openworker", "bin/x")},
			`MCP provider "openworker" (program bin/x): namespace "openworker" is reserved for OpenWorker itself; choose another namespace`},
		{"skills namespace, native", []step{native("skills.load")},
			`register tool.namedTool: tool "skills.load": namespace "skills" is reserved for the tools OpenWorker gives a coworker with skills (skills.load, skills.read); choose another namespace`},
		{"skills namespace, MCP", []step{stdio("skills", "bin/x")},
			`MCP provider "skills" (program bin/x): namespace "skills" is reserved for the tools OpenWorker gives a coworker with skills`},
		{"name over 80 bytes", []step{native(name81)},
			`register tool.namedTool: tool "` + name81 + `" is 81 bytes; a qualified name may be at most 80 bytes`},
		{"alias over 80 bytes, name fits", []step{native(name80)},
			`register tool.namedTool: tool "` + name80 + `" has the alias "ex__` + strings.Repeat("a", 77) + `" of 81 bytes; an alias may be at most 80 bytes (each '.' becomes "__")`},
		{"non-ASCII tool name", []step{native("ex.wéb")},
			`register tool.namedTool: name "ex.wéb" is not ASCII (byte 4 is 0xc3); names are case-sensitive ASCII`},
		{"non-ASCII namespace, MCP", []step{stdio("ácer", "bin/a")},
			`MCP provider "ácer" (program bin/a): name "ácer" is not ASCII (byte 0 is 0xc3)`},
		{"RTL override in a name", []step{native("ex.a\u202eb")},
			`name "ex.a\u202eb" is not ASCII`},
		{"alias collision", []step{native("a.b__c"), other("a__b.c")},
			`tools "a.b__c" (tool.namedTool) and "a__b.c" (tool.otherTool) have the same model alias "a__b__c"; rename one of them`},
		{"bad character in tool part", []step{native("ex.web search")},
			`tool "ex.web search" has ' ' in its tool part; it may hold only letters, digits, '_' and '-'`},
		{"bad character in namespace", []step{native("e/x.a")},
			`tool "e/x.a": namespace "e/x" has '/' at byte 1; a namespace may hold only letters, digits, '_' and '-'`},
		{"dot in native tool part", []step{native("ex.a.b")},
			`tool "ex.a.b" has '.' in its tool part`},
		{"NUL in name", []step{native("ex.a\x00")},
			`tool "ex.a\x00" has '\x00' in its tool part`},
		{"unqualified name", []step{native("web_search")},
			`tool name "web_search" is not qualified; write it as namespace.tool`},
		{"bad MCP namespace", []step{stdio("a.b", "x")},
			`MCP provider "a.b" (program x): namespace "a.b" has '.' at byte 1`},
		{"empty MCP namespace", []step{stdio("", "x")},
			`MCP provider "" (program x): namespace is empty`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := NewRegistry()
			for i, s := range tc.steps[:len(tc.steps)-1] {
				if err := s.run(r); err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
			}
			err := tc.steps[len(tc.steps)-1].run(r)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("last step = %v\nwant it to contain %s", err, tc.want)
			}
			ferr := r.Freeze()
			if ferr == nil || !strings.Contains(ferr.Error(), tc.want) {
				t.Errorf("Freeze = %v, want the kept error", ferr)
			}
		})
	}
}

func TestRegistryNameLimitsFit(t *testing.T) {
	r := NewRegistry()
	fits := "ex." + strings.Repeat("a", 76) // 79 bytes, alias 80
	for _, s := range []step{native(fits), native("Ex.search"), native("ex.search"), stdio("acer-2_x", "bin/a")} {
		if err := s.run(r); err != nil {
			t.Errorf("register: %v", err)
		}
	}
	if err := r.Freeze(); err != nil {
		t.Errorf("Freeze = %v", err)
	}
}

func TestCheckMCPNameAliasLimit(t *testing.T) {
	// MCP remote names may hold '.', and each one grows the alias by a byte.
	fits := "ns." + strings.Repeat("a", 72) + ".b.c" // 79 bytes, alias 82
	err := CheckMCPName(fits)
	if err == nil || !strings.Contains(err.Error(), "of 82 bytes; an alias may be at most 80 bytes") {
		t.Errorf("CheckMCPName(%q) = %v", fits, err)
	}
	if err := CheckMCPName("ns.a.b"); err != nil {
		t.Errorf("CheckMCPName(ns.a.b) = %v", err)
	}
	if err := CheckAliases([]string{"x.y", "a.b__c", "q.r", "a__b.c"}); err == nil ||
		err.Error() != `tools "a.b__c" and "a__b.c" have the same model alias "a__b__c"; rename one of them` {
		t.Errorf("CheckAliases = %v", err)
	}
}

func TestRegistryFreeze(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(namedTool{"ex.ok"}); err != nil {
		t.Fatal(err)
	}
	e1 := r.Register(namedTool{"openworker.x"})
	e2 := r.RegisterMCP(MCPServer{Namespace: "ex", Program: "p"})
	if e1 == nil || e2 == nil {
		t.Fatalf("errors = %v, %v", e1, e2)
	}
	ferr := r.Freeze()
	if ferr == nil || !errors.Is(ferr, e1) || !errors.Is(ferr, e2) {
		t.Fatalf("Freeze = %v, want both kept errors", ferr)
	}
	if !r.Frozen() {
		t.Error("Frozen() = false after Freeze")
	}
	if err := r.Register(namedTool{"ex.late"}); !errors.Is(err, ErrFrozen) {
		t.Errorf("Register after Freeze = %v, want ErrFrozen", err)
	}
	if err := r.RegisterMCP(MCPServer{Namespace: "late", Program: "p"}); !errors.Is(err, ErrFrozen) {
		t.Errorf("RegisterMCP after Freeze = %v, want ErrFrozen", err)
	}
	if _, _, ok := r.Tool("ex.late"); ok {
		t.Error("a tool registered after Freeze is visible")
	}
	again := r.Freeze()
	if again == nil || again.Error() != ferr.Error() {
		t.Errorf("second Freeze = %v, want the same errors and no ErrFrozen", again)
	}
	if r2 := NewRegistry(); r2.Freeze() != nil {
		t.Error("Freeze of an empty registry failed")
	}
}

// TestRegistryWithServers: a generation keeps the natives and providers of
// its base, adds the good entries, reports the bad ones naming both sides,
// and leaves the base as it was.
func TestRegistryWithServers(t *testing.T) {
	base := NewRegistry()
	if err := base.Register(namedTool{"ex.search"}); err != nil {
		t.Fatal(err)
	}
	if err := base.RegisterMCP(MCPServer{Namespace: "device", Program: "bin/device"}); err != nil {
		t.Fatal(err)
	}
	if err := base.Freeze(); err != nil {
		t.Fatal(err)
	}
	gen, err := base.WithServers([]MCPServer{
		{Namespace: "memory", Program: "npx"},
		{Namespace: "ex", Program: "bin/ex"},
		{Namespace: "device", Program: "bin/other"},
		{Namespace: "memory", Program: "npx2"},
	})
	for _, want := range []string{
		`namespace "ex" of MCP provider "ex" (program bin/ex) is already the namespace of native tool "ex.search"`,
		`namespace "device" has two MCP providers: MCP provider "device" (program bin/device) and MCP provider "device" (program bin/other)`,
		`namespace "memory" has two MCP providers`,
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("WithServers error = %v; want it to contain %q", err, want)
		}
	}
	if !gen.Frozen() {
		t.Error("the generation is not frozen")
	}
	if _, _, ok := gen.Tool("ex.search"); !ok {
		t.Error("the generation lost the native tool")
	}
	if s, ok := gen.Server("memory"); !ok || s.Program != "npx" {
		t.Errorf("memory = %+v, %v; want the first entry", s, ok)
	}
	if s, _ := gen.Server("device"); s.Program != "bin/device" {
		t.Errorf("device = %+v; want the base's provider", s)
	}
	if _, ok := base.Server("memory"); ok || len(base.Servers()) != 1 {
		t.Errorf("the base changed: %+v", base.Servers())
	}
	if err := gen.RegisterMCP(MCPServer{Namespace: "late", Program: "x"}); !errors.Is(err, ErrFrozen) {
		t.Errorf("RegisterMCP on a generation = %v, want ErrFrozen", err)
	}
}

func TestRegistryFail(t *testing.T) {
	r := NewRegistry()
	if err := r.Fail(nil); err != nil {
		t.Errorf("Fail(nil) = %v, want nil", err)
	}
	bad := errors.New("servers.json:3:5: unknown field")
	if err := r.Fail(bad); err != bad {
		t.Errorf("Fail = %v, want the error itself", err)
	}
	if err := r.Fail(ErrFrozen); !errors.Is(err, ErrFrozen) {
		t.Errorf("Fail(ErrFrozen) = %v", err)
	}
	ferr := r.Freeze()
	if !errors.Is(ferr, bad) || errors.Is(ferr, ErrFrozen) {
		t.Fatalf("Freeze = %v, want the failed error kept (and ErrFrozen not)", ferr)
	}
	late := errors.New("late")
	if err := r.Fail(late); !errors.Is(err, ErrFrozen) {
		t.Errorf("Fail after Freeze = %v, want ErrFrozen", err)
	}
	if again := r.Freeze(); errors.Is(again, late) || again.Error() != ferr.Error() {
		t.Errorf("Freeze after a late Fail = %v, want %v", again, ferr)
	}
}

// TestRegistryBrokenMCP: a broken provider never stops the registry from
// freezing; it answers BrokenMCP for its namespace unless that namespace
// works (native or a provider); RegisterMCPEntry records a failed entry as
// broken instead of keeping it; generations carry the records.
func TestRegistryBrokenMCP(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(namedTool{"ex.search"}); err != nil {
		t.Fatal(err)
	}
	bad := errors.New("servers.json:3:5: bad entry")
	for _, ns := range []string{"gone", "ex", ""} {
		if err := r.RegisterBrokenMCP(ns, "servers.json:3", bad); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.RegisterBrokenMCP("nil", "x", nil); err != nil || len(r.Broken()) != 3 {
		t.Errorf("a nil error was recorded: %v", r.Broken())
	}
	if err := r.RegisterMCPEntry(MCPServer{Namespace: "ex", Program: "bin/ex", Source: "servers.json:9"}); err == nil || !strings.Contains(err.Error(), "already the namespace of native tool") {
		t.Errorf("RegisterMCPEntry(ex) = %v", err)
	}
	if err := r.RegisterMCPEntry(MCPServer{Namespace: "sse", Transport: TransportSSE, URL: "https://x.example.com/sse"}); err != nil {
		t.Errorf("RegisterMCPEntry(sse) = %v", err)
	}
	if err := r.RegisterMCPEntry(MCPServer{Namespace: "slow", Program: "x", Timeout: DefaultCallTimeout + 1}); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("RegisterMCPEntry(timeout over the bound) = %v", err)
	}
	if b, ok := r.BrokenMCP("gone"); !ok || b.Err != bad {
		t.Errorf("BrokenMCP(gone) = %+v, %v", b, ok)
	}
	for _, ns := range []string{"ex", "sse", ""} {
		if _, ok := r.BrokenMCP(ns); ok {
			t.Errorf("BrokenMCP(%q) is broken; it works (or is the whole-file record)", ns)
		}
	}
	if err := r.Freeze(); err != nil {
		t.Fatalf("Freeze = %v; broken providers are not registration errors", err)
	}
	if n := len(r.Broken()); n != 5 {
		t.Errorf("Broken() has %d records, want 5: %+v", n, r.Broken())
	}
	if err := r.RegisterBrokenMCP("late", "x", bad); !errors.Is(err, ErrFrozen) {
		t.Errorf("after Freeze: %v", err)
	}
	gen, err := r.WithServers([]MCPServer{{Namespace: "ex", Program: "y"}}, BrokenMCP{Namespace: "new", Source: "s:1", Err: bad})
	if err == nil {
		t.Error("WithServers accepted a native namespace")
	}
	if _, ok := gen.BrokenMCP("new"); !ok {
		t.Error("the generation lost the broken record it was given")
	}
	if _, ok := gen.BrokenMCP("gone"); !ok {
		t.Error("the generation lost the base's broken record")
	}
	if n := len(gen.Broken()); n != 7 {
		t.Errorf("generation has %d broken records, want 7 (5 of the base, 1 given, 1 refused)", n)
	}
}

// TestRegistryNamespaceTaken: a clash is a *NamespaceTakenError that names
// both sides and the entry to rename, never a Go type; CheckMCP answers
// it without registering, on a frozen registry too.
func TestRegistryNamespaceTaken(t *testing.T) {
	r := NewRegistry()
	if err := r.Register(namedTool{"note.show"}); err != nil {
		t.Fatal(err)
	}
	if err := r.RegisterMCP(MCPServer{Namespace: "dev", Program: "/opt/ow"}); err != nil {
		t.Fatal(err)
	}
	if err := r.Freeze(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		s       MCPServer
		want    string
		builtIn bool
	}{
		{MCPServer{Namespace: "dev", Program: "x", Source: "f.json:2"}, `namespace "dev" has two MCP providers: MCP provider "dev" (program /opt/ow) and MCP provider "dev" from f.json:2; a namespace has one provider; rename the one from f.json:2`, true},
		{MCPServer{Namespace: "note", Program: "x", Source: "f.json:3"}, `namespace "note" of MCP provider "note" from f.json:3 is already the namespace of native tool "note.show"; a namespace is either native or MCP; rename the one from f.json:3`, true},
	} {
		err := r.CheckMCP(tc.s)
		var taken *NamespaceTakenError
		if !errors.As(err, &taken) || err.Error() != tc.want || taken.BuiltIn() != tc.builtIn {
			t.Errorf("CheckMCP(%s) = %v; want %q", tc.s.Namespace, err, tc.want)
		}
	}
	if err := r.CheckMCP(MCPServer{Namespace: "free", Program: "x"}); err != nil {
		t.Errorf("CheckMCP(free) = %v", err)
	}
	if _, ok := r.Server("free"); ok {
		t.Error("CheckMCP registered the provider")
	}
}
