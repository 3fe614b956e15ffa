// Package freedesktop is the Linux (and BSD) platform adapter for
// development and CI (docs/platform.md): notifications through the D-Bus service
// org.freedesktop.Notifications, sent by github.com/gen2brain/beeep, and
// dialogs through zenity when it is on PATH. Without zenity, Ask returns an
// error wrapping errors.ErrUnsupported.
//
// # Notifications
//
// Notify first asks the server's capabilities on a connection of its own
// (GetCapabilities; an error here is returned and nothing else runs), then
// builds the call (NotifyArgs) and hands summary, body and icon to
// beeep.Notify, with beeep.AppName set to AppName. beeep makes the Notify
// call on the shared session bus connection (dbus.SessionBus) with
// urgency normal and its fixed 5 s expire timeout; NotifyArgs is exactly
// that call. beeep cannot express the server-chosen expire timeout (-1)
// the adapter used to send; its 5 s is accepted (GNOME Shell ignores the
// field), and the adapter sends no field beeep cannot express (no actions,
// no other hints, no replaces id), so both paths make the same call
// (docs/platform.md, "Notification back ends"). What the adapter keeps of its
// own: the capability check, which decides the markup escaping beeep does
// not do, and its own Notify call with the same arguments whenever
// ViaBeeep is false.
//
// When beeep's D-Bus call fails it runs notify-send, then kdialog, with the
// summary and body as bare argv items (no "--"), so a text starting with
// "-" would be read as an option. ViaBeeep keeps such requests (summary,
// body or icon starting with "-") off beeep: they go out through the
// adapter's own D-Bus call, which has no fallback. beeep is not compiled in
// with the build tag nodbus (its D-Bus-free build would go straight to
// notify-send) nor on other OSes; then every request takes the own call.
//
// Text is data: the notification body is markup-escaped when the server
// advertises "body-markup", and zenity gets every string as one argv item
// ("--text=…", never a shell) with --no-markup and its backslash escapes
// neutralised. The package compiles on every OS.
package freedesktop

import (
	"context"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/godbus/dbus/v5"
	"github.com/openworker/desktop/platform/internal/core"
)

// D-Bus names of the notification service (Desktop Notifications
// Specification 1.2).
const (
	BusName      = "org.freedesktop.Notifications"
	ObjectPath   = "/org/freedesktop/Notifications"
	Interface    = "org.freedesktop.Notifications"
	AppName      = "OpenWorker"
	ExpireMillis = int32(5000) // beeep's fixed expire timeout (5 s); many servers ignore it
	UrgencyHint  = "urgency"   // the one hint sent: byte 1 (normal), as beeep sends it
)

// NotifyCall is the exact argument list of one Notify D-Bus call.
type NotifyCall struct {
	AppName       string
	ReplacesID    uint32
	AppIcon       string
	Summary       string
	Body          string
	Actions       []string
	Hints         map[string]dbus.Variant
	ExpireTimeout int32
}

// Args returns the call's arguments in D-Bus order (signature susssasa{sv}i).
func (c NotifyCall) Args() []any {
	return []any{c.AppName, c.ReplacesID, c.AppIcon, c.Summary, c.Body, c.Actions, c.Hints, c.ExpireTimeout}
}

// NotifyArgs returns the Notify call for req: the one beeep.Notify makes
// (app name AppName, the icon made absolute when it names an existing file,
// no actions, hint urgency=1, ExpireMillis), and the one the adapter's own
// call makes when ViaBeeep is false. When the server supports body markup
// (capability "body-markup") the body is escaped so that "<", ">", "&" and
// quotes show as themselves; the summary is plain text by specification.
func NotifyArgs(req core.NotifyRequest, bodyMarkup bool) (NotifyCall, error) {
	if err := req.Validate(); err != nil {
		return NotifyCall{}, err
	}
	body := req.Body
	if bodyMarkup {
		body = html.EscapeString(body)
	}
	icon := req.Icon
	if _, err := os.Stat(icon); icon != "" && err == nil {
		if abs, err := filepath.Abs(icon); err == nil {
			icon = abs
		}
	}
	return NotifyCall{
		AppName: AppName, AppIcon: icon, Summary: req.Title, Body: body, Actions: []string{},
		Hints: map[string]dbus.Variant{UrgencyHint: dbus.MakeVariant(byte(1))}, ExpireTimeout: ExpireMillis,
	}, nil
}

// ViaBeeep reports whether Notify hands call to beeep: beeep is compiled
// in and no argv item of its notify-send and kdialog fallbacks (summary,
// body, icon) starts with "-". See the package doc.
func ViaBeeep(call NotifyCall) bool {
	if beeepNotify == nil {
		return false
	}
	for _, s := range []string{call.Summary, call.Body, call.AppIcon} {
		if strings.HasPrefix(s, "-") {
			return false
		}
	}
	return true
}

// notify connects to the session bus, asks the server's capabilities and
// sends the notification through beeep or, when ViaBeeep is false, its own
// call.
func notify(ctx context.Context, req core.NotifyRequest) error {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return fmt.Errorf("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset): %w", errUnsupported)
	}
	if err := req.Validate(); err != nil {
		return err
	}
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("D-Bus session bus: %w", err)
	}
	defer conn.Close()
	obj := conn.Object(BusName, ObjectPath)
	var caps []string
	if err := obj.CallWithContext(ctx, Interface+".GetCapabilities", 0).Store(&caps); err != nil {
		return fmt.Errorf("%s.GetCapabilities: %w", Interface, err)
	}
	call, err := NotifyArgs(req, slices.Contains(caps, "body-markup"))
	if err != nil {
		return err
	}
	if ViaBeeep(call) {
		return sendBeeep(ctx, call)
	}
	var id uint32
	if err := obj.CallWithContext(ctx, Interface+".Notify", 0, call.Args()...).Store(&id); err != nil {
		return fmt.Errorf("%s.Notify: %w", Interface, err)
	}
	return nil
}

// sendBeeep runs beeep.Notify, which takes no context: when ctx ends first
// it returns ctx.Err() and leaves beeep's blocking D-Bus call behind.
func sendBeeep(ctx context.Context, call NotifyCall) error {
	done := make(chan error, 1)
	go func() { done <- beeepNotify(call.Summary, call.Body, call.AppIcon) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}
