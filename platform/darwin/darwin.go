// Package darwin is the macOS platform adapter (docs/platform.md): notifications and
// dialogs through /usr/bin/osascript.
//
// Every string of a request is passed to osascript as a separate argv item
// and read by a fixed `on run argv` AppleScript; no supplied text is ever
// spliced into AppleScript source, so no text can run code. The argv starts
// with the fixed word "openworker" after the -e lines: osascript stops looking
// for options at the first non-option argument, so a message that begins with
// "-e" stays data. DialogCommand and NotifyCommand return the exact argv for
// golden tests.
//
// The package compiles on every OS; elsewhere than macOS an adapter without
// a replacement Program returns errors wrapping errors.ErrUnsupported. It
// uses no cgo.
package darwin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

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

// Options configure an Adapter. The zero value is the real macOS adapter.
type Options struct {
	// Program replaces /usr/bin/osascript (tests use a fake). When set, the
	// adapter runs on any OS.
	Program string
}

// Adapter is the macOS adapter. It is safe for concurrent use.
type Adapter struct {
	program string
	enabled bool
}

// New returns the macOS adapter; opts may be nil.
func New(opts *Options) *Adapter {
	a := &Adapter{program: Osascript, enabled: supported}
	if opts != nil && opts.Program != "" {
		a.program, a.enabled = opts.Program, true
	}
	return a
}

var errNotMac = fmt.Errorf("the osascript adapter works only on macOS: %w", errors.ErrUnsupported)

// Capabilities implements platform.Adapter.
func (a *Adapter) Capabilities() core.Capabilities {
	if !a.enabled {
		return core.Capabilities{Why: "osascript dialogs and notifications exist only on macOS"}
	}
	return core.Capabilities{Notify: true, Ask: true}
}

// Notify shows a notification with `display notification`.
func (a *Adapter) Notify(ctx context.Context, req core.NotifyRequest) error {
	argv, err := NotifyCommand(req)
	if err != nil {
		return err
	}
	if !a.enabled {
		return errNotMac
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
