package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
)

// Pin records the schema digests of one version of one tool (docs/partner-tools.md).
type Pin struct {
	Version string `json:"version"`
	Input   string `json:"input"`            // "sha256:<hex>" of the canonical input schema
	Output  string `json:"output,omitempty"` // "sha256:<hex>" of the canonical output schema; "" when none
}

// Pins is a checked-in pin file: for each qualified tool name, one pin per
// released version. The JSON form is
//
//	{"tools": {"notification.show": [{"version": "1.0.0", "input": "sha256:…", "output": "sha256:…"}]}}
//
// Pins of older versions stay in the file forever; only the pin of the
// version a tool now declares is checked. The zero value is an empty file.
type Pins struct {
	Tools map[string][]Pin `json:"tools"`
	// Source names the file in errors (set by LoadPinsFS); may be empty.
	Source string `json:"-"`
}

// Pinned is what Check needs of a tool; *Typed implements it.
type Pinned interface {
	Descriptor() Descriptor
	InputDigest() string
	OutputDigest() string
}

// LoadPins parses a pin file. It refuses unknown fields, a malformed digest,
// an empty version and two pins for the same version of a tool.
func LoadPins(data []byte) (Pins, error) {
	var p Pins
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Pins{}, fmt.Errorf("pin file: %w; want {\"tools\": {\"ns.tool\": [{\"version\": …, \"input\": \"sha256:…\", \"output\": \"sha256:…\"}]}}", err)
	}
	for name, list := range p.Tools {
		seen := map[string]bool{}
		for i, pin := range list {
			if pin.Version == "" {
				return Pins{}, fmt.Errorf("pin file: tools[%q][%d] has no version", name, i)
			}
			if seen[pin.Version] {
				return Pins{}, fmt.Errorf("pin file: tool %q has two pins for version %s; keep exactly one pin per version", name, pin.Version)
			}
			seen[pin.Version] = true
			if !validDigest(pin.Input) || pin.Output != "" && !validDigest(pin.Output) {
				return Pins{}, fmt.Errorf("pin file: tool %q version %s: digests must be written \"sha256:\" and 64 lowercase hex digits", name, pin.Version)
			}
		}
	}
	return p, nil
}

// LoadPinsFS reads and parses the pin file name in fsys (for example an
// embed.FS); errors name the file.
func LoadPinsFS(fsys fs.FS, name string) (Pins, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return Pins{}, err
	}
	p, err := LoadPins(data)
	if err != nil {
		return Pins{}, fmt.Errorf("%s: %w", name, err)
	}
	p.Source = name
	return p, nil
}

func validDigest(d string) bool {
	const prefix = "sha256:"
	if len(d) != len(prefix)+64 || d[:len(prefix)] != prefix {
		return false
	}
	for _, c := range d[len(prefix):] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

func (p Pins) where() string {
	if p.Source == "" {
		return "the pin file"
	}
	return p.Source
}

// Lookup returns the pin of one version of a tool.
func (p Pins) Lookup(name, version string) (Pin, bool) {
	for _, pin := range p.Tools[name] {
		if pin.Version == version {
			return pin, true
		}
	}
	return Pin{}, false
}

// Check compares the generated schema digests of t with the pin of the
// version t declares. A missing pin is an error giving the pin to add; a
// mismatch (schema drift) is an error naming the tool, the version and both
// digests, with the fix: bump the tool version and add a new pin; never
// rewrite an old pin.
func (p Pins) Check(t Pinned) error {
	d := t.Descriptor()
	want, ok := p.Lookup(d.Name, d.Version)
	if !ok {
		return fmt.Errorf("tool %s version %s has no schema pin in %s; add {\"version\": %q, \"input\": %q, \"output\": %q} under tools[%q] (a new version gets a new pin; old pins stay)",
			d.Name, d.Version, p.where(), d.Version, t.InputDigest(), t.OutputDigest(), d.Name)
	}
	var drift []string
	if want.Input != t.InputDigest() {
		drift = append(drift, fmt.Sprintf("input schema is %s but pinned %s", t.InputDigest(), want.Input))
	}
	if want.Output != t.OutputDigest() {
		drift = append(drift, fmt.Sprintf("output schema is %s but pinned %s", t.OutputDigest(), want.Output))
	}
	if len(drift) == 0 {
		return nil
	}
	return fmt.Errorf("schema drift in tool %s version %s (%s): %s; bump the tool version and add a new pin; never rewrite an old pin",
		d.Name, d.Version, p.where(), strings.Join(drift, "; "))
}

// Add records the pin of t's current version, for tools that regenerate pin
// files. Adding a version that is already pinned with the same digests does
// nothing; with different digests it is an error, because an old pin is never
// rewritten.
func (p *Pins) Add(t Pinned) error {
	d := t.Descriptor()
	pin := Pin{Version: d.Version, Input: t.InputDigest(), Output: t.OutputDigest()}
	if old, ok := p.Lookup(d.Name, d.Version); ok {
		if old == pin {
			return nil
		}
		return fmt.Errorf("tool %s version %s is already pinned with other digests in %s; refusing to rewrite an old pin: bump the tool version instead", d.Name, d.Version, p.where())
	}
	if p.Tools == nil {
		p.Tools = map[string][]Pin{}
	}
	p.Tools[d.Name] = append(p.Tools[d.Name], pin)
	return nil
}

// Marshal returns the pin file as indented JSON with tools in name order and
// pins in the order they were added, ending in a newline.
func (p Pins) Marshal() ([]byte, error) {
	names := make([]string, 0, len(p.Tools))
	for n := range p.Tools {
		names = append(names, n)
	}
	sort.Strings(names)
	var b bytes.Buffer
	b.WriteString("{\n  \"tools\": {")
	for i, n := range names {
		if i > 0 {
			b.WriteString(",")
		}
		key, _ := json.Marshal(n)
		list, err := json.MarshalIndent(p.Tools[n], "    ", "  ")
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n    %s: %s", key, list)
	}
	b.WriteString("\n  }\n}\n")
	return b.Bytes(), nil
}
