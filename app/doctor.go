package app

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"time"

	"github.com/openworker/desktop/harness/doctor"
)

// diagnosticsTimeout bounds a run of the Diagnostics screen: provider starts are
// bounded each (mcp.DefaultStartTimeout), and so is the whole.
const diagnosticsTimeout = 60 * time.Second

// notificationBackend names the notification back end of this OS (the
// platform adapter, docs/platform.md).
func notificationBackend() string {
	switch runtime.GOOS {
	case "darwin":
		return "macOS notifications, now through " + macNotificationBackend() + " (platform/darwin, docs/platform.md#macos-user-notifications)"
	case "windows":
		return "Windows toast notifications, the adapter's own escaped toast XML (platform/windows)"
	default:
		return "org.freedesktop.Notifications on the D-Bus session bus, through beeep (platform/freedesktop)"
	}
}

// DesktopFacts are what only the desktop binary knows for `openworker
// doctor` and the Diagnostics screen (docs/cli.md#doctor): the webview runtime
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

// Diagnostics is the text of a report (RunDiagnostics) that starts no
// server whose start may download: the servers a coworker uses, secrets
// redacted (docs/app.md#diagnostics).
func (a *Activity) Diagnostics() (string, error) {
	rep, err := a.RunDiagnostics(false)
	return rep.Text, err
}
