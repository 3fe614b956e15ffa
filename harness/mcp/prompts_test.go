package mcp

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
)

// promptsProvider connects to mcptest.PromptsServer over streamable HTTP
// on 127.0.0.1.
func promptsProvider(t *testing.T, filler int) *Provider {
	t.Helper()
	return kitProvider(t)(mcptest.ServePrompts(filler))
}

// kitProvider returns a function connecting to the test server at url
// (namespace "kit", streamable HTTP) that stops it and closes the
// connection when the test ends.
func kitProvider(t *testing.T) func(url string, stop func()) *Provider {
	return func(url string, stop func()) *Provider {
		t.Helper()
		t.Cleanup(stop)
		p, err := Connect(context.Background(), tool.MCPServer{Namespace: "kit", Transport: tool.TransportStreamableHTTP, URL: url}, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { p.Close() })
		return p
	}
}

// TestPrompts: the listing with arguments, a prompt's messages as text
// (an image as a placeholder line), the argument check before a request,
// the 64 KiB bound and a server's error.
func TestPrompts(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	p := promptsProvider(t, 0)
	list, err := p.ListPrompts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Prompt{}
	for _, pr := range list {
		byName[pr.Name] = pr
	}
	brief := byName["brief"]
	if len(list) != 4 || brief.Title != "Brief" || brief.Description != "Write a brief about a topic" || len(brief.Arguments) != 2 ||
		brief.Arguments[0] != (PromptArgument{Name: "topic", Description: "what the brief is about", Required: true}) || brief.Arguments[1].Required {
		t.Fatalf("ListPrompts = %+v", list)
	}

	if err := brief.CheckArgs(map[string]string{"tone": "casual"}); err == nil || !strings.Contains(err.Error(), `needs the argument "topic" (what the brief is about)`) {
		t.Errorf("CheckArgs without topic = %v", err)
	}
	if err := brief.CheckArgs(map[string]string{"topic": "x", "mood": "y"}); err == nil || !strings.Contains(err.Error(), `no argument "mood"; it takes the arguments topic, tone`) {
		t.Errorf("CheckArgs with mood = %v", err)
	}
	if err := brief.CheckArgs(map[string]string{"topic": "x"}); err != nil {
		t.Errorf("CheckArgs with topic = %v", err)
	}

	res, err := p.GetPrompt(ctx, "brief", map[string]string{"topic": "solar panels", "tone": "casual"})
	if err != nil || res.Description != "a brief" || len(res.Messages) != 1 || res.Messages[0] != (PromptMessage{Role: "user", Text: "Write a brief about solar panels. Tone: casual."}) {
		t.Errorf("GetPrompt(brief) = %+v, %v", res, err)
	}
	res, err = p.GetPrompt(ctx, "review", nil)
	want := []PromptMessage{{"user", "Here is the screen."}, {"assistant", "I see a login form."}, {"user", "[image: image/png]"}}
	if err != nil || len(res.Messages) != 3 || res.Messages[0] != want[0] || res.Messages[1] != want[1] || res.Messages[2] != want[2] {
		t.Errorf("GetPrompt(review) = %+v, %v; want %+v", res, err, want)
	}
	_, err = p.GetPrompt(ctx, "huge", nil)
	if !errors.Is(err, ErrPromptTooLong) || !strings.Contains(err.Error(), `prompt "huge"`) {
		t.Errorf("GetPrompt(huge) = %v; want ErrPromptTooLong", err)
	}
	_, err = p.GetPrompt(ctx, "broken", nil)
	if err == nil || !strings.Contains(err.Error(), "the template store is down") {
		t.Errorf("GetPrompt(broken) = %v; want the server's error", err)
	}
	if !p.Alive() {
		t.Error("the provider died after a prompt error")
	}
}

// TestPromptsBound: a server with more than MaxPrompts prompts lists
// MaxPrompts of them.
func TestPromptsBound(t *testing.T) {
	p := promptsProvider(t, MaxPrompts+50)
	list, err := p.ListPrompts(context.Background())
	if err != nil || len(list) != MaxPrompts {
		t.Fatalf("ListPrompts = %d prompts, %v; want %d", len(list), err, MaxPrompts)
	}
}

// TestPromptsNone: a server without the prompts capability has none.
func TestPromptsNone(t *testing.T) {
	p, err := Connect(context.Background(), selfServer(t, "plain", "helper"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	list, err := p.ListPrompts(context.Background())
	if err != nil || len(list) != 0 {
		t.Errorf("ListPrompts = %+v, %v; want none", list, err)
	}
}
