// Package notification provides the reference notification tools (docs/tools.md):
// notification.show shows a native notification and notification.confirm
// asks the local user a question in a native dialog. Both are typed tools
// (tool.NewTyped) that reach the OS only through a platform.Adapter.
//
//	reg := tool.NewRegistry()
//	if err := notification.Register(reg, platform.Default()); err != nil { … }
//
// Register checks the generated schemas against the checked-in pins.json
// and fails on drift. To release a schema change, bump Version and run
// `go test ./tools/notification -run TestPins -update-pins`, which adds the
// new version's pin and refuses to rewrite an existing one.
package notification

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/platform"
)

// Tool names and the version of both tools.
const (
	ShowName    = "notification.show"
	ConfirmName = "notification.confirm"
	Version     = "1.0.0"
)

// Schema bounds, in Unicode code points (JSON Schema maxLength). Each bound
// times 4 bytes stays within the platform's byte bounds, so schema-valid text
// never fails platform validation for its length.
const (
	MaxTitle    = 256  // notification title
	MaxBody     = 4096 // notification body and question
	MaxLabel    = 32   // each button label
	MaxTimeout  = 60   // seconds: under the 75 s call bound of docs/limits.md
	DefTimeout  = 60   // seconds
	NoAnswer    = "no_answer"
	PinFileName = "pins.json"
)

//go:embed pins.json
var pinFile []byte

// Pins returns the checked-in pin file.
func Pins() (tool.Pins, error) {
	p, err := tool.LoadPins(pinFile)
	if err != nil {
		return tool.Pins{}, fmt.Errorf("tools/notification/%s: %w", PinFileName, err)
	}
	p.Source = "tools/notification/" + PinFileName
	return p, nil
}

// Tools returns notification.show and notification.confirm on adapter a,
// without checking pins.
func Tools(a platform.Adapter) ([]*Pinned, error) {
	if a == nil {
		return nil, errors.New("notification tools: the platform adapter is nil; pass platform.Default()")
	}
	show, err := newShow(a)
	if err != nil {
		return nil, err
	}
	confirm, err := newConfirm(a)
	if err != nil {
		return nil, err
	}
	return []*Pinned{show, confirm}, nil
}

// Register adds both tools to reg after checking their schema digests
// against pins.json: drift fails startup with the tool, version and both
// digests.
func Register(reg *tool.Registry, a platform.Adapter) error {
	ts, err := Tools(a)
	if err != nil {
		return err
	}
	pins, err := Pins()
	if err != nil {
		return err
	}
	for _, t := range ts {
		if err := pins.Check(t); err != nil {
			return err
		}
	}
	for _, t := range ts {
		if err := reg.Register(t); err != nil {
			return err
		}
	}
	return nil
}

// Pinned is a notification tool: a tool.Tool with schema digests and the
// ModelContext hook.
type Pinned struct {
	tool.Tool
	tool.Pinned
	adapter platform.Adapter
}

// Descriptor resolves the ambiguity between the embedded interfaces.
func (p *Pinned) Descriptor() tool.Descriptor { return p.Tool.Descriptor() }

// ModelContext reports whether notifications and dialogs work on this OS,
// e.g. {"notifications":true,"dialogs":false,"why":"dialogs need zenity…"}.
// It only reads the adapter's cached capabilities, so it never blocks.
func (p *Pinned) ModelContext(string) json.RawMessage {
	data, _ := json.Marshal(p.adapter.Capabilities())
	return data
}

var _ tool.ModelContexter = (*Pinned)(nil)

// toolError turns an adapter error into the model-facing error.
func toolError(name string, err error) error {
	switch {
	case errors.Is(err, platform.ErrInvalid):
		return tool.Errorf("invalid_arguments", "%s: %v", name, err)
	case errors.Is(err, errors.ErrUnsupported):
		return tool.Errorf("unsupported", "%s is not available on this computer: %v", name, err)
	default:
		return tool.Errorf("platform_error", "%s failed: %v", name, err)
	}
}
