package doctor

import (
	"context"
	"os"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/settings"
	"github.com/openworker/desktop/internal/redact"
)

// AppHooks are the desktop app's facts as its files hold them, for
// `openworker doctor` in the product's binary: the journal and servers
// file of the app's config folder (configDir, "" for the default,
// settings.ResolvePaths), and SettingsHooks over its saved settings and
// the OS keychain. getenv reads the environment (nil: os.Getenv). The
// Desktop facts are not here: only the desktop binary knows them.
func AppHooks(configDir string, getenv func(string) string) Hooks {
	paths, perr := settings.ResolvePaths(configDir)
	load := func() (settings.Settings, error) {
		if perr != nil {
			return settings.Settings{}, perr
		}
		return settings.Load(paths.Settings)
	}
	h := SettingsHooks(getenv, settings.OSKeychain{}, load)
	h.JournalPath = func() string {
		if perr != nil {
			return harness.DefaultDBPath()
		}
		return paths.Journal
	}
	h.ServersFile = func() string {
		s, err := load()
		if err != nil {
			return ""
		}
		return s.ServersPath
	}
	return h
}

// SettingsHooks are the hooks of the app's settings, which the CLI and the
// running app share: the keychain as the app reads it (keys), the API
// keys it holds as Secrets (hidden, never shown) and the "model" section;
// load gives the settings in use.
func SettingsHooks(getenv func(string) string, keys settings.Keychain, load func() (settings.Settings, error)) Hooks {
	if getenv == nil {
		getenv = os.Getenv
	}
	return Hooks{
		// The keychain as the app reads it (its keys' service, "OpenWorker").
		Keychain: func(context.Context) error { _, err := keys.Get(model.ProviderOpenAI); return err },
		Secrets: func() []string {
			var out []string
			for _, p := range []string{model.ProviderOpenAI, model.ProviderAnthropic} {
				if k, err := keys.Get(p); err == nil && k != "" {
					out = append(out, k)
				}
			}
			return out
		},
		Sections: func(context.Context) []Section {
			return []Section{modelSection(getenv, keys, load)}
		},
	}
}

// modelSection is the model settings: provider, base URL (without user
// info or query), model, and where the key comes from (never the key).
func modelSection(getenv func(string) string, keys settings.Keychain, load func() (settings.Settings, error)) Section {
	s := Section{Name: "model"}
	set, err := load()
	if err != nil {
		s.Facts = append(s.Facts, Fact{Key: "settings", Status: Failed, Value: err.Error()})
		set = settings.Default()
	}
	ps := set.OpenAI
	if set.Provider == model.ProviderAnthropic {
		ps = set.Anthropic
	}
	k, kerr := keys.Get(set.Provider)
	c := model.FromEnv(model.Config{Provider: set.Provider, BaseURL: ps.BaseURL, Model: ps.Model, APIKey: k}, getenv)
	key := "none"
	switch {
	case k != "":
		key = "set (OS keychain)"
	case getenv(settings.APIKeyEnv(set.Provider)) != "":
		key = "set (" + settings.APIKeyEnv(set.Provider) + ")"
	}
	if kerr != nil {
		key += "; the keychain could not be read (see [keychain])"
	}
	s.Facts = append(s.Facts,
		Fact{Key: "provider", Value: c.Provider},
		Fact{Key: "base url", Value: redact.URL(c.BaseURL)},
		Fact{Key: "model", Value: c.Model},
		Fact{Key: "api key", Value: key})
	return s
}
