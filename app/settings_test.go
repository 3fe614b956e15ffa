package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseArgs(t *testing.T) {
	b := filepath.Join(t.TempDir(), "b") // absolute on every system ("/b" is not on Windows)
	c, err := parseArgs([]string{"--coworkers", b, "--coworker", "helper", "--base-url", "http://127.0.0.1:1/v1", "--approve", "bypass"})
	if err != nil || c.Coworkers != b || c.OpenCoworker != "helper" || c.BaseURL != "http://127.0.0.1:1/v1" || c.Approve != "bypass" {
		t.Fatalf("parseArgs = %+v, %v", c, err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--base-ur", "x"}, "unknown flag --base-ur; the desktop app takes: --config-dir DIR, --db FILE, --coworkers DIR,"},
		{[]string{"-nope"}, "unknown flag --nope;"},
		{[]string{"--model"}, "flag --model needs a value;"},
		{[]string{"stray"}, `unexpected argument "stray" (subcommands are listed by openworker --help; files to open end in .mcpb or .dxt)`},
	} {
		_, err := parseArgs(c.args)
		if err == nil || !errors.Is(err, ErrUsage) {
			t.Fatalf("parseArgs(%q) = %v, want an error wrapping ErrUsage", c.args, err)
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, c.want) && !strings.Contains(msg, c.want) {
			t.Errorf("parseArgs(%q) = %q, want it to contain %q", c.args, msg, c.want)
		}
		if strings.Contains(msg, "openworker:") || strings.Contains(msg, "(desktop)") || !strings.HasSuffix(msg, "--prompt-timeout DUR, --background (openworker --help)") {
			t.Errorf("parseArgs(%q) = %q: want no program prefix and the full flag list", c.args, msg)
		}
	}
}

func TestFlagUsageListsEveryFlag(t *testing.T) {
	u := FlagUsage()
	lines := strings.Split(strings.TrimSuffix(u, "\n"), "\n")
	want := []string{"--config-dir DIR", "--db FILE", "--coworkers DIR", "--coworker ID", "--provider NAME", "--base-url URL",
		"--model NAME", "--approve MODE", "--servers FILE", "--update-feed URL", "--prompt-timeout DUR"}
	if len(lines) != len(want)+1 || !strings.HasPrefix(lines[len(want)], "  --background  ") {
		t.Fatalf("FlagUsage has %d lines, want %d and --background last:\n%s", len(lines), len(want)+1, u)
	}
	lines = lines[:len(want)]
	if c, err := parseArgs([]string{"--background"}); err != nil || !c.Background {
		t.Errorf("parseArgs(--background) = %+v, %v; want Background", c, err)
	}
	if len(lines) != len(want) {
		t.Fatalf("FlagUsage has %d lines, want %d:\n%s", len(lines), len(want), u)
	}
	col := -1
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 3 || f[0]+" "+f[1] != want[i] {
			t.Errorf("line %d = %q, want it to start with %q and a help text", i, l, want[i])
			continue
		}
		head := "  " + want[i]
		at := len(head) + strings.Index(l[len(head):], f[2])
		if col >= 0 && at != col {
			t.Errorf("line %d: help starts at column %d, want %d (aligned)", i, at, col)
		}
		col = at
	}
	// Every flag parseArgs accepts is listed, and no other.
	for _, w := range want {
		name := strings.Fields(w)[0]
		if _, err := parseArgs([]string{name + "=x"}); err != nil {
			t.Errorf("parseArgs(%s=x) = %v", name, err)
		}
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

// lockedKeychain is a keychain that cannot be read, as on Linux without a
// Secret Service; it fails the way osKeychain does.
type lockedKeychain struct{}

func (lockedKeychain) Get(p string) (string, error) {
	return "", keychainError("read", p, errors.New(`exec: "dbus-launch": executable file not found in $PATH`))
}
func (lockedKeychain) Set(p, _ string) error { return keychainError("save", p, errors.New("locked")) }
func (lockedKeychain) Delete(p string) error { return keychainError("delete", p, errors.New("locked")) }

func TestKeychainWarningNamesEachProvider(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	e.app.keys = lockedKeychain{}
	e.app.cfg.Getenv = func(k string) string {
		if k == "OPENAI_API_KEY" {
			return "from-env"
		}
		return ""
	}
	v, err := e.app.Preferences.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string][2]string{
		"openai":    {"OpenAI-compatible API key", "OPENAI_API_KEY"},
		"anthropic": {"Anthropic API key", "ANTHROPIC_API_KEY"},
	} {
		msg := v.KeychainErrors[p]
		if !strings.Contains(msg, want[0]) || !strings.Contains(msg, want[1]) {
			t.Errorf("keychain error of %s = %q, want it to name %q and %s", p, msg, want[0], want[1])
		}
	}
	if strings.Contains(v.KeychainErrors["openai"], "ANTHROPIC") || strings.Contains(v.KeychainErrors["anthropic"], "OPENAI") {
		t.Errorf("a warning names the other provider: %q", v.KeychainErrors)
	}
	if !v.KeyFromEnv["openai"] || v.KeyFromEnv["anthropic"] {
		t.Errorf("key_from_env = %v, want only openai", v.KeyFromEnv)
	}
}

// This run's flags (--coworkers, --base-url, --model, --approve) are in use
// and listed in Settings, but saving Settings (or choosing another bundles
// folder) never writes them to settings.json unless the field was changed.
func TestRunFlagsAreNotSaved(t *testing.T) {
	e := newTestEnv(t, envOpts{cfg: config{Approve: "bypass"}})
	v, err := e.app.Preferences.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	if v.Settings.CoworkersDir != e.bundles || v.Settings.ApprovalMode != "bypass" {
		t.Fatalf("settings in use = %+v; want this run's flags", v.Settings)
	}
	if got := strings.Join(v.RunFlags, " "); !strings.Contains(got, "--coworkers "+e.bundles) || !strings.Contains(got, "--approve bypass") || !strings.Contains(got, "--model scripted") {
		t.Fatalf("RunFlags = %q; want the flags of this run", got)
	}
	// Save with one real change: the OpenAI model.
	s := v.Settings
	s.OpenAI.Model = "chosen-model"
	if _, err := e.app.Preferences.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	file, err := LoadSettings(e.app.paths.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if file.CoworkersDir != "" || file.ApprovalMode != DefaultSettings().ApprovalMode || file.OpenAI.BaseURL != "" {
		t.Fatalf("settings.json after saving = %+v; want no --coworkers, --approve or --base-url value in it", file)
	}
	if file.OpenAI.Model != "chosen-model" {
		t.Fatalf("settings.json model = %q; want the field changed in Settings", file.OpenAI.Model)
	}
	if v, _ := e.app.Preferences.GetSettings(); v.Settings.CoworkersDir != e.bundles || v.Settings.OpenAI.Model != "chosen-model" {
		t.Fatalf("settings in use after saving = %+v", v.Settings)
	}
	// Choosing a folder on the Coworkers screen saves that folder, and
	// still not the other flags.
	other := t.TempDir()
	if _, err := e.app.Coworkers.SetCoworkersDir(other); err != nil {
		t.Fatal(err)
	}
	if file, _ := LoadSettings(e.app.paths.Settings); file.CoworkersDir != other || file.ApprovalMode != DefaultSettings().ApprovalMode {
		t.Fatalf("settings.json after choosing a folder = %+v; want the folder, and no --approve", file)
	}
}

// A base URL that does not parse keeps its password out of the error,
// in Settings and in the model picker's probes.
func TestBadBaseURLHidesItsPassword(t *testing.T) {
	s := DefaultSettings()
	s.OpenAI.BaseURL = "http://u:hunter2@127.0.0.1:1/%zz"
	if err := s.Validate(); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("Validate = %v; want an error without the password", err)
	}
	e := newTestEnv(t, envOpts{})
	if _, err := e.app.Preferences.probeConfig("openai", "http://u:hunter2@[::1", "", ""); err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("probeConfig = %v; want an error without the password", err)
	}
}
