// Package darwin is the macOS platform adapter (docs/platform.md):
// notifications through UNUserNotificationCenter when the process is an
// .app allowed to use it (usercenter.go, docs/platform.md#macos-user-notifications),
// else through github.com/gen2brain/beeep (NSUserNotificationCenter,
// reached through purego without cgo), and dialogs, and the notifications
// beeep cannot carry safely, through /usr/bin/osascript.
//
// # Notifications
//
// Where the user notification center is not used, Notify calls beeep.Notify(title, body, icon) when ViaBeeep is true
// (docs/platform.md, "Notification back ends"); beeep reads the icon file
// into the notification's image. beeep delivers through the notification
// center and, when that fails (no
// delivery within 2 s), runs `osascript -e 'display notification %q with
// title %q'`: it splices the text into AppleScript source, quoted with Go's
// %q. Go and AppleScript agree on \", \\, \n, \r and \t, so a string
// made only of printable characters and those controls comes out exactly
// as it went in and cannot close the literal; but %q writes other
// characters (bidi and zero-width marks, other controls) as \u… or \x…
// escapes, which AppleScript does not read as Go does. ViaBeeep is false for
// such text: it never reaches beeep, and Notify shows it with the adapter's
// own argv script below, which is also what an adapter with a replacement
// Program (tests) uses for every notification.
//
// # Text is data
//
// Every string of a dialog, and of a notification not sent through beeep,
// is passed to osascript as a separate argv item
// and read by a fixed `on run argv` AppleScript; no supplied text is ever
// spliced into AppleScript source, so no text can run code. The argv starts
// with the fixed word "openworker" after the -e lines: osascript stops looking
// for options at the first non-option argument, so a message that begins with
// "-e" stays data. DialogCommand and NotifyCommand return the exact argv for
// golden tests.
//
// The package compiles on every OS; elsewhere than macOS an adapter without
// a replacement Program returns errors wrapping errors.ErrUnsupported. It
// uses no cgo (beeep's macOS code uses ebitengine/purego and builds with
// CGO_ENABLED=0).
package darwin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/openworker/desktop/platform/internal/core"
)

// Osascript is the program the adapter runs by default.
const Osascript = "/usr/bin/osascript"

// argvMarker is the first argument after the script: see the package doc.
const argvMarker = "openworker"

// dialogScript is the fixed AppleScript of Ask. Its arguments are: marker,
// message, title, give-up seconds, default button, cancel button ("" for
// none), icon number (0 stop, 1 note, 2 caution), then the 1–3 button labels.
// It prints "button\n<label>", "gave-up" or "canceled" (error -128: the
// cancel button, or a button named "Cancel", was pressed).
var dialogScript = []string{
	`on run argv`,
	`set {msg, ttl, giveUp, dflt, cncl, iconNum} to items 2 thru 7 of argv`,
	`set btns to items 8 thru -1 of argv`,
	`try`,
	`if cncl is "" then`,
	`set r to display dialog msg with title ttl buttons btns default button dflt with icon (iconNum as integer) giving up after (giveUp as integer)`,
	`else`,
	`set r to display dialog msg with title ttl buttons btns default button dflt cancel button cncl with icon (iconNum as integer) giving up after (giveUp as integer)`,
	`end if`,
	`on error number -128`,
	`return "canceled"`,
	`end try`,
	`if gave up of r then return "gave-up"`,
	`return "button" & linefeed & (button returned of r)`,
	`end run`,
}

// notifyScript is the fixed AppleScript of Notify: marker, body, title.
var notifyScript = []string{
	`on run argv`,
	`display notification (item 2 of argv) with title (item 3 of argv)`,
	`end run`,
}

// DefaultTitle is the dialog title when the request has none.
const DefaultTitle = "OpenWorker"

func command(script []string, args ...string) []string {
	argv := []string{Osascript}
	for _, line := range script {
		argv = append(argv, "-e", line)
	}
	argv = append(argv, argvMarker)
	return append(argv, args...)
}

