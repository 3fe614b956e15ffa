// Package elicit is the form half of MCP elicitation (docs/mcp.md#elicitation):
// a server's requested schema parsed into a small flat form a host can
// show (Parse), the person's answer checked against that schema before it
// is sent (Form.Check), and the question and answer a host sees
// (Question, Answer). It knows no window and no terminal.
package elicit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Limits of a form (docs/mcp.md#elicitation): a requested schema over them
// is refused (declined, with the reason sent to the server and journaled).
const (
	MaxFields      = 20       // properties of one form
	MaxSchemaBytes = 64 << 10 // the requested schema as JSON
	MaxOptions     = 100      // choices of one enum or multi-select field
	MaxMessage     = 4 << 10  // bytes of the server's message; a longer one is cut with "…"
)

// Kind is the kind of a field.
type Kind string

// The kinds of a flat form field.
const (
	KindString  Kind = "string"  // Format: "", "email", "uri", "date" or "date-time"
	KindNumber  Kind = "number"  // Minimum, Maximum
	KindInteger Kind = "integer" // Minimum, Maximum
	KindBoolean Kind = "boolean"
	KindEnum    Kind = "enum"  // one of Options
	KindMulti   Kind = "multi" // a set of Options (a JSON array), MinItems..MaxItems of them
)

// Option is one choice of an enum or multi-select field: the value sent,
// and the title shown (the value itself when the schema gave none).
type Option struct {
	Value string `json:"value"`
	Title string `json:"title"`
}

// Field is one property of the requested schema, in the order the schema
// lists them. Pointers are nil when the schema sets no bound. Default is
// the schema's default as JSON (nil: none).
type Field struct {
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	Kind        Kind            `json:"kind"`
	Required    bool            `json:"required,omitempty"`
	Format      string          `json:"format,omitempty"`
	MinLength   *int            `json:"min_length,omitempty"`
	MaxLength   *int            `json:"max_length,omitempty"`
	Minimum     *float64        `json:"minimum,omitempty"`
	Maximum     *float64        `json:"maximum,omitempty"`
	Options     []Option        `json:"options,omitempty"`
	MinItems    *int            `json:"min_items,omitempty"`
	MaxItems    *int            `json:"max_items,omitempty"`
	Default     json.RawMessage `json:"default,omitempty"`
}

// Label is the field's title, or its name when it has none.
func (f Field) Label() string {
	if f.Title != "" {
		return f.Title
	}
	return f.Name
}

// Form is a parsed requested schema: its fields and the compiled schema
// that Check validates an answer against.
type Form struct {
	Fields []Field
	check  *checker
}

// Names returns the field names, in order (what the journal keeps).
func (f *Form) Names() []string {
	if f == nil {
		return []string{}
	}
	out := make([]string, len(f.Fields))
	for i, fd := range f.Fields {
		out[i] = fd.Name
	}
	return out
}

// prop is one property as the schema spells it.
type prop struct {
	Type        json.RawMessage            `json:"type"`
	Title       string                     `json:"title"`
	Description string                     `json:"description"`
	Format      string                     `json:"format"`
	MinLength   *int                       `json:"minLength"`
	MaxLength   *int                       `json:"maxLength"`
	Minimum     *float64                   `json:"minimum"`
	Maximum     *float64                   `json:"maximum"`
	Enum        []json.RawMessage          `json:"enum"`
	EnumNames   []string                   `json:"enumNames"`
	OneOf       []titled                   `json:"oneOf"`
	AnyOf       []titled                   `json:"anyOf"`
	Items       *prop                      `json:"items"`
	MinItems    *int                       `json:"minItems"`
	MaxItems    *int                       `json:"maxItems"`
	Default     json.RawMessage            `json:"default"`
	Properties  map[string]json.RawMessage `json:"properties"`
}

type titled struct {
	Const *string `json:"const"`
	Title string  `json:"title"`
}

// Parse reads a requested schema (MCP elicitation/create requestedSchema)
// into a Form. The schema must be a flat object: at most MaxFields
// properties, each a string (format email, uri, date or date-time,
// minLength, maxLength), number or integer (minimum, maximum), boolean,
// string enum (enum with optional enumNames, or oneOf of {const, title}),
// or multi-select (an array whose items are such an enum, minItems,
// maxItems); "required" names some of them; defaults are kept. Anything
// else (nested objects, other types, $ref, over MaxSchemaBytes) is an error
// that says which property and why, for example
//
//	property "address" has type "object"; a form field is a string, number, integer, boolean, enum or array of enum
func Parse(schema json.RawMessage) (*Form, error) {
	if len(schema) > MaxSchemaBytes {
		return nil, fmt.Errorf("the requested schema is %d bytes, over the limit of %d", len(schema), MaxSchemaBytes)
	}
	if len(bytes.TrimSpace(schema)) == 0 || string(bytes.TrimSpace(schema)) == "null" {
		schema = json.RawMessage(`{"type":"object","properties":{}}`)
	}
	names, props, order, err := parseRoot(schema)
	if err != nil {
		return nil, err
	}
	f := &Form{}
	for _, name := range names {
		fd, err := parseField(name, props[name])
		if err != nil {
			return nil, err
		}
		fd.Required = slices.Contains(order, name)
		f.Fields = append(f.Fields, fd)
	}
	// Required fields first, in the order "required" names them; then the
	// rest in the schema's order (an SDK that decoded the schema into a map
	// hands it over with its keys sorted).
	rank := func(fd Field) int {
		if i := slices.Index(order, fd.Name); i >= 0 {
			return i
		}
		return len(order)
	}
	sort.SliceStable(f.Fields, func(a, b int) bool { return rank(f.Fields[a]) < rank(f.Fields[b]) })
	if f.check, err = compile(schema); err != nil {
		return nil, err
	}
	for i := range f.Fields {
		if fd := &f.Fields[i]; len(fd.Default) > 0 && !defaultFits(fd.Name, props[fd.Name], fd.Default) {
			fd.Default = nil // not offered: accepting it would only be asked again
		}
	}
	return f, nil
}

// parseRoot reads the requested schema's root, a flat object: the names
// of its properties in the schema's order, each property's schema, and
// the names "required" lists, each one of the properties.
func parseRoot(schema json.RawMessage) (names []string, props map[string]json.RawMessage, required []string, err error) {
	var root struct {
		Type       json.RawMessage `json:"type"`
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
		Ref        string          `json:"$ref"`
	}
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, nil, nil, fmt.Errorf("the requested schema is not a JSON object: %v", err)
	}
	if root.Ref != "" {
		return nil, nil, nil, fmt.Errorf("the requested schema uses $ref; a form is a flat object of fields")
	}
	if t := typeName(root.Type); t != "object" && t != "" {
		return nil, nil, nil, fmt.Errorf("the requested schema has type %q; a form is an object", t)
	}
	if names, err = objectKeys(root.Properties); err != nil {
		return nil, nil, nil, fmt.Errorf("the requested schema's properties: %v", err)
	}
	if len(names) > MaxFields {
		return nil, nil, nil, fmt.Errorf("the requested schema has %d properties, over the limit of %d fields", len(names), MaxFields)
	}
	if len(names) > 0 {
		if err := json.Unmarshal(root.Properties, &props); err != nil {
			return nil, nil, nil, fmt.Errorf("the requested schema's properties: %v", err)
		}
	}
	for _, r := range root.Required {
		if _, ok := props[r]; !ok {
			return nil, nil, nil, fmt.Errorf("the requested schema requires %q, which is not one of its properties", r)
		}
	}
	return names, props, root.Required, nil
}

