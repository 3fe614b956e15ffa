package harness_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
)

func promptsEnv(t *testing.T) *env {
	t.Helper()
	url, stop := mcptest.ServePrompts(0)
	t.Cleanup(stop)
	return newEnv(t, envOpts{servers: []tool.MCPServer{{Namespace: "kit", Transport: tool.TransportStreamableHTTP, URL: url}}, selected: []string{"kit.ping"}})
}

// TestSessionPrompts: the prompts of the coworker's providers by qualified
// name; expanding one checks its arguments first; an unknown name lists
// the prompts there are.
func TestSessionPrompts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	e := promptsEnv(t)
	s := e.open()
	defer s.Close()
	list, err := s.Prompts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range list {
		names = append(names, p.Name)
	}
	if strings.Join(names, " ") != "kit.brief kit.broken kit.huge kit.review" || list[0].Namespace != "kit" || list[0].Title != "Brief" ||
		len(list[0].Arguments) != 2 || !list[0].Arguments[0].Required {
		t.Fatalf("Prompts = %+v", list)
	}
	res, err := s.GetPrompt(ctx, "kit.brief", map[string]string{"topic": "heat pumps"})
	if err != nil || harness.PromptText(res) != "Write a brief about heat pumps." {
		t.Errorf("GetPrompt(kit.brief) = %+v, %v", res, err)
	}
	if _, err := s.GetPrompt(ctx, "kit.brief", nil); err == nil || !strings.Contains(err.Error(), `kit.brief: prompt "brief" needs the argument "topic"`) {
		t.Errorf("GetPrompt without topic = %v", err)
	}
	for _, name := range []string{"kit.nope", "other.brief", "brief"} {
		if _, err := s.GetPrompt(ctx, name, nil); err == nil || !strings.Contains(err.Error(), "the prompts are: kit.brief, kit.broken, kit.huge, kit.review") {
			t.Errorf("GetPrompt(%s) = %v; want the list of prompts", name, err)
		}
	}
	res, err = s.GetPrompt(ctx, "kit.review", nil)
	want := "Here is the screen.\n\nAssistant:\n> I see a login form.\n\n[image: image/png]"
	if got := harness.PromptText(res); err != nil || got != want {
		t.Errorf("PromptText(kit.review) = %q, %v; want %q", got, err, want)
	}
}

// TestPromptText: assistant lines quoted, empty messages dropped.
func TestPromptText(t *testing.T) {
	got := harness.PromptText(mcp.PromptResult{Messages: []mcp.PromptMessage{
		{Role: "user", Text: "Compare these.\n"}, {Role: "assistant", Text: "First:\n\nsecond"}, {Role: "user", Text: ""}, {Role: "user", Text: "Go on."}}})
	if want := "Compare these.\n\nAssistant:\n> First:\n>\n> second\n\nGo on."; got != want {
		t.Errorf("PromptText = %q, want %q", got, want)
	}
}

// TestProviderPerWorkspace: sessions with different workspaces get their
// own provider (each offers its own root); sessions with the same one
// share it.
func TestProviderPerWorkspace(t *testing.T) {
	e := promptsEnv(t)
	var sessions []*harness.Session
	for _, ws := range []string{t.TempDir(), t.TempDir(), ""} {
		so := e.so
		so.Workspace = ws
		for range 2 {
			s, err := e.rt.NewSession(context.Background(), "tester", so)
			if err != nil {
				t.Fatal(err)
			}
			sessions = append(sessions, s)
		}
	}
	if got := e.rt.RunningProviders(); strings.Join(got, " ") != "kit kit kit" {
		t.Errorf("RunningProviders = %v; want kit three times (two workspaces and none)", got)
	}
	for _, s := range sessions {
		s.Close()
	}
}
