package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/openworker/desktop/harness/doctor"
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

// DesktopFacts are what only the desktop binary knows for `openworker
// doctor` and "Copy diagnostics" (docs/cli.md#doctor): the webview runtime
// and the notification back end with its check, which need the app's
// build tags and platform adapters. getenv reads the environment (nil:
// os.Getenv). The product's main.go gives them to the CLI
// (cli.WithDoctor); the app's other facts (journal, servers file,
// keychain, model settings) are harness/doctor's own (doctor.AppHooks).
func DesktopFacts(getenv func(string) string) doctor.Desktop {
	if getenv == nil {
		getenv = os.Getenv
	}
	return doctor.Desktop{
		Webview: webviewRuntime,
		Notifications: func(ctx context.Context) (string, error) {
			ctx, cancel := context.WithTimeout(ctx, notifyCheckTimeout)
			defer cancel()
			if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
				return notificationBackend(), fmt.Errorf("%w: part of the OS; a refused permission shows when a notification is sent (docs/platform.md)", doctor.ErrNotChecked)
			}
			return notificationBackend(), notificationsAvailable(ctx, getenv)
		},
	}
}

// Diagnostics is the text of "Copy diagnostics" in Settings: the report
// of `openworker doctor` for the app as it runs (its journal, the
// providers of its servers file, its settings), secrets redacted
// (docs/app.md#diagnostics). It starts each provider once more, so it
// can take up to the provider start timeout.
func (a *Activity) Diagnostics() (string, error) {
	j, _ := a.engine.openJournal() // nil when it did not open
	settings, servers, rt, rtErr := a.settings.get(), a.servers.state(), a.engine.runtime(), a.engine.runtimeErr()
	in := doctor.Input{Version: a.cfg.Build, Journal: j, JournalPath: a.paths.Journal,
		ServersFile: settings.ServersPath, Getenv: a.cfg.Getenv}
	if servers.err != nil && servers.whole {
		in.ServersErr = servers.err
	}
	if rt != nil {
		reg := rt.Registry()
		in.Servers, in.Broken, in.Agents = reg.Servers(), reg.Broken(), reg.Agents()
	}
	in.Hooks = doctor.SettingsHooks(a.cfg.Getenv, a.keys, func() (Settings, error) { return settings, nil })
	in.Hooks.Desktop = DesktopFacts(a.cfg.Getenv)
	in.Hooks.SearchPath = a.searchPath // the PATH the app starts programs on (nil: launch.Default)
	if rtErr != nil {                  // a section of the host's, so that it is redacted too
		sections := in.Hooks.Sections
		in.Hooks.Sections = func(ctx context.Context) []doctor.Section {
			return append(sections(ctx), doctor.Section{Name: "runtime", Facts: []doctor.Fact{{Key: "error", Status: doctor.Failed, Value: rtErr.Error()}}})
		}
	}
	if a.base == nil {
		return "", errors.New("the app has not started yet")
	}
	ctx, cancel := context.WithTimeout(a.base, diagnosticsTimeout)
	defer cancel()
	return doctor.Diagnose(ctx, in).Text(), nil
}
