package app

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wailsapp/wails/v2/pkg/options/windows"
)

// SetTheme writes the theme to settings.json at once, without the flags of
// this run (--coworkers, --model, --base-url), survives a restart, and
// Save Settings keeps it.
func TestSetThemeSavesOnlyTheTheme(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	a := e.app
	if info, _ := a.Window.Info(); info.Theme != ThemeSystem {
		t.Fatalf("theme at first start = %q, want %q", info.Theme, ThemeSystem)
	}
	if err := a.Preferences.SetTheme(ThemeDark); err != nil {
		t.Fatal(err)
	}
	saved, err := LoadSettings(a.paths.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if saved.Theme != ThemeDark || saved.CoworkersDir != "" || saved.OpenAI.Model != "" || saved.OpenAI.BaseURL != "" {
		t.Fatalf("saved = %+v; want only the theme (no --coworkers, --model or --base-url of this run)", saved)
	}
	if info, _ := a.Window.Info(); info.Theme != ThemeDark {
		t.Fatalf("Info().Theme = %q, want dark", info.Theme)
	}
	// The Settings form carries the theme it loaded; saving it keeps the one in use.
	v, _ := a.Preferences.GetSettings()
	form := v.Settings
	form.Theme = ThemeLight
	if _, err := a.Preferences.SaveSettings(form); err != nil {
		t.Fatal(err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); saved.Theme != ThemeDark {
		t.Fatalf("after Save Settings the theme is %q, want dark (only SetTheme changes it)", saved.Theme)
	}
	if got := windowBackground(a.settings.theme()); got.R > 0x40 {
		t.Fatalf("dark window background %+v is not dark", got)
	}
	if windowsTheme(a.settings.theme()) != windows.Dark || windowsTheme("") != windows.SystemDefault {
		t.Fatalf("Windows title bar theme for dark = %v, for \"\" = %v", windowsTheme(a.settings.theme()), windowsTheme(""))
	}

	// A restart with the same config folder reads it back.
	e2 := newTestEnv(t, envOpts{cfg: config{ConfigDir: e.cfgDir}})
	if info, _ := e2.app.Window.Info(); info.Theme != ThemeDark {
		t.Fatalf("after restart theme = %q, want dark", info.Theme)
	}
}

func TestSetThemeRejects(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	a := e.app
	if err := a.Preferences.SetTheme("sepia"); err == nil || !strings.Contains(err.Error(), `theme "sepia": choose "system", "light" or "dark"`) {
		t.Fatalf("SetTheme(sepia) = %v", err)
	}
	// A broken settings file is not overwritten: the error names it.
	bad := "{\n  \"provider\": \"openai\",\n  \"nope\": 1\n}\n"
	if err := os.MkdirAll(filepath.Dir(a.paths.Settings), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(a.paths.Settings, []byte(bad), 0o600); err != nil {
		t.Fatal(err)
	}
	err := a.Preferences.SetTheme(ThemeLight)
	if err == nil || !strings.Contains(err.Error(), a.paths.Settings+":3") {
		t.Fatalf("SetTheme over a broken file = %v, want an error naming %s:3", err, a.paths.Settings)
	}
	if got, _ := os.ReadFile(a.paths.Settings); string(got) != bad {
		t.Fatalf("the broken file was rewritten: %q", got)
	}
	if _, err := LoadSettings(writeTemp(t, `{"theme": "blue"}`)); err == nil || !strings.Contains(err.Error(), `theme "blue"`) {
		t.Fatalf("LoadSettings with theme blue = %v", err)
	}
}

func writeTemp(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "settings.json")
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}
