package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/openworker/desktop/harness/internal/jsonenc"
)

// Typed is a Tool built by NewTyped from Go input and output types. It is
// safe for concurrent use when fn is.
type Typed[In, Out any] struct {
	desc      Descriptor
	fn        func(ctx context.Context, c *Call, in In) (Out, error)
	in, out   *jsonschema.Resolved
	inDigest  string
	outDigest string
}

// TypedOption adjusts the schemas NewTyped generates.
type TypedOption func(*typedConfig)

type typedConfig struct {
	forOpts jsonschema.ForOptions
	editIn  []func(*jsonschema.Schema) error
	editOut []func(*jsonschema.Schema) error
}

// WithInputSchema lets the tool refine its generated input schema before it is
// resolved and digested: bounds such as MaxLength, MaxItems, Minimum/Maximum,
// Enum and Default (jsonschema-go's struct tags only carry descriptions).
// Defaults are applied to missing fields before validation and decoding.
func WithInputSchema(edit func(s *jsonschema.Schema) error) TypedOption {
	return func(c *typedConfig) { c.editIn = append(c.editIn, edit) }
}

// WithOutputSchema is WithInputSchema for the output schema.
func WithOutputSchema(edit func(s *jsonschema.Schema) error) TypedOption {
	return func(c *typedConfig) { c.editOut = append(c.editOut, edit) }
}

// ModelTexter may be implemented by a typed tool's output type to give the
// model a text form. Without it Output.Text stays empty and the runtime
// derives the text from Structured (Output.ModelText).
type ModelTexter interface {
	ModelText() string
}

// NewTyped builds a Tool from Go input and output types (docs/partner-tools.md).
//
// d gives the name, description, version and effect declarations; its
// InputSchema and OutputSchema must be empty because NewTyped generates them
// with github.com/google/jsonschema-go (jsonschema.For), draft 2020-12. In
// must be a struct: its schema is an object with additionalProperties false,
// so unknown input fields are rejected. Each schema gets the canonical $id
// SchemaID(d.Name, d.Version, "input"|"output") and is resolved for an
// offline validator: a remote $ref is an error, never a fetch.
//
// The returned tool's Call validates args against the input schema (after
// applying schema defaults to missing fields); a mismatch is a *ToolError with
// Code "invalid_arguments" whose message names the failing field. It then
// decodes args into In with unknown fields rejected, runs fn, and validates
// fn's result against the output schema: an output that does not match is a
// plain error (a tool bug, which stops the turn). The JSON of the result is
// Output.Structured; Output.Text comes from Out's ModelText method when Out
// implements ModelTexter.
//
// Errors name the tool and the schema.
func NewTyped[In, Out any](d Descriptor, fn func(ctx context.Context, c *Call, in In) (Out, error), opts ...TypedOption) (*Typed[In, Out], error) {
	if fn == nil {
		return nil, fmt.Errorf("typed tool %q: fn is nil", d.Name)
	}
	if len(d.InputSchema) > 0 || len(d.OutputSchema) > 0 {
		return nil, fmt.Errorf("typed tool %q: leave Descriptor.InputSchema and OutputSchema empty; NewTyped generates them from the Go types", d.Name)
	}
	if err := d.Validate(); err != nil {
		return nil, fmt.Errorf("typed tool: %w", err)
	}
	var cfg typedConfig
	for _, o := range opts {
		o(&cfg)
	}
	inSchema, outSchema, err := typedSchemas[In, Out](&cfg)
	if err != nil {
		return nil, fmt.Errorf("typed tool %q: %w", d.Name, err)
	}
	t := &Typed[In, Out]{desc: d, fn: fn}
	if err := t.compile(inSchema, outSchema); err != nil {
		return nil, fmt.Errorf("typed tool %q: %w", d.Name, err)
	}
	return t, nil
}

// typedSchemas generates the schemas of In (an object with no other
// properties) and Out, with the options' edits applied.
func typedSchemas[In, Out any](cfg *typedConfig) (in, out *jsonschema.Schema, err error) {
	in, err = jsonschema.For[In](&cfg.forOpts)
	if err != nil {
		return nil, nil, fmt.Errorf("input schema: %w", err)
	}
	if in.Type != "object" || in.Properties == nil && !isFalse(in.AdditionalProperties) {
		return nil, nil, fmt.Errorf("input type %T must be a struct (a JSON object with known fields), not a pointer, map or scalar", *new(In))
	}
	in.AdditionalProperties = &jsonschema.Schema{Not: &jsonschema.Schema{}}
	if err := applyEdits(in, cfg.editIn); err != nil {
		return nil, nil, fmt.Errorf("input schema: %w", err)
	}
	out, err = jsonschema.For[Out](&cfg.forOpts)
	if err != nil {
		return nil, nil, fmt.Errorf("output schema: %w", err)
	}
	if err := applyEdits(out, cfg.editOut); err != nil {
		return nil, nil, fmt.Errorf("output schema: %w", err)
	}
	return in, out, nil
}

