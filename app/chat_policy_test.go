package app

import (
	"os"
	"path/filepath"
	"testing"
)

// TestChatToolsSayTheCoworkersPolicy: a tool the coworker's manifest
// allows is listed with policy "allow" (the chat says it runs without
// asking); the others ask.
func TestChatToolsSayTheCoworkersPolicy(t *testing.T) {
	e := newTestEnv(t, envOpts{bundles: func(dir string) {
		writeBundle(t, dir, "trusting", "test.echo")
		m := filepath.Join(dir, "trusting", "coworker", "manifest.md")
		manifest := "---\nid: trusting\nname: Trusting\ndescription: a test coworker\nversion: 1.0.0\npolicy:\n  test.echo: allow\n---\nYou are a test coworker.\n"
		if err := os.WriteFile(m, []byte(manifest), 0o644); err != nil {
			t.Fatal(err)
		}
	}})
	chat, err := e.app.Chats.OpenChat("trusting")
	if err != nil {
		t.Fatal(err)
	}
	if len(chat.Tools) != 1 || chat.Tools[0].Policy != "allow" {
		t.Fatalf("tools = %+v; want test.echo with policy allow", chat.Tools)
	}
	plain, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Tools) != 1 || plain.Tools[0].Policy != "ask" {
		t.Fatalf("tools = %+v; want test.echo with policy ask", plain.Tools)
	}
}