// defaultFits reports whether a field's default passes the field's own
// schema (a string default of an integer field, an enum default that is
// not one of its values do not).
func defaultFits(name string, prop, def json.RawMessage) bool {
	one, err := json.Marshal(map[string]json.RawMessage{"type": json.RawMessage(`"object"`), "properties": json.RawMessage(mustObject(name, prop))})
	if err != nil {
		return false
	}
	c, err := compile(one)
	if err != nil {
		return false
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(mustObject(name, def)))
	return err == nil && c.schema.Validate(v) == nil
}

// mustObject is {name: raw} as JSON.
func mustObject(name string, raw json.RawMessage) []byte {
	b, _ := json.Marshal(map[string]json.RawMessage{name: raw})
	return b
}

func parseField(name string, raw json.RawMessage) (Field, error) {
	var p prop
	if err := json.Unmarshal(raw, &p); err != nil {
		return Field{}, fmt.Errorf("property %q is not a schema object: %v", name, err)
	}
	fd := Field{Name: name, Title: p.Title, Description: p.Description, Default: p.Default}
	why := "has nested properties; a form is flat"
	if len(p.Properties) == 0 {
		why = p.fill(&fd)
	}
	if why == "" && !fd.boundsOrdered() {
		why = "has a maximum below its minimum"
	}
	if why != "" {
		return Field{}, fmt.Errorf("property %q %s", name, why)
	}
	return fd, nil
}

