package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/consent"
)

func TestLoadSettings(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "settings.json")
	s, err := LoadSettings(p)
	if err != nil || s != DefaultSettings() {
		t.Fatalf("missing file: %+v, %v; want defaults", s, err)
	}
	want := Settings{Provider: "anthropic", Anthropic: ProviderSettings{Model: "m"}, ApprovalMode: "bypass", CoworkersDir: dir}
	if err := SaveSettings(p, want); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", fi.Mode().Perm())
	}
	if got, err := LoadSettings(p); err != nil || got != want {
		t.Fatalf("round trip = %+v, %v", got, err)
	}
	for _, c := range []struct{ body, want string }{
		{"{\n  \"provider\": \"openai\",\n  \"api_key\": \"x\"\n}", ":3: "},
		{"{\n  \"provider\": \"openai\",\n  \"approval_mode\": 3\n}", ":3: "},
		{"{\n\n  \"provider\": \"openai\" \"x\"}", ":3: "},
		{`{"provider": "gemini"}`, `provider "gemini"`},
		{`{"openai": {"base_url": "ftp://x"}}`, "base URL"},
		{`{"openai": {"base_url": "http://u:p@h/v1"}}`, "password"},
		{`{"approval_mode": "yolo"}`, `approval mode "yolo"`},
		{`{"coworkers_dir": "relative"}`, "absolute"},
	} {
		os.WriteFile(p, []byte(c.body), 0o600)
		_, err := LoadSettings(p)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), p) {
			t.Errorf("LoadSettings(%s) = %v, want an error naming the file and %q", c.body, err, c.want)
		}
	}
}

func TestParseArgs(t *testing.T) {
	c, err := parseArgs([]string{"--coworkers", "/b", "--coworker", "helper", "--base-url", "http://127.0.0.1:1/v1", "--approve", "bypass"})
	if err != nil || c.Coworkers != "/b" || c.OpenCoworker != "helper" || c.BaseURL != "http://127.0.0.1:1/v1" || c.Approve != "bypass" {
		t.Fatalf("parseArgs = %+v, %v", c, err)
	}
	if _, err := parseArgs([]string{"--nope"}); err == nil {
		t.Fatal("unknown flag accepted")
	}
	if _, err := parseArgs([]string{"stray"}); err == nil {
		t.Fatal("stray argument accepted")
	}
}

func TestPrompterAnswersAndCancels(t *testing.T) {
	rec := newRecorder()
	m := newModalPrompter(rec, nil, nil)
	if err := m.Respond("nope", consent.AllowOnce); err != ErrNoSuchApproval {
		t.Fatalf("unknown id: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan consent.Decision, 1)
	go func() {
		d, _ := m.Prompt(ctx, consent.Request{SessionID: "s", Tool: "a.b"})
		done <- d
	}()
	p := rec.waitFor(t, EventApprovalRequest, nil).(PendingApproval)
	if err := m.Respond(p.ID, "maybe"); err == nil {
		t.Fatal("an invalid decision was accepted")
	}
	cancel()
	select {
	case d := <-done:
		if d != consent.Deny {
			t.Fatalf("cancelled prompt = %s, want deny", d)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a cancelled prompt did not return")
	}
	if c := rec.waitFor(t, EventApprovalClosed, nil).(ApprovalClosed); c.Reason != "the turn was cancelled" {
		t.Fatalf("closed = %+v", c)
	}
	if len(m.Pending()) != 0 {
		t.Fatal("a cancelled prompt is still pending")
	}
}

func TestSeedCoworkers(t *testing.T) {
	src := t.TempDir()
	writeBundle(t, src, "example", "test.echo")
	dst := filepath.Join(t.TempDir(), "Coworkers")
	if ok, err := seedCoworkers(dst, os.DirFS(src)); !ok || err != nil {
		t.Fatalf("first seed = %v, %v", ok, err)
	}
	if _, err := os.Stat(filepath.Join(dst, "example", "coworker", "manifest.md")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dst, "example"))
	writeBundle(t, dst, "mine", "test.echo")
	if ok, _ := seedCoworkers(dst, os.DirFS(src)); ok {
		t.Fatal("seeded a folder that has the person's own bundles")
	}
}

func TestResolvePathsUnderConfigDir(t *testing.T) {
	dir := t.TempDir()
	p, err := resolvePaths(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{p.Settings, p.Journal, p.LogFile} {
		if !strings.HasPrefix(f, dir) {
			t.Errorf("%s is outside the config dir %s", f, dir)
		}
	}
}
