package tool

import (
	"encoding/json"
	"fmt"
)

// Risk declares the effect a call may have (docs/partner-tools.md). It decides, among other
// things, whether an interrupted call ends as "failed" (read-only) or as
// "unknown" (a write whose outcome needs reconciliation, docs/journal.md).
type Risk string

const (
	// ReadOnly calls observe and never change anything.
	ReadOnly Risk = "read_only"
	// IdempotentWrite calls change state, and repeating one has no further effect.
	IdempotentWrite Risk = "idempotent_write"
	// NonIdempotentWrite calls change state, and repeating one changes it again.
	NonIdempotentWrite Risk = "non_idempotent_write"
)

// Cancellation declares whether a call returns promptly when its context is
// cancelled.
type Cancellation string

const (
	// Cooperative tools watch ctx and return promptly when it is done.
	Cooperative Cancellation = "cooperative"
	// Unsupported tools cannot stop once started; the harness abandons them.
	Unsupported Cancellation = "unsupported"
)

// Classification is the trust class of a tool (docs/consent.md). Every tool is
// External unless it declares otherwise; the class never sandboxes host code.
type Classification string

const (
	// External tools reach outside the app (the default).
	External Classification = "External"
	// Internal tools touch only the app's own state.
	Internal Classification = "Internal"
)

// Descriptor is what the harness, the user and the model know of a tool.
//
// Name is the qualified name "namespace.tool" (docs/registry.md). InputSchema is a JSON
// Schema 2020-12 document whose root is an object; OutputSchema is optional.
// Version is the semver of the implementation: bump it whenever behaviour or a
// schema changes. Zero Risk, Cancellation and Classification mean
// NonIdempotentWrite, Cooperative and External: the cautious defaults.
type Descriptor struct {
	Name           string          `json:"name"`
	Description    string          `json:"description"`
	InputSchema    json.RawMessage `json:"input_schema"`
	OutputSchema   json.RawMessage `json:"output_schema,omitempty"`
	Version        string          `json:"version"`
	Risk           Risk            `json:"risk"`
	Cancellation   Cancellation    `json:"cancellation"`
	Classification Classification  `json:"classification"`
	// UI is the tool's MCP Apps view (docs/mcp-apps.md#resources); nil when it has
	// none. It is left out of the JSON when nil, so a descriptor without a view
	// keeps its digest; a changed URI or visibility changes the pin.
	UI *UIRef `json:"ui,omitempty"`
}

// UIRef names the ui:// resource a tool's result is shown with
// (docs/mcp-apps.md#resources). Visibility lists who may call the tool:
// "model" (offered to the model) and "app" (callable from its server's views);
// empty means both.
type UIRef struct {
	ResourceURI string   `json:"resource_uri"`
	Visibility  []string `json:"visibility,omitempty"`
}

// Visibility values of UIRef (docs/mcp-apps.md#view-calls).
const (
	VisibleToModel = "model"
	VisibleToApp   = "app"
)

// VisibleTo reports whether who ("model" or "app") may call a tool with this
// UI; a nil UIRef or an empty Visibility allows both.
func (u *UIRef) VisibleTo(who string) bool {
	if u == nil || len(u.Visibility) == 0 {
		return true
	}
	for _, v := range u.Visibility {
		if v == who {
			return true
		}
	}
	return false
}

// WithDefaults returns d with the zero effect declarations replaced by their
// cautious defaults (NonIdempotentWrite, Cooperative, External) and an empty
// input schema replaced by an empty object schema.
func (d Descriptor) WithDefaults() Descriptor {
	if d.Risk == "" {
		d.Risk = NonIdempotentWrite
	}
	if d.Cancellation == "" {
		d.Cancellation = Cooperative
	}
	if d.Classification == "" {
		d.Classification = External
	}
	if len(d.InputSchema) == 0 {
		d.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	return d
}

// Validate checks the descriptor's own fields: the name rules of docs/registry.md, an
// object-root input schema, a version, and known effect declarations.
func (d Descriptor) Validate() error {
	if _, _, err := SplitName(d.Name); err != nil {
		return err
	}
	if err := CheckNativeName(d.Name); err != nil {
		return err
	}
	if d.Version == "" {
		return fmt.Errorf("tool %q: Version is empty; set the semver of the implementation, e.g. \"1.0.0\"", d.Name)
	}
	switch d.Risk {
	case "", ReadOnly, IdempotentWrite, NonIdempotentWrite:
	default:
		return fmt.Errorf("tool %q: unknown Risk %q; use read_only, idempotent_write or non_idempotent_write", d.Name, d.Risk)
	}
	switch d.Cancellation {
	case "", Cooperative, Unsupported:
	default:
		return fmt.Errorf("tool %q: unknown Cancellation %q; use cooperative or unsupported", d.Name, d.Cancellation)
	}
	switch d.Classification {
	case "", External, Internal:
	default:
		return fmt.Errorf("tool %q: unknown Classification %q; use External or Internal", d.Name, d.Classification)
	}
	if len(d.InputSchema) > 0 {
		var root map[string]any
		if err := json.Unmarshal(d.InputSchema, &root); err != nil {
			return fmt.Errorf("tool %q: InputSchema is not a JSON object: %v", d.Name, err)
		}
		if t, ok := root["type"]; ok && t != "object" {
			return fmt.Errorf("tool %q: InputSchema root has type %v; the root must be \"object\"", d.Name, t)
		}
	}
	return nil
}
