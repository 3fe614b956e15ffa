// Package windows is the Windows platform adapter (docs/platform.md): dialogs through
// user32 MessageBoxTimeoutW / MessageBoxW and toast notifications through the
// Windows Runtime.
//
// Text is passed to Win32 as UTF-16 data and to the toast XML only after XML
// escaping, so no text can become code. The adapter never starts a child
// process, so no console window can flash.
//
// # Buttons
//
// MessageBoxW shows only stock buttons. Labels that form a stock set (OK;
// OK, Cancel; Yes, No; Yes, No, Cancel; Retry, Cancel) use it directly.
// Otherwise the labels are mapped in request order onto stock buttons (1: OK;
// 2: Yes/No, or OK/Cancel when a cancel label is set; 3: Abort/Retry/Ignore,
// or Yes/No/Cancel when a cancel label is set) and a legend naming the labels
// from left to right is appended to the message. Ask returns our label,
// never the stock name. Closing the box or Escape answers the cancel label
// where the stock set has a Cancel button.
//
// # Timeout
//
// MessageBoxTimeoutW is undocumented but exported by user32.dll since
// Windows XP and used widely; it returns 32000 on timeout. If it is missing
// the adapter falls back to MessageBoxW and relies on ctx for the bound.
//
// # Toasts
//
// Windows is the one OS where notifications do not go through
// github.com/gen2brain/beeep (docs/platform.md). beeep.Notify on Windows
// 10/11 builds a git.sr.ht/~jackmordaunt/go-toast Notification, whose Push
// renders title and body into CDATA with text/template (a "]]>" in the
// text ends the CDATA section) and calls wintoast.Push with wintoast.PowershellFallback: when
// the COM call fails, the XML is written into a PowerShell script inside an
// expanding here-string (@"…"@), where "$( )" in model text would be
// evaluated. So the adapter builds the toast XML itself (ToastXML,
// encoding/xml escaping) and pushes it with go-toast's wintoast package over
// COM only: wintoast.Push(xml) with no option never runs PowerShell (read
// in go-toast v1.1.2, wintoast/bind.go), and no platform package imports
// beeep or go-toast's root package on Windows (TestToastNeverReachesPowerShell).
//
// The package compiles on every OS; elsewhere Notify and Ask return errors
// wrapping errors.ErrUnsupported.
package windows

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/openworker/desktop/platform/internal/core"
)

// MessageBox type flags and return values (winuser.h).
const (
	MB_OK               = 0x0
	MB_OKCANCEL         = 0x1
	MB_ABORTRETRYIGNORE = 0x2
	MB_YESNOCANCEL      = 0x3
	MB_YESNO            = 0x4
	MB_RETRYCANCEL      = 0x5
	MB_ICONERROR        = 0x10
	MB_ICONWARNING      = 0x30
	MB_ICONINFORMATION  = 0x40
	MB_DEFBUTTON2       = 0x100
	MB_DEFBUTTON3       = 0x200
	MB_SETFOREGROUND    = 0x10000
	MB_TOPMOST          = 0x40000
	IDOK                = 1
	IDCANCEL            = 2
	IDABORT             = 3
	IDRETRY             = 4
	IDIGNORE            = 5
	IDYES               = 6
	IDNO                = 7
	MessageBoxTimedOut  = 32000
	DefaultCaption      = "OpenWorker"
	AppID               = "OpenWorker"
)

// MessageBoxSpec is the exact input of one MessageBoxTimeoutW call.
type MessageBoxSpec struct {
	Caption   string         `json:"caption"`
	Text      string         `json:"text"`
	Type      uint32         `json:"type"`
	Buttons   map[int]string `json:"buttons"` // stock button id → our label
	Order     []int          `json:"order"`   // stock ids from left to right
	TimeoutMS uint32         `json:"timeout_ms"`
}

type stockSet struct {
	typ   uint32
	ids   []int
	names []string
}

var stockSets = []stockSet{
	{MB_OK, []int{IDOK}, []string{"OK"}},
	{MB_OKCANCEL, []int{IDOK, IDCANCEL}, []string{"OK", "Cancel"}},
	{MB_YESNO, []int{IDYES, IDNO}, []string{"Yes", "No"}},
	{MB_YESNOCANCEL, []int{IDYES, IDNO, IDCANCEL}, []string{"Yes", "No", "Cancel"}},
	{MB_RETRYCANCEL, []int{IDRETRY, IDCANCEL}, []string{"Retry", "Cancel"}},
}

