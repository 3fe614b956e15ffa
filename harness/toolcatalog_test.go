//go:build unix

package harness_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
)

// TestToolCatalog: every provider of the registry is listed with its
// tools, sorted: a native namespace with each tool's Risk as its effect,
// an MCP provider (a real server over streamable HTTP) with its
// annotations as effects (read-only; not destructive: changes data;
// destructive by the MCP default; none sent: unknown) and a name the
// model cannot take refused with the reason, a provider that does not
// start with its error, and a broken servers entry with its error. Asked
// for some namespaces, it lists only those.
func TestToolCatalog(t *testing.T) {
	s := sdk.NewServer(&sdk.Implementation{Name: "kit", Version: "2.0.0"}, nil)
	no, yes := false, true
	empty := json.RawMessage(`{"type":"object"}`)
	answer := func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ok"}}}, nil
	}
	for _, tl := range []*sdk.Tool{
		{Name: "read", Description: "Reads.", Annotations: &sdk.ToolAnnotations{ReadOnlyHint: true}},
		{Name: "write", Description: "Writes.", Annotations: &sdk.ToolAnnotations{DestructiveHint: &no, IdempotentHint: true}},
		{Name: "wipe", Description: "Wipes.", Annotations: &sdk.ToolAnnotations{Title: "Wipe everything"}},
		{Name: "erase", Description: "Erases.", Annotations: &sdk.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}},
		{Name: "plain", Description: "Says nothing of itself."},
		{Name: strings.Repeat("x", 70), Description: "Too long for a model."},
	} {
		tl.InputSchema = empty
		s.AddTool(tl, answer)
	}
	srv := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	defer srv.Close()

	reg := tool.NewRegistry()
	for _, err := range []error{
		reg.Register(&testTool{name: "test.echo", risk: tool.ReadOnly}),
		reg.Register(&testTool{name: "test.store", risk: tool.IdempotentWrite}),
		reg.RegisterMCP(tool.MCPServer{Namespace: "kit", Transport: tool.TransportStreamableHTTP, URL: srv.URL, Source: "servers.json:2"}),
		reg.RegisterMCP(tool.MCPServer{Namespace: "dead", Program: "sh", Args: []string{"-c", "echo no config >&2; exit 3"}}),
		reg.RegisterBrokenMCP("typo", "servers.json:9", errors.New("servers.json:9:5: unknown field \"comand\"")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: t.TempDir(), CheckTimeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer rt.Close()
	cat, err := rt.ToolCatalog(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var order []string
	byNS := map[string]harness.ProviderTools{}
	for _, p := range cat {
		order = append(order, p.Namespace)
		byNS[p.Namespace] = p
	}
	if got := strings.Join(order, " "); got != "dead kit test typo" {
		t.Fatalf("providers %q; want dead kit test typo", got)
	}
	if p := byNS["test"]; p.Provider != harness.ProviderNative || len(p.Tools) != 2 ||
		p.Tools[0].Name != "test.echo" || p.Tools[0].Effect != harness.EffectReadOnly || p.Tools[1].Effect != harness.EffectChangesData {
		t.Errorf("native: %+v", p)
	}
	kit := byNS["kit"]
	if kit.Provider != "mcp:kit" || kit.Source != "servers.json:2" || kit.Error != "" {
		t.Fatalf("kit: %+v", kit)
	}
	effects := map[string]string{}
	for _, tl := range kit.Tools {
		effects[strings.TrimPrefix(tl.Name, "kit.")] = tl.Effect
		if strings.HasPrefix(tl.Name, "kit.xxx") {
			if !strings.Contains(tl.Refused, "64") {
				t.Errorf("a 74-byte alias: refused %q; want the rule named", tl.Refused)
			}
		} else if tl.Refused != "" {
			t.Errorf("%s refused: %s", tl.Name, tl.Refused)
		}
		if tl.Name == "kit.wipe" && tl.Title != "Wipe everything" {
			t.Errorf("kit.wipe title %q", tl.Title)
		}
		if tl.Name == "kit.write" && (tl.Idempotent == nil || !*tl.Idempotent) {
			t.Errorf("kit.write: idempotent hint %v", tl.Idempotent)
		}
	}
	want := map[string]string{"read": harness.EffectReadOnly, "write": harness.EffectChangesData, "wipe": harness.EffectDestructive,
		"erase": harness.EffectDestructive, "plain": harness.EffectUnknown, strings.Repeat("x", 70): harness.EffectUnknown}
	for name, e := range want {
		if effects[name] != e {
			t.Errorf("kit.%s effect %q; want %q", name, effects[name], e)
		}
	}
	if len(kit.Tools) != len(want) || kit.Tools[0].Name != "kit.erase" {
		t.Errorf("kit tools %+v; want %d, sorted", kit.Tools, len(want))
	}
	if d := byNS["dead"]; d.Error == "" || len(d.Tools) != 0 || !strings.Contains(d.Error, "no config") {
		t.Errorf("a provider that does not start: %+v", d)
	}
	if b := byNS["typo"]; !strings.Contains(b.Error, "comand") || b.Source != "servers.json:9" {
		t.Errorf("a broken entry: %+v", b)
	}
	// Only the providers asked for (one the registry lacks is left out).
	only, err := rt.ToolCatalog(context.Background(), nil, "kit", "test", "nosuch")
	if err != nil || len(only) != 2 || only[0].Namespace != "kit" || len(only[0].Tools) != len(want) || only[1].Namespace != "test" {
		t.Errorf("ToolCatalog(kit, test, nosuch) = %+v, %v; want kit and test", only, err)
	}
}