// DialogCommand returns the exact osascript argv that Ask runs for req, after
// validating it (see platform.AskRequest).
func DialogCommand(req core.AskRequest) ([]string, error) {
	r, err := req.Normalize()
	if err != nil {
		return nil, err
	}
	title := r.Title
	if title == "" {
		title = DefaultTitle
	}
	icon := map[core.Icon]string{core.IconError: "0", core.IconInfo: "1", core.IconWarning: "2"}[r.Icon]
	args := []string{r.Message, title, strconv.Itoa(r.TimeoutSeconds()), r.Default, r.Cancel, icon}
	return command(dialogScript, append(args, r.Buttons...)...), nil
}

// NotifyCommand returns the exact osascript argv that Notify runs for req.
// macOS shows the icon of the calling app; req.Icon is ignored.
func NotifyCommand(req core.NotifyRequest) ([]string, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return command(notifyScript, req.Body, req.Title), nil
}

// ParseDialogOutput maps the standard output of the dialog script to a
// result. Only a label of req is accepted.
func ParseDialogOutput(req core.AskRequest, out string) (core.AskResult, error) {
	r, err := req.Normalize()
	if err != nil {
		return core.AskResult{}, err
	}
	out = strings.TrimSuffix(out, "\n")
	switch {
	case out == "gave-up":
		return core.AskResult{TimedOut: true}, nil
	case out == "canceled":
		if r.Cancel != "" {
			return core.AskResult{Button: r.Cancel}, nil
		}
		for _, b := range r.Buttons {
			if b == "Cancel" {
				return core.AskResult{Button: b}, nil
			}
		}
		return core.AskResult{}, errors.New("osascript reported a cancel but the dialog has no cancel button")
	case strings.HasPrefix(out, "button\n"):
		label := strings.TrimPrefix(out, "button\n")
		for _, b := range r.Buttons {
			if b == label {
				return core.AskResult{Button: b}, nil
			}
		}
		return core.AskResult{}, fmt.Errorf("osascript returned the unknown button %q", label)
	}
	return core.AskResult{}, fmt.Errorf("unexpected osascript output %q", clip(out))
}

// ViaBeeep reports whether Notify hands req to beeep: every character of
// its title and body is printable (strconv.IsPrint) or a newline, carriage
// return or tab, so that beeep's osascript fallback quotes it exactly (see
// the package doc). Invalid UTF-8 and NUL bytes are refused before this.
func ViaBeeep(req core.NotifyRequest) bool {
	for _, s := range []string{req.Title, req.Body} {
		for _, r := range s {
			if r == utf8.RuneError || !(strconv.IsPrint(r) || r == '\n' || r == '\r' || r == '\t') {
				return false
			}
		}
	}
	return true
}

// Options configure an Adapter. The zero value is the real macOS adapter.
type Options struct {
	// Program replaces /usr/bin/osascript (tests use a fake). When set, the
	// adapter runs on any OS, and notifications go through beeep only when
	// Beeep is set too.
	Program string
	// Beeep replaces beeep.Notify (tests record the call); it is used only
	// with Program.
	Beeep func(title, message string, icon any) error
	// Center replaces the user notification center (tests); with Program
	// and no Center the adapter has none.
	Center UserCenter
}

// Adapter is the macOS adapter. It is safe for concurrent use.
type Adapter struct {
	program string
	enabled bool
	beeep   func(title, message string, icon any) error // nil: every notification through osascript argv

	openCenter func() (UserCenter, error) // the user notification center, opened at the first notification
	centerOnce sync.Once
	center     *userNotifier // nil: none in this process (centerWhy says why)
	centerWhy  error
}

// New returns the macOS adapter; opts may be nil.
func New(opts *Options) *Adapter {
	a := &Adapter{program: Osascript, enabled: supported, beeep: beeepNotify, openCenter: openSystemCenter}
	if opts != nil && opts.Program != "" {
		a.program, a.enabled, a.beeep = opts.Program, true, opts.Beeep
		a.openCenter = func() (UserCenter, error) { return nil, errors.New("no user notification center in this test") }
	}
	if opts != nil && opts.Center != nil {
		a.openCenter = func() (UserCenter, error) { return opts.Center, nil }
	}
	return a
}

