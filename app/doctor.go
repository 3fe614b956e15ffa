package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/model"
)

// diagnosticsTimeout bounds "Copy diagnostics": provider starts are
// bounded each (mcp.DefaultStartTimeout), and so is the whole.
const diagnosticsTimeout = 60 * time.Second

// notificationBackend names the notification back end of this OS (the
// platform adapter, docs/platform.md).
func notificationBackend() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS notifications through beeep (platform/darwin)"
	case "windows":
		return "Windows toast notifications, the adapter's own escaped toast XML (platform/windows)"
	default:
		return "org.freedesktop.Notifications on the D-Bus session bus, through beeep (platform/freedesktop)"
	}
}

// DoctorHooks are the app's facts for `openworker doctor`
// (docs/cli.md#doctor): the webview runtime, the notification back end
// and its check, the journal and servers file of the app's config folder
// (configDir, "" for the default), the API keys in the keychain (hidden,
// never shown) and the model settings.
func DoctorHooks(configDir string, getenv func(string) string) cli.DoctorHooks {
	if getenv == nil {
		getenv = os.Getenv
	}
	paths, perr := resolvePaths(configDir)
	load := func() (Settings, error) {
		if perr != nil {
			return Settings{}, perr
		}
		return LoadSettings(paths.Settings)
	}
	h := doctorHooks(getenv, osKeychain{}, func() (Settings, error) { return load() })
	h.JournalPath = func() string {
		if perr != nil {
			return cli.DefaultDBPath()
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

// doctorHooks are the hooks the CLI and the app share; settings gives the
// model settings in use.
func doctorHooks(getenv func(string) string, keys Keychain, settings func() (Settings, error)) cli.DoctorHooks {
	return cli.DoctorHooks{
		Webview: webviewRuntime,
		Notifications: func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, notifyCheckTimeout)
			defer cancel()
			if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
				return notificationBackend(), fmt.Errorf("%w: part of the OS; a refused permission shows when a notification is sent (docs/platform.md)", cli.ErrDoctorNotChecked)
			}
			return notificationBackend(), notificationsAvailable(ctx, getenv)
		},
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
		Sections: func(context.Context) []cli.DoctorSection {
			return []cli.DoctorSection{modelSection(getenv, keys, settings)}
		},
	}
}

// modelSection is the model settings: provider, base URL (without user
// info or query), model, and where the key comes from (never the key).
func modelSection(getenv func(string) string, keys Keychain, settings func() (Settings, error)) cli.DoctorSection {
	s := cli.DoctorSection{Name: "model"}
	set, err := settings()
	if err != nil {
		s.Facts = append(s.Facts, cli.DoctorFact{Key: "settings", Status: cli.DoctorFailed, Value: err.Error()})
		set = DefaultSettings()
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
	case getenv(envKeyName(set.Provider)) != "":
		key = "set (" + envKeyName(set.Provider) + ")"
	}
	if kerr != nil {
		key += "; the keychain could not be read (see [keychain])"
	}
	s.Facts = append(s.Facts,
		cli.DoctorFact{Key: "provider", Value: c.Provider},
		cli.DoctorFact{Key: "base url", Value: cli.SafeURL(c.BaseURL)},
		cli.DoctorFact{Key: "model", Value: c.Model},
		cli.DoctorFact{Key: "api key", Value: key})
	return s
}

// Diagnostics is the text of "Copy diagnostics" in Settings: the report
// of `openworker doctor` for the app as it runs (its journal, the
// providers of its servers file, its settings), secrets redacted
// (docs/app.md#diagnostics). It starts each provider once more, so it
// can take up to the provider start timeout.
func (a *Activity) Diagnostics() (string, error) {
	j, _ := a.engine.openJournal() // nil when it did not open
	settings, servers, rt, rtErr := a.settings.get(), a.servers.state(), a.engine.runtime(), a.engine.runtimeErr()
	in := cli.DoctorInput{Version: a.cfg.Build, Journal: j, JournalPath: a.paths.Journal,
		ServersFile: settings.ServersPath, Getenv: a.cfg.Getenv}
	if servers.err != nil && servers.whole {
		in.ServersErr = servers.err
	}
	if rt != nil {
		reg := rt.Registry()
		in.Servers, in.Broken, in.Agents = reg.Servers(), reg.Broken(), reg.Agents()
	}
	in.Hooks = doctorHooks(a.cfg.Getenv, a.keys, func() (Settings, error) { return settings, nil })
	in.Hooks.SearchPath = a.searchPath // the PATH the app starts programs on (nil: launch.Default)
	if rtErr != nil {                  // a section of the host's, so that it is redacted too
		sections := in.Hooks.Sections
		in.Hooks.Sections = func(ctx context.Context) []cli.DoctorSection {
			return append(sections(ctx), cli.DoctorSection{Name: "runtime", Facts: []cli.DoctorFact{{Key: "error", Status: cli.DoctorFailed, Value: rtErr.Error()}}})
		}
	}
	if a.base == nil {
		return "", errors.New("the app has not started yet")
	}
	ctx, cancel := context.WithTimeout(a.base, diagnosticsTimeout)
	defer cancel()
	return cli.Doctor(ctx, in).Text(), nil
}