// fill gives fd its kind, and the options or bounds of its kind, from
// the property p; or it says why p is no form field ("" when it is).
func (p *prop) fill(fd *Field) (why string) {
	t := typeName(p.Type)
	switch {
	case t == "array":
		return p.fillMulti(fd)
	case p.emptyEnum():
		return "has an empty enum; no answer could match it"
	case (t == "string" || t == "") && (len(p.Enum) > 0 || len(p.OneOf) > 0):
		opts, err := options(p.Enum, p.EnumNames, p.OneOf)
		if err != nil {
			return err.Error()
		}
		fd.Kind, fd.Options = KindEnum, opts
	case t == "string":
		switch p.Format {
		case "", "email", "uri", "date", "date-time":
		default:
			return fmt.Sprintf("has format %q; a form knows email, uri, date and date-time", p.Format)
		}
		fd.Kind, fd.Format, fd.MinLength, fd.MaxLength = KindString, p.Format, p.MinLength, p.MaxLength
	case t == "number" || t == "integer":
		fd.Kind, fd.Minimum, fd.Maximum = Kind(t), p.Minimum, p.Maximum
	case t == "boolean":
		fd.Kind = KindBoolean
	default:
		return fmt.Sprintf("has type %q; a form field is a string, number, integer, boolean, enum or array of enum", t)
	}
	return ""
}

// emptyEnum reports whether p has an enum (or oneOf) with no value.
func (p *prop) emptyEnum() bool {
	return p.Enum != nil && len(p.Enum) == 0 || p.OneOf != nil && len(p.OneOf) == 0
}

// fillMulti makes fd a multi-select from the array property p: items
// with an enum (or anyOf of {const, title}) of strings.
func (p *prop) fillMulti(fd *Field) (why string) {
	if p.Items == nil {
		return "is an array without items; a multi-select needs items with enum or anyOf"
	}
	opts, err := options(p.Items.Enum, p.Items.EnumNames, p.Items.AnyOf)
	if err != nil || len(opts) == 0 || (typeName(p.Items.Type) != "string" && typeName(p.Items.Type) != "") {
		return "is an array that is not a multi-select of strings (items with enum or anyOf of {const, title})"
	}
	fd.Kind, fd.Options, fd.MinItems, fd.MaxItems = KindMulti, opts, p.MinItems, p.MaxItems
	return ""
}

// boundsOrdered reports whether none of fd's maximums is below its
// minimum.
func (fd *Field) boundsOrdered() bool {
	below := func(lo, hi *int) bool { return lo != nil && hi != nil && *hi < *lo }
	return !below(fd.MinItems, fd.MaxItems) && !below(fd.MinLength, fd.MaxLength) &&
		!(fd.Minimum != nil && fd.Maximum != nil && *fd.Maximum < *fd.Minimum)
}

func options(enum []json.RawMessage, names []string, titledOpts []titled) ([]Option, error) {
	if len(enum)+len(titledOpts) > MaxOptions {
		return nil, fmt.Errorf("has %d choices, over the limit of %d", len(enum)+len(titledOpts), MaxOptions)
	}
	if len(names) > 0 && len(names) != len(enum) {
		return nil, fmt.Errorf("has %d enum values and %d enumNames", len(enum), len(names))
	}
	var out []Option
	for i, e := range enum {
		var v string
		if err := json.Unmarshal(e, &v); err != nil {
			return nil, fmt.Errorf("has an enum value %s that is not a string", e)
		}
		o := Option{Value: v, Title: v}
		if len(names) > 0 && names[i] != "" {
			o.Title = names[i]
		}
		out = append(out, o)
	}
	for _, t := range titledOpts {
		if t.Const == nil || *t.Const == "" {
			return nil, fmt.Errorf("has a choice without a string const")
		}
		o := Option{Value: *t.Const, Title: t.Title}
		if o.Title == "" {
			o.Title = o.Value
		}
		out = append(out, o)
	}
	return out, nil
}

// typeName reads "type": a string, or a one-element array of one.
func typeName(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var ss []string
	if json.Unmarshal(raw, &ss) == nil && len(ss) == 1 {
		return ss[0]
	}
	if len(raw) == 0 {
		return ""
	}
	return strings.TrimSpace(string(raw))
}

// objectKeys returns the keys of a JSON object in the order they appear
// (a form shows its fields in the schema's order).
func objectKeys(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, fmt.Errorf("not an object")
	}
	var keys []string
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := tok.(string)
		if !seen[k] {
			keys = append(keys, k)
			seen[k] = true
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// sortedNames is for error messages that list names.
func sortedNames(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
