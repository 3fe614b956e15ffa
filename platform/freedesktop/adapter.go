package freedesktop

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/openworker/desktop/platform/internal/core"
)

var errUnsupported = errors.ErrUnsupported

// Options configure an Adapter; the zero value looks zenity up on PATH.
type Options struct {
	// Zenity is the zenity program; empty means exec.LookPath("zenity").
	Zenity string
}

// Adapter is the freedesktop adapter. It is safe for concurrent use.
type Adapter struct {
	zenity string // "" when not found
}

// New returns the adapter; opts may be nil. zenity is looked up once, here.
func New(opts *Options) *Adapter {
	a := &Adapter{}
	if opts != nil && opts.Zenity != "" {
		a.zenity = opts.Zenity
	} else if p, err := exec.LookPath("zenity"); err == nil {
		a.zenity = p
	}
	return a
}

// Capabilities implements platform.Adapter. It does not touch the bus.
func (a *Adapter) Capabilities() core.Capabilities {
	c := core.Capabilities{Notify: os.Getenv("DBUS_SESSION_BUS_ADDRESS") != "", Ask: a.zenity != ""}
	switch {
	case !c.Notify && !c.Ask:
		c.Why = "no D-Bus session bus for notifications and no zenity for dialogs"
	case !c.Notify:
		c.Why = "no D-Bus session bus for notifications"
	case !c.Ask:
		c.Why = "dialogs need zenity, which is not installed"
	}
	return c
}

// Notify sends the notification over D-Bus through beeep, or through the
// adapter's own call when ViaBeeep is false (see the package doc and
// NotifyArgs).
func (a *Adapter) Notify(ctx context.Context, req core.NotifyRequest) error {
	return notify(ctx, req)
}

// Ask shows a zenity dialog (see ZenityCommand). Without zenity it returns an
// error wrapping errors.ErrUnsupported.
func (a *Adapter) Ask(ctx context.Context, req core.AskRequest) (core.AskResult, error) {
	if a.zenity == "" {
		if err := req.Validate(); err != nil {
			return core.AskResult{}, err
		}
		return core.AskResult{}, fmt.Errorf("dialogs on Linux need zenity on PATH (apt-get install zenity): %w", errUnsupported)
	}
	return ask(ctx, a.zenity, req)
}
