// Package freedesktop is the Linux (and BSD) platform adapter for
// development and CI (docs/platform.md): notifications through the D-Bus service
// org.freedesktop.Notifications and dialogs through zenity when it is on
// PATH. Without zenity, Ask returns an error wrapping errors.ErrUnsupported.
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
	"slices"

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
	ExpireServer = int32(-1) // let the server choose how long to show it
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

// NotifyArgs returns the Notify call for req. When the server supports body
// markup (capability "body-markup") the body is escaped so that "<", ">" and
// "&" show as themselves; the summary is plain text by specification.
func NotifyArgs(req core.NotifyRequest, bodyMarkup bool) (NotifyCall, error) {
	if err := req.Validate(); err != nil {
		return NotifyCall{}, err
	}
	body := req.Body
	if bodyMarkup {
		body = html.EscapeString(body)
	}
	return NotifyCall{
		AppName: AppName, AppIcon: req.Icon, Summary: req.Title, Body: body,
		Actions: []string{}, Hints: map[string]dbus.Variant{}, ExpireTimeout: ExpireServer,
	}, nil
}

// notify connects to the session bus, asks the server's capabilities and
// sends the notification. It returns the server's notification id.
func notify(ctx context.Context, req core.NotifyRequest) (uint32, error) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return 0, fmt.Errorf("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset): %w", errUnsupported)
	}
	if err := req.Validate(); err != nil {
		return 0, err
	}
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return 0, fmt.Errorf("D-Bus session bus: %w", err)
	}
	defer conn.Close()
	obj := conn.Object(BusName, ObjectPath)
	var caps []string
	if err := obj.CallWithContext(ctx, Interface+".GetCapabilities", 0).Store(&caps); err != nil {
		return 0, fmt.Errorf("%s.GetCapabilities: %w", Interface, err)
	}
	call, err := NotifyArgs(req, slices.Contains(caps, "body-markup"))
	if err != nil {
		return 0, err
	}
	var id uint32
	if err := obj.CallWithContext(ctx, Interface+".Notify", 0, call.Args()...).Store(&id); err != nil {
		return 0, fmt.Errorf("%s.Notify: %w", Interface, err)
	}
	return id, nil
}
