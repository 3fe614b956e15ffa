package app

import (
	"os"
	"strings"
	"testing"
)

// Each section's Save writes only that section's fields to settings.json:
// the others keep what the file had, edits of other sections included.
func TestSaveSectionWritesOnlyItsFields(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	if err := e.app.Preferences.SetTheme("dark"); err != nil {
		t.Fatal(err)
	}
	v, err := e.app.Preferences.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	// The form as a person left it: edits in three sections.
	s := v.Settings
	s.OpenAI.Model = "chosen-model"
	s.ApprovalMode = "bypass"
	s.ServersPath = "/not/saved/servers.json"
	if _, err := e.app.Preferences.SaveSection(SectionModel, s); err != nil {
		t.Fatal(err)
	}
	file := loadFile(t, e)
	if file.OpenAI.Model != "chosen-model" || file.ApprovalMode != "ask" || file.ServersPath != "" || file.Theme != "dark" {
		t.Fatalf("settings.json after saving Model = %+v; want only the model changed", file)
	}
	if _, err := e.app.Preferences.SaveSection(SectionPermissions, s); err != nil {
		t.Fatal(err)
	}
	file = loadFile(t, e)
	if file.ApprovalMode != "bypass" || file.OpenAI.Model != "chosen-model" || file.ServersPath != "" {
		t.Fatalf("settings.json after saving Permissions = %+v; want bypass, the model kept, no servers file", file)
	}
	if v, _ := e.app.Preferences.GetSettings(); v.Settings.ApprovalMode != "bypass" {
		t.Fatalf("approval mode in use = %q; want bypass", v.Settings.ApprovalMode)
	}
}

// A section that does not validate writes nothing, and its error names
// the field; an unknown section names the known ones.
func TestSaveSectionRefusesBadInput(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	v, _ := e.app.Preferences.GetSettings()
	s := v.Settings
	s.OpenAI.Model = "kept"
	if _, err := e.app.Preferences.SaveSection(SectionModel, s); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(e.app.paths.Settings)
	if err != nil {
		t.Fatal(err)
	}
	s.OpenAI.BaseURL = "not a url"
	s.OpenAI.Model = "lost"
	if _, err := e.app.Preferences.SaveSection(SectionModel, s); err == nil || !strings.Contains(err.Error(), "base URL") {
		t.Fatalf("SaveSection(model, bad URL) = %v; want an error naming the base URL", err)
	}
	if after, _ := os.ReadFile(e.app.paths.Settings); string(after) != string(before) {
		t.Fatalf("settings.json changed after a refused save:\n%s\nwant\n%s", after, before)
	}
	if _, err := e.app.Preferences.SaveSection("appearance", s); err == nil || !strings.Contains(err.Error(), `"permissions"`) {
		t.Fatalf("SaveSection(appearance) = %v; want an error listing the sections", err)
	}
}

func loadFile(t *testing.T, e *testEnv) Settings {
	t.Helper()
	s, err := LoadSettings(e.app.paths.Settings)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