// MessageBoxParams returns the exact MessageBox call Ask makes for req, after
// validating it; see the package doc for the button mapping.
func MessageBoxParams(req core.AskRequest) (MessageBoxSpec, error) {
	r, err := req.Normalize()
	if err != nil {
		return MessageBoxSpec{}, err
	}
	s := MessageBoxSpec{Caption: r.Title, Text: r.Message, Buttons: map[int]string{}, TimeoutMS: uint32(r.Timeout.Milliseconds())}
	if s.Caption == "" {
		s.Caption = DefaultCaption
	}
	var labels []string // in stock order
	if set, ok := stockMatch(r); ok {
		s.Type = set.typ
		s.Order = set.ids
		labels = set.names
	} else {
		labels = slices.Clone(r.Buttons)
		if r.Cancel != "" && len(labels) > 1 {
			labels = slices.DeleteFunc(labels, func(b string) bool { return b == r.Cancel })
			labels = append(labels, r.Cancel)
		}
		switch {
		case len(labels) == 1:
			s.Type, s.Order = MB_OK, []int{IDOK}
		case len(labels) == 2 && r.Cancel != "":
			s.Type, s.Order = MB_OKCANCEL, []int{IDOK, IDCANCEL}
		case len(labels) == 2:
			s.Type, s.Order = MB_YESNO, []int{IDYES, IDNO}
		case r.Cancel != "":
			s.Type, s.Order = MB_YESNOCANCEL, []int{IDYES, IDNO, IDCANCEL}
		default:
			s.Type, s.Order = MB_ABORTRETRYIGNORE, []int{IDABORT, IDRETRY, IDIGNORE}
		}
		var legend strings.Builder
		legend.WriteString("\n\nButtons, from left to right:")
		for i, l := range labels {
			fmt.Fprintf(&legend, "\n%d. %s", i+1, l)
		}
		s.Text += legend.String()
	}
	for i, id := range s.Order {
		s.Buttons[id] = labels[i]
	}
	switch slices.Index(labels, r.Default) {
	case 1:
		s.Type |= MB_DEFBUTTON2
	case 2:
		s.Type |= MB_DEFBUTTON3
	}
	s.Type |= map[core.Icon]uint32{core.IconInfo: MB_ICONINFORMATION, core.IconWarning: MB_ICONWARNING, core.IconError: MB_ICONERROR}[r.Icon]
	s.Type |= MB_SETFOREGROUND | MB_TOPMOST
	return s, nil
}

// stockMatch reports whether the labels are exactly a stock set (in any
// order) and the cancel label, if any, is its Cancel button.
func stockMatch(r core.AskRequest) (stockSet, bool) {
	for _, set := range stockSets {
		if len(set.names) != len(r.Buttons) {
			continue
		}
		a, b := slices.Clone(set.names), slices.Clone(r.Buttons)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			continue
		}
		if r.Cancel != "" && r.Cancel != "Cancel" {
			return stockSet{}, false
		}
		return set, true
	}
	return stockSet{}, false
}

// Result maps the return value of MessageBoxTimeoutW to our answer.
func (s MessageBoxSpec) Result(ret int) (core.AskResult, error) {
	if ret == MessageBoxTimedOut {
		return core.AskResult{TimedOut: true}, nil
	}
	if l, ok := s.Buttons[ret]; ok {
		return core.AskResult{Button: l}, nil
	}
	return core.AskResult{}, fmt.Errorf("MessageBox returned %d, which is not one of its buttons", ret)
}

// ToastXML returns the toast XML document Notify pushes: a ToastGeneric
// binding with the title and body as escaped text nodes, the icon (if any)
// as an escaped attribute, and no audio. Characters XML 1.0 cannot hold are
// replaced by U+FFFD.
func ToastXML(req core.NotifyRequest) (string, error) {
	if err := req.Validate(); err != nil {
		return "", err
	}
	var b bytes.Buffer
	esc := func(s string) { _ = xml.EscapeText(&b, []byte(s)) }
	b.WriteString(`<toast duration="short"><visual><binding template="ToastGeneric">`)
	if req.Icon != "" {
		b.WriteString(`<image placement="appLogoOverride" src="`)
		esc(req.Icon)
		b.WriteString(`"/>`)
	}
	for _, t := range []string{req.Title, req.Body} {
		if t == "" {
			continue
		}
		b.WriteString(`<text>`)
		esc(t)
		b.WriteString(`</text>`)
	}
	b.WriteString(`</binding></visual><audio silent="true"/></toast>`)
	return b.String(), nil
}

// Adapter is the Windows adapter. It is safe for concurrent use.
type Adapter struct{}

// New returns the Windows adapter.
func New() *Adapter { return &Adapter{} }

var errNotWindows = fmt.Errorf("MessageBoxW dialogs and toasts work only on Windows: %w", errors.ErrUnsupported)

// Capabilities implements platform.Adapter.
func (a *Adapter) Capabilities() core.Capabilities {
	if !supported {
		return core.Capabilities{Why: "MessageBoxW dialogs and toasts exist only on Windows"}
	}
	return core.Capabilities{Notify: true, Ask: true}
}

// Notify pushes a toast built by ToastXML.
func (a *Adapter) Notify(ctx context.Context, req core.NotifyRequest) error {
	doc, err := ToastXML(req)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return pushToast(doc)
}

// Ask shows a message box built by MessageBoxParams and waits for it.
// Cancelling ctx presses the box's default-safe button (its cancel, else
// its last button) to close it and returns ctx.Err().
func (a *Adapter) Ask(ctx context.Context, req core.AskRequest) (core.AskResult, error) {
	spec, err := MessageBoxParams(req)
	if err != nil {
		return core.AskResult{}, err
	}
	ret, err := showMessageBox(ctx, spec)
	if err != nil {
		return core.AskResult{}, err
	}
	return spec.Result(ret)
}

// closeID is the button pressed to close the box when ctx is cancelled.
func (s MessageBoxSpec) closeID() int {
	if _, ok := s.Buttons[IDCANCEL]; ok {
		return IDCANCEL
	}
	return s.Order[len(s.Order)-1]
}
