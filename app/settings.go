package app

import "github.com/openworker/desktop/harness/settings"

// The settings file, the config folder's paths and the API keys in the
// keychain are harness/settings', which `openworker doctor` and
// `openworker servers import` read too; the app names them here.

// Settings are the person's non-secret choices, kept as JSON in
// settings.json (settings.Settings).
type Settings = settings.Settings

// ProviderSettings say where one provider is (settings.ProviderSettings).
type ProviderSettings = settings.ProviderSettings

// DefaultSettings are used when no settings file exists (settings.Default).
func DefaultSettings() Settings { return settings.Default() }

// LoadSettings reads the settings file at path (settings.Load).
func LoadSettings(path string) (Settings, error) { return settings.Load(path) }

// SaveSettings validates s and writes it to path (settings.Save).
func SaveSettings(path string, s Settings) error { return settings.Save(path, s) }

// updateSettingsFile changes one field of the settings saved at file
// (settings.Update).
func updateSettingsFile(file string, change func(*Settings)) (Settings, error) {
	return settings.Update(file, change)
}

// checkBaseURL refuses a base URL that is not an absolute http(s) URL or
// holds a password (settings.CheckBaseURL).
func checkBaseURL(label, raw string) error { return settings.CheckBaseURL(label, raw) }
