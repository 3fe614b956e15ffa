// Package core holds the request types and validation shared by every
// platform adapter. Package platform re-exports them; adapters import this
// package so that platform can choose among them without an import cycle.
package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Bounds of every request, checked by Validate before any OS call. They are
// in bytes of UTF-8 and leave room for the schema bounds of the notification
// tools (which count code points).
const (
	MaxTitleBytes   = 1 << 10  // notification and dialog titles
	MaxMessageBytes = 16 << 10 // notification body and dialog message
	MaxButtonBytes  = 128      // each button label
	MaxButtons      = 3        // a dialog has 1 to 3 buttons
	MaxIconBytes    = 4 << 10  // notification icon path
	MinTimeout      = time.Second
	MaxTimeout      = time.Hour
)

// ErrInvalid is wrapped by every validation error.
var ErrInvalid = errors.New("invalid platform request")

// Icon is the icon of a dialog.
type Icon string

// Dialog icons. The zero value means IconInfo.
const (
	IconInfo    Icon = "info"
	IconWarning Icon = "warning"
	IconError   Icon = "error"
)

// NotifyRequest is a native notification. Title and Body are plain text (never
// markup, never code); at least one is non-empty. Icon is an optional path to
// an image file; adapters that cannot show it ignore it.
type NotifyRequest struct {
	Title string
	Body  string
	Icon  string
}

// AskRequest is a modal question with 1 to 3 buttons.
//
// Title and Message are plain text. Buttons are distinct, non-empty,
// single-line labels in the order they should appear. Default is the button
// Return presses (empty means Buttons[0]); Cancel, when set, is the button
// Escape or closing the dialog means. Timeout (1 s to 1 h) bounds the wait;
// after it the dialog closes and AskResult.TimedOut is true.
type AskRequest struct {
	Title   string
	Message string
	Buttons []string
	Default string
	Cancel  string
	Timeout time.Duration
	Icon    Icon
}

// AskResult is the answer to an AskRequest: the label of the pressed button
// (one of the request's Buttons), or TimedOut with an empty Button.
type AskResult struct {
	Button   string
	TimedOut bool
}

// Capabilities says what an adapter can do on this machine; Why explains a
// missing capability in a sentence safe to show the model.
type Capabilities struct {
	Notify bool   `json:"notifications"`
	Ask    bool   `json:"dialogs"`
	Why    string `json:"why,omitempty"`
}

// Adapter shows notifications and dialogs. Implementations are safe for
// concurrent use; Ask returns ctx.Err() promptly when ctx is cancelled and
// closes its dialog.
type Adapter interface {
	Notify(ctx context.Context, req NotifyRequest) error
	Ask(ctx context.Context, req AskRequest) (AskResult, error)
	Capabilities() Capabilities
}

// CheckText checks one string field: valid UTF-8, no NUL byte, at most max
// bytes. The error names the field and the offset.
func CheckText(field, s string, max int) error {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return fmt.Errorf("%w: %s contains a NUL byte at offset %d; NUL cannot be passed to the operating system, remove it", ErrInvalid, field, i)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%w: %s is not valid UTF-8", ErrInvalid, field)
	}
	if len(s) > max {
		return fmt.Errorf("%w: %s is %d bytes; the limit is %d bytes", ErrInvalid, field, len(s), max)
	}
	return nil
}

// Validate checks a notification request against the bounds above.
func (r NotifyRequest) Validate() error {
	if err := CheckText("notification title", r.Title, MaxTitleBytes); err != nil {
		return err
	}
	if err := CheckText("notification body", r.Body, MaxMessageBytes); err != nil {
		return err
	}
	if err := CheckText("notification icon", r.Icon, MaxIconBytes); err != nil {
		return err
	}
	if r.Title == "" && r.Body == "" {
		return fmt.Errorf("%w: a notification needs a title or a body", ErrInvalid)
	}
	return nil
}

// Validate checks a dialog request against the bounds above.
func (r AskRequest) Validate() error {
	_, err := r.Normalize()
	return err
}

// Normalize validates r and returns it with Default and Icon filled in
// (Buttons[0] and IconInfo when empty). Adapters build their OS calls from
// the normalized request only.
func (r AskRequest) Normalize() (AskRequest, error) {
	if err := CheckText("dialog title", r.Title, MaxTitleBytes); err != nil {
		return r, err
	}
	if err := CheckText("dialog message", r.Message, MaxMessageBytes); err != nil {
		return r, err
	}
	seen, err := checkButtons(r.Buttons)
	if err != nil {
		return r, err
	}
	if r.Default == "" {
		r.Default = r.Buttons[0]
	}
	if !seen[r.Default] {
		return r, fmt.Errorf("%w: default button %q is not one of the buttons %q", ErrInvalid, r.Default, r.Buttons)
	}
	if r.Cancel != "" && !seen[r.Cancel] {
		return r, fmt.Errorf("%w: cancel button %q is not one of the buttons %q", ErrInvalid, r.Cancel, r.Buttons)
	}
	if r.Timeout < MinTimeout || r.Timeout > MaxTimeout {
		return r, fmt.Errorf("%w: dialog timeout %v is outside %v to %v", ErrInvalid, r.Timeout, MinTimeout, MaxTimeout)
	}
	switch r.Icon {
	case "":
		r.Icon = IconInfo
	case IconInfo, IconWarning, IconError:
	default:
		return r, fmt.Errorf("%w: unknown dialog icon %q; use info, warning or error", ErrInvalid, r.Icon)
	}
	r.Buttons = append([]string(nil), r.Buttons...)
	return r, nil
}

// checkButtons checks the number of buttons and each label (bounded,
// visible, one line, distinct) and returns the set of labels.
func checkButtons(buttons []string) (map[string]bool, error) {
	if n := len(buttons); n < 1 || n > MaxButtons {
		return nil, fmt.Errorf("%w: a dialog has 1 to %d buttons, not %d", ErrInvalid, MaxButtons, n)
	}
	seen := map[string]bool{}
	for i, b := range buttons {
		field := fmt.Sprintf("button %d", i+1)
		if err := CheckText(field, b, MaxButtonBytes); err != nil {
			return nil, err
		}
		if strings.TrimSpace(b) == "" {
			return nil, fmt.Errorf("%w: %s is empty; every button needs a visible label", ErrInvalid, field)
		}
		if strings.IndexFunc(b, unicode.IsControl) >= 0 {
			return nil, fmt.Errorf("%w: %s %q contains a control character such as a newline; a label is one line", ErrInvalid, field, b)
		}
		if seen[b] {
			return nil, fmt.Errorf("%w: button %q appears twice; labels must be distinct", ErrInvalid, b)
		}
		seen[b] = true
	}
	return seen, nil
}

// TimeoutSeconds returns the timeout rounded up to whole seconds, as the OS
// dialogs take it.
func (r AskRequest) TimeoutSeconds() int {
	return int((r.Timeout + time.Second - 1) / time.Second)
}

// Unsupported is an Adapter that can do nothing; every call returns an error
// wrapping errors.ErrUnsupported with Why.
type Unsupported struct{ Why string }

func (u Unsupported) err() error {
	return fmt.Errorf("%s: %w", u.Why, errors.ErrUnsupported)
}

// Notify implements Adapter.
func (u Unsupported) Notify(context.Context, NotifyRequest) error { return u.err() }

// Ask implements Adapter.
func (u Unsupported) Ask(context.Context, AskRequest) (AskResult, error) { return AskResult{}, u.err() }

// Capabilities implements Adapter.
func (u Unsupported) Capabilities() Capabilities { return Capabilities{Why: u.Why} }