// compile resolves the two schemas under their canonical $ids into the
// descriptor and the validators, and takes their digests.
func (t *Typed[In, Out]) compile(inSchema, outSchema *jsonschema.Schema) error {
	d := t.desc
	var err error
	if t.in, t.desc.InputSchema, err = compileSchema(inSchema, SchemaID(d.Name, d.Version, "input")); err != nil {
		return err
	}
	if t.out, t.desc.OutputSchema, err = compileSchema(outSchema, SchemaID(d.Name, d.Version, "output")); err != nil {
		return err
	}
	if t.inDigest, err = SchemaDigest(t.desc.InputSchema); err != nil {
		return err
	}
	t.outDigest, err = SchemaDigest(t.desc.OutputSchema)
	return err
}

func isFalse(s *jsonschema.Schema) bool {
	return s != nil && s.Not != nil && s.Not.Type == "" && len(s.Not.Types) == 0
}

func applyEdits(s *jsonschema.Schema, edits []func(*jsonschema.Schema) error) error {
	for _, e := range edits {
		if e == nil {
			continue
		}
		if err := e(s); err != nil {
			return err
		}
	}
	return nil
}

// Descriptor returns the descriptor with the generated schemas.
func (t *Typed[In, Out]) Descriptor() Descriptor { return t.desc }

// InputDigest returns "sha256:<hex>" of the canonical input schema.
func (t *Typed[In, Out]) InputDigest() string { return t.inDigest }

// OutputDigest returns "sha256:<hex>" of the canonical output schema.
func (t *Typed[In, Out]) OutputDigest() string { return t.outDigest }

// maxSchemaErr bounds the schema error text given back to the model.
const maxSchemaErr = 1024

// Call implements Tool; see NewTyped.
func (t *Typed[In, Out]) Call(ctx context.Context, c *Call, args json.RawMessage) (Output, error) {
	in, err := t.decode(args)
	if err != nil {
		return Output{}, err
	}
	out, err := t.fn(ctx, c, in)
	if err != nil {
		return Output{}, err
	}
	raw, err := jsonenc.Marshal(out)
	if err != nil {
		return Output{}, fmt.Errorf("tool %s: encode output: %w", t.desc.Name, err)
	}
	if _, err := validateJSON(t.out, raw); err != nil {
		return Output{}, fmt.Errorf("tool %s returned output that does not match its output schema: %s", t.desc.Name, schemaErrText(err))
	}
	o := Output{Structured: raw}
	if mt, ok := any(out).(ModelTexter); ok {
		o.Text = mt.ModelText()
	}
	return o, nil
}

// decode validates args (defaults applied) and decodes them into In.
func (t *Typed[In, Out]) decode(args json.RawMessage) (In, error) {
	var in In
	if len(bytes.TrimSpace(args)) == 0 {
		args = json.RawMessage(`{}`)
	}
	invalid := func(format string, a ...any) (In, error) {
		return in, Errorf("invalid_arguments", "arguments of %s: %s", t.desc.Name, fmt.Sprintf(format, a...))
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil || m == nil {
		return invalid("want a JSON object matching the input schema")
	}
	if err := t.in.ApplyDefaults(&m); err != nil {
		return invalid("%s", schemaErrText(err))
	}
	if err := t.in.Validate(m); err != nil {
		return invalid("%s", schemaErrText(err))
	}
	filled, err := json.Marshal(m)
	if err != nil {
		return invalid("%v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(filled))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return invalid("%v", err)
	}
	return in, nil
}

// schemaErrText shortens a jsonschema-go error for the model: it drops the
// "validating <$id>: " prefix (the field path such as /properties/title stays)
// and bounds the length.
func schemaErrText(err error) string {
	s := err.Error()
	if strings.HasPrefix(s, "validating "+SchemaIDBase) {
		if _, rest, ok := strings.Cut(s, ".json: "); ok {
			s = rest
		}
	}
	s = strings.ReplaceAll(s, "validating /properties/", "field ")
	if len(s) > maxSchemaErr {
		s = strings.ToValidUTF8(s[:maxSchemaErr], "") + "…"
	}
	return s
}

var _ Tool = (*Typed[struct{}, struct{}])(nil)
