package app

import (
	"context"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// promptsApp is an app whose coworker "kit" uses mcptest.PromptsServer
// over streamable HTTP on 127.0.0.1.
func promptsApp(t *testing.T) *desktop {
	t.Helper()
	url, stop := mcptest.ServePrompts(0)
	t.Cleanup(stop)
	reg := tool.NewRegistry()
	if err := reg.RegisterMCP(tool.MCPServer{Namespace: "kit", Transport: tool.TransportStreamableHTTP, URL: url}); err != nil {
		t.Fatal(err)
	}
	bundles := t.TempDir()
	writeBundle(t, bundles, "kit", "kit.ping")
	m := modeltest.NewOpenAI(t)
	cfg := config{ConfigDir: t.TempDir(), Coworkers: bundles, BaseURL: m.URL, Model: "scripted", Getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	a, err := newApp(ctx, reg, cfg, deps{Emitter: newRecorder(), Keychain: &memKeychain{keys: map[string]string{}}, Notifier: &countNotifier{}})
	if err != nil {
		t.Fatal(err)
	}
	a.startup()
	t.Cleanup(func() { a.shutdown(); cancel() })
	return a
}

// TestChatPrompts: the composer's "/" list and a prompt expanded to the
// composer's text, with the argument check and an unknown chat.
func TestChatPrompts(t *testing.T) {
	a := promptsApp(t)
	chat, err := a.Chats.OpenChat("kit")
	if err != nil {
		t.Fatal(err)
	}
	list, err := a.Chats.ChatPrompts(chat.SessionID)
	if err != nil || len(list) != 4 || list[0].Name != "kit.brief" || list[0].Description != "Write a brief about a topic" ||
		len(list[0].Arguments) != 2 || list[0].Arguments[0] != (PromptArg{Name: "topic", Description: "what the brief is about", Required: true}) ||
		list[1].Arguments == nil {
		t.Fatalf("ChatPrompts = %+v, %v", list, err)
	}
	text, err := a.Chats.ExpandPrompt(chat.SessionID, "kit.brief", map[string]string{"topic": "tides", "tone": "formal"})
	if err != nil || text != "Write a brief about tides. Tone: formal." {
		t.Errorf("ExpandPrompt = %q, %v", text, err)
	}
	if _, err := a.Chats.ExpandPrompt(chat.SessionID, "kit.brief", map[string]string{}); err == nil || !strings.Contains(err.Error(), `needs the argument "topic"`) {
		t.Errorf("ExpandPrompt without topic = %v", err)
	}
	if _, err := a.Chats.ExpandPrompt(chat.SessionID, "kit.huge", nil); err == nil || !strings.Contains(err.Error(), "longer than 64 KiB") {
		t.Errorf("ExpandPrompt(kit.huge) = %v", err)
	}
	if _, err := a.Chats.ChatPrompts("ses_nope"); err == nil || !strings.Contains(err.Error(), "no open chat") {
		t.Errorf("ChatPrompts(unknown) = %v", err)
	}
}
