// Package platform is the one way OpenWorker reaches native notifications and
// dialogs (docs/tools.md, docs/platform.md). The CLI and the app call Default() and never
// osascript, Win32 or D-Bus directly.
//
//	a := platform.Default()
//	res, err := a.Ask(ctx, platform.AskRequest{
//		Message: "Delete 3 files?",
//		Buttons: []string{"Delete", "Keep"},
//		Cancel:  "Keep",
//		Timeout: time.Minute,
//	})
//
// Dialog text may come from a model, so every adapter is a security
// boundary: text is passed to the OS as data (AppleScript argv, UTF-16 to
// MessageBoxW, escaped XML for toasts, D-Bus strings, zenity argv items) and
// never spliced into code unquoted (beeep's macOS osascript fallback only
// gets text its quoting carries exactly; see docs/platform.md). Every request is validated first: NUL bytes and
// invalid UTF-8 are refused; titles are at most MaxTitleBytes, messages
// MaxMessageBytes, button labels MaxButtonBytes (one line each); a dialog has
// 1 to 3 distinct buttons, its default and cancel are among them, and its
// timeout is 1 s to 1 h. Errors wrap ErrInvalid.
//
// Adapters: platform/darwin (beeep notifications, osascript dialogs),
// platform/windows (MessageBoxW and the project's own toast XML) and
// platform/freedesktop (beeep over D-Bus, zenity dialogs; for Linux
// development and CI). Which notification back end each OS uses, and why:
// docs/platform.md, "Notification back ends". Each compiles on every OS; where it cannot work its methods return
// errors wrapping errors.ErrUnsupported.
package platform

import "github.com/openworker/desktop/platform/internal/core"

// The request types, shared by every adapter (see package core for fields).
type (
	// NotifyRequest is a notification: plain-text Title and Body, optional Icon path.
	NotifyRequest = core.NotifyRequest
	// AskRequest is a dialog with 1–3 buttons, a default, an optional cancel and a timeout.
	AskRequest = core.AskRequest
	// AskResult is the pressed button's label, or TimedOut.
	AskResult = core.AskResult
	// Capabilities says whether notifications and dialogs work here, and why not.
	Capabilities = core.Capabilities
	// Adapter shows notifications and dialogs.
	Adapter = core.Adapter
	// Icon is a dialog icon.
	Icon = core.Icon
	// Unsupported is an Adapter whose every call fails with errors.ErrUnsupported.
	Unsupported = core.Unsupported
)

// Dialog icons.
const (
	IconInfo    = core.IconInfo
	IconWarning = core.IconWarning
	IconError   = core.IconError
)

// Request bounds, in bytes of UTF-8 (timeouts as durations).
const (
	MaxTitleBytes   = core.MaxTitleBytes
	MaxMessageBytes = core.MaxMessageBytes
	MaxButtonBytes  = core.MaxButtonBytes
	MaxButtons      = core.MaxButtons
	MinTimeout      = core.MinTimeout
	MaxTimeout      = core.MaxTimeout
)

// ErrInvalid is wrapped by every request validation error.
var ErrInvalid = core.ErrInvalid

// Default returns the adapter of this OS: platform/darwin on macOS,
// platform/windows on Windows, platform/freedesktop elsewhere. It is cheap;
// call it once at startup.
func Default() Adapter { return defaultAdapter() }
