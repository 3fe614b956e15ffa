//go:build unix

package harness_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// server-everything's resources (docs/mcp.md#resources): Session.Resources
// lists its static documents and its two templates; in a turn, the model
// calls get-resource-links and reads a linked text resource and a linked
// blob through openworker.read_resource, which is asked for, approved and
// journaled like any call; Session.AttachResource reads a document into
// the next user message.
func TestResourcesServerEverything(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	prompter := &fixedPrompter{d: consent.AllowOnce}
	e := newEnv(t, envOpts{
		servers:  []tool.MCPServer{{Namespace: "everything", Program: node, Args: []string{entry, "stdio"}}},
		selected: []string{"everything.get-resource-links"}, mode: consent.Ask, prompter: prompter,
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "everything__get-resource-links", `{"count":2}`)}},
			{ToolCalls: []model.ToolCall{call("c2", "openworker__read_resource", `{"uri":"demo://resource/dynamic/text/2"}`),
				call("c3", "openworker__read_resource", `{"server":"everything","uri":"demo://resource/dynamic/blob/1"}`)}},
			{Text: "read"},
			{Text: "summarized"},
		}})
	s, res, err := e.sendWithin("what resources are there?", 120*time.Second)
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("turn = %+v, %v; want completed", res, err)
	}
	reqs := e.model.Requests()
	if names := reqs[0].ToolNames(); !slices.Equal(names, []string{"everything__get-resource-links", "openworker__read_resource"}) {
		t.Errorf("tools offered = %v; want the selected one and openworker__read_resource", names)
	}
	tr := reqs[2].ToolResults()
	if len(tr) != 3 {
		t.Fatalf("the model got %d tool results, want 3", len(tr))
	}
	mustHave(t, "link result", tr[0].Text, "[resource link demo://resource/dynamic/text/2")
	mustHave(t, "text read", tr[1].Text, "[embedded resource demo://resource/dynamic/text/2, MIME type text/plain]\nResource 2: This is a plaintext resource created at")
	mustHave(t, "blob read", tr[2].Text, "[embedded resource demo://resource/dynamic/blob/1, MIME type text/plain, ", " bytes, not shown]")

	invs := e.invocations(s.ID())
	if len(invs) != 3 {
		t.Fatalf("invocations = %+v; want 3", invs)
	}
	for _, inv := range invs[1:] {
		if inv.Tool != harness.ReadResource || inv.Provider != harness.ProviderNative || inv.Status != harness.StatusSucceeded {
			t.Errorf("invocation = %+v; want a succeeded %s", inv, harness.ReadResource)
		}
	}
	mustHave(t, "journaled read", string(invs[1].Result), `"type":"resource","text":"Resource 2: This is a plaintext resource`)
	asked := 0
	for _, a := range e.approvals(s.ID()) {
		if a.Tool == harness.ReadResource && a.Source == "prompt" && a.Decision == "allow_once" {
			asked++
		}
	}
	if asked != 2 {
		t.Errorf("%d prompted approvals of %s, want 2: %+v", asked, harness.ReadResource, e.approvals(s.ID()))
	}

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	resources, templates, err := s.Resources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var uris []string
	for _, r := range resources {
		if r.Namespace != "everything" {
			t.Errorf("resource %+v has namespace %q", r, r.Namespace)
		}
		uris = append(uris, r.URI)
	}
	if !slices.Contains(uris, "demo://resource/static/document/features.md") || len(uris) < 5 {
		t.Errorf("resources = %v; want server-everything's documents, features.md among them", uris)
	}
	var tpls []string
	for _, tp := range templates {
		tpls = append(tpls, tp.URITemplate)
	}
	if !slices.Contains(tpls, "demo://resource/dynamic/text/{resourceId}") || !slices.Contains(tpls, "demo://resource/dynamic/blob/{resourceId}") {
		t.Errorf("resource templates = %v; want the text and blob templates", tpls)
	}

	features, err := os.ReadFile(filepath.Join(filepath.Dir(entry), "docs", "features.md"))
	if err != nil {
		t.Fatal(err)
	}
	attached, err := s.AttachResource(ctx, "everything", "demo://resource/static/document/features.md")
	if err != nil {
		t.Fatal(err)
	}
	want := "[attached from MCP server \"everything\"]\n[embedded resource demo://resource/static/document/features.md, MIME type text/markdown]\n" + string(features)
	if attached != want {
		t.Errorf("AttachResource = %.200q…; want %.200q…", attached, want)
	}
	if res, err := s.Send(ctx, attached+"\n\nSummarize this.", e.sink); err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("second turn = %+v, %v", res, err)
	}
	last := e.model.Requests()[3].LastMessage()
	if last.Role != "user" || !strings.Contains(last.Text, string(features)) {
		t.Errorf("the model's last message = %s %.200q; want the attached document", last.Role, last.Text)
	}
	if _, err := s.AttachResource(ctx, "nowhere", "demo://x"); err == nil || !strings.Contains(err.Error(), `the coworker uses no MCP provider "nowhere"; its providers are everything`) {
		t.Errorf("AttachResource of an unknown provider = %v", err)
	}
}