// userCenter returns the user notification center, opened once, or nil.
func (a *Adapter) userCenter() *userNotifier {
	a.centerOnce.Do(func() {
		c, err := a.openCenter()
		if err != nil {
			a.centerWhy = err
			return
		}
		a.center = notifierFor(c)
	})
	return a.center
}

// NotificationBackend names what carries the adapter's notifications now,
// for the Diagnostics report: the user notification center, or beeep and
// why not the center.
func (a *Adapter) NotificationBackend() string {
	if !a.enabled {
		return "none (not macOS)"
	}
	c := a.userCenter()
	if c == nil {
		return fmt.Sprintf("beeep (%v)", a.centerWhy)
	}
	if err := c.refused(); err != nil {
		return fmt.Sprintf("beeep (%v)", err)
	}
	return "UNUserNotificationCenter"
}

var errNotMac = fmt.Errorf("the osascript adapter works only on macOS: %w", errors.ErrUnsupported)

// Capabilities implements platform.Adapter.
func (a *Adapter) Capabilities() core.Capabilities {
	if !a.enabled {
		return core.Capabilities{Why: "osascript dialogs and notifications exist only on macOS"}
	}
	return core.Capabilities{Notify: true, Ask: true}
}

// Notify shows a notification through the user notification center when
// the app may use it (docs/platform.md#macos-user-notifications), else
// through beeep.Notify(req.Title, req.Body, req.Icon) when ViaBeeep(req),
// else with the NotifyCommand argv. beeep takes no context: when ctx ends
// first Notify returns ctx.Err() and leaves beeep's call (at most its 2 s
// delivery wait and the osascript fallback) behind.
func (a *Adapter) Notify(ctx context.Context, req core.NotifyRequest) error {
	return a.NotifyClick(ctx, req, nil)
}

// NotifyClick is Notify whose onClick (may be nil) runs once, in a
// goroutine of its own, when the person clicks the notification. Only the
// user notification center reports clicks: through beeep or osascript
// the notification shows and onClick never runs.
func (a *Adapter) NotifyClick(ctx context.Context, req core.NotifyRequest, onClick func()) error {
	argv, err := NotifyCommand(req)
	if err != nil {
		return err
	}
	if !a.enabled {
		return errNotMac
	}
	if c := a.userCenter(); c != nil {
		err := c.notify(ctx, req, onClick)
		if err == nil {
			return nil
		}
		if errors.Is(err, errHandedOver) {
			return ctx.Err()
		}
	}
	if a.beeep != nil && ViaBeeep(req) {
		done := make(chan error, 1)
		go func() { done <- a.beeep(req.Title, req.Body, req.Icon) }()
		select {
		case err := <-done:
			return err
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	_, err = a.run(ctx, argv)
	return err
}

// Ask shows a dialog with `display dialog … giving up after N` and waits for
// the answer. Cancelling ctx kills osascript, which closes the dialog, and
// returns ctx.Err().
func (a *Adapter) Ask(ctx context.Context, req core.AskRequest) (core.AskResult, error) {
	argv, err := DialogCommand(req)
	if err != nil {
		return core.AskResult{}, err
	}
	if !a.enabled {
		return core.AskResult{}, errNotMac
	}
	out, err := a.run(ctx, argv)
	if err != nil {
		return core.AskResult{}, err
	}
	return ParseDialogOutput(req, out)
}

func (a *Adapter) run(ctx context.Context, argv []string) (string, error) {
	cmd := exec.CommandContext(ctx, a.program, argv[1:]...)
	cmd.WaitDelay = 2 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ctx.Err() != nil {
		return "", ctx.Err()
	}
	if err != nil {
		return "", fmt.Errorf("osascript: %v: %s", err, clip(strings.TrimSpace(stderr.String())))
	}
	return stdout.String(), nil
}

func clip(s string) string {
	if len(s) > 512 {
		return strings.ToValidUTF8(s[:512], "") + "…"
	}
	return s
}
