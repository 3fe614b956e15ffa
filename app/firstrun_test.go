package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A first start with no model: the setup shows; skipping (or finishing)
// writes setup_done to the real settings file, keeps the other fields on
// disk as they are, and the setup does not show again, after a restart
// too. Saving the Settings form keeps the flag.
func TestSetupShowsOnceAndTheFlagIsSaved(t *testing.T) {
	e := newTestEnv(t, envOpts{noModel: true})
	a := e.app
	if info, _ := a.Window.Info(); !info.FirstRun {
		t.Fatalf("Info().FirstRun = false at a first start with no model")
	}
	st, _ := a.Preferences.SetupState()
	if !st.Show || st.Done || st.OllamaURL != "http://127.0.0.1:11434" {
		t.Fatalf("SetupState = %+v, want shown, not done, Ollama at the default address", st)
	}
	if err := a.Preferences.SetTheme(ThemeDark); err != nil {
		t.Fatal(err)
	}
	if err := a.Preferences.FinishSetup(); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(a.paths.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), `"setup_done": true`) {
		t.Fatalf("settings.json has no setup_done:\n%s", raw)
	}
	saved, err := LoadSettings(a.paths.Settings)
	if err != nil || !saved.SetupDone || saved.Theme != ThemeDark {
		t.Fatalf("saved = %+v, %v; want setup_done and the theme kept", saved, err)
	}
	if info, _ := a.Window.Info(); info.FirstRun {
		t.Fatalf("Info().FirstRun after FinishSetup")
	}
	v, _ := a.Preferences.GetSettings()
	form := v.Settings
	form.SetupDone = false // a form that never had the field
	if _, err := a.Preferences.SaveSettings(form); err != nil {
		t.Fatal(err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); !saved.SetupDone {
		t.Fatalf("Save Settings dropped setup_done")
	}
	// A restart on the same config dir reads the flag.
	e2 := newTestEnv(t, envOpts{noModel: true, cfg: config{ConfigDir: e.cfgDir}})
	if st, _ := e2.app.Preferences.SetupState(); st.Show || !st.Done {
		t.Fatalf("after a restart SetupState = %+v, want done and not shown", st)
	}
}

// A model configured anywhere (flags, settings, keychain, environment)
// means no setup at start, even when it was never done.
func TestSetupNotShownWhenAModelIsConfigured(t *testing.T) {
	if info, _ := newTestEnv(t, envOpts{}).app.Window.Info(); info.FirstRun {
		t.Fatalf("FirstRun with --base-url and --model given")
	}
	e := newTestEnv(t, envOpts{noModel: true, cfg: config{Getenv: func(k string) string {
		if k == "ANTHROPIC_API_KEY" {
			return "sk-test"
		}
		return ""
	}}})
	if st, _ := e.app.Preferences.SetupState(); st.Show {
		t.Fatalf("setup shown with ANTHROPIC_API_KEY set")
	}
	e = newTestEnv(t, envOpts{noModel: true})
	if err := e.keys.Set("openai", "sk-stored"); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.app.Preferences.SetupState(); st.Show {
		t.Fatalf("setup shown with a key in the keychain")
	}
}

// UseModel saves the provider, base URL and model in settings.json and
// the key in the keychain only; the model in use changes at once.
func TestUseModelKeepsTheKeyInTheKeychain(t *testing.T) {
	e := newTestEnv(t, envOpts{noModel: true})
	a := e.app
	v, err := a.Preferences.UseModel("anthropic", " http://127.0.0.1:9/ ", " claude-test ", "sk-secret-123")
	if err != nil {
		t.Fatal(err)
	}
	if v.Settings.Provider != "anthropic" || v.Settings.Anthropic.BaseURL != "http://127.0.0.1:9/" || v.Settings.Anthropic.Model != "claude-test" || !v.KeyStored["anthropic"] {
		t.Fatalf("view = %+v", v)
	}
	if k, _ := e.keys.Get("anthropic"); k != "sk-secret-123" {
		t.Fatalf("keychain has %q", k)
	}
	raw, err := os.ReadFile(a.paths.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "sk-secret") {
		t.Fatalf("settings.json holds the key:\n%s", raw)
	}
	if info, _ := a.Window.Info(); !strings.Contains(info.Model, "claude-test") {
		t.Fatalf("model in use = %q, want claude-test", info.Model)
	}
	if _, err := a.Preferences.UseModel("openai", "ftp://x", "m", ""); err == nil || !strings.Contains(err.Error(), "base URL") {
		t.Fatalf("UseModel with ftp:// = %v, want a base URL error", err)
	}
	if _, err := a.Preferences.UseModel("gemini", "", "m", ""); err == nil {
		t.Fatal("UseModel accepted provider gemini")
	}
}

// A settings.json that cannot be read is no first start: the setup stays
// closed, the notice names the file, and the file is left as it is.
func TestSetupNotShownOverBrokenSettings(t *testing.T) {
	dir := t.TempDir()
	broken := []byte("{\"setup_done\": true,,\n}")
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), broken, 0o600); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{noModel: true, cfg: config{ConfigDir: dir}})
	info, _ := e.app.Window.Info()
	if info.FirstRun {
		t.Fatal("Info().FirstRun over a settings.json that could not be read")
	}
	if st, _ := e.app.Preferences.SetupState(); st.Show {
		t.Fatal("SetupState().Show over a settings.json that could not be read")
	}
	found := false
	for _, n := range info.Notices {
		found = found || strings.Contains(n.Message, "settings.json")
	}
	if !found {
		t.Errorf("no notice names settings.json: %+v", info.Notices)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "settings.json")); string(got) != string(broken) {
		t.Errorf("settings.json changed to %q", got)
	}
}

// On a first start with no usable keychain, Info says why, so that the
// setup offers the environment instead of a save that fails.
func TestFirstRunSaysTheKeychainCannotKeepAKey(t *testing.T) {
	e := newTestEnv(t, envOpts{noModel: true})
	if info, _ := e.app.Window.Info(); !info.FirstRun || info.KeychainError != "" {
		t.Fatalf("Info() = first run %v, keychain error %q; want a first run with a keychain", info.FirstRun, info.KeychainError)
	}
	e.keys.mu.Lock()
	e.keys.err = errors.New("no D-Bus session bus")
	e.keys.mu.Unlock()
	if info, _ := e.app.Window.Info(); !strings.Contains(info.KeychainError, "no D-Bus session bus") {
		t.Fatalf("Info().KeychainError = %q; want the keychain's error", info.KeychainError)
	}
}
