package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

type greetIn struct {
	Name  string   `json:"name" jsonschema:"who to greet"`
	Times int      `json:"times,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

type greetOut struct {
	Greeting string `json:"greeting"`
}

func (o greetOut) ModelText() string { return "said: " + o.Greeting }

func newGreet(t *testing.T, fn func(context.Context, *Call, greetIn) (greetOut, error)) *Typed[greetIn, greetOut] {
	t.Helper()
	if fn == nil {
		fn = func(_ context.Context, _ *Call, in greetIn) (greetOut, error) {
			return greetOut{Greeting: strings.Repeat("hi "+in.Name+" ", in.Times)}, nil
		}
	}
	tt, err := NewTyped(Descriptor{Name: "example.greet", Description: "Greet.", Version: "1.2.0", Risk: ReadOnly}, fn,
		WithInputSchema(func(s *jsonschema.Schema) error {
			s.Properties["name"].MaxLength = jsonschema.Ptr(8)
			s.Properties["times"].Minimum = jsonschema.Ptr(1.0)
			s.Properties["times"].Maximum = jsonschema.Ptr(3.0)
			s.Properties["times"].Default = json.RawMessage(`2`)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	return tt
}

func TestTypedSchemas(t *testing.T) {
	tt := newGreet(t, nil)
	d := tt.Descriptor()
	var in map[string]any
	if err := json.Unmarshal(d.InputSchema, &in); err != nil {
		t.Fatal(err)
	}
	if in["$id"] != "https://openworker.dev/schemas/tools/example.greet/1.2.0/input.json" {
		t.Errorf("input $id = %v", in["$id"])
	}
	if in["$schema"] != SchemaDialect || in["type"] != "object" || in["additionalProperties"] != false {
		t.Errorf("input schema root = %s", d.InputSchema)
	}
	var out map[string]any
	if err := json.Unmarshal(d.OutputSchema, &out); err != nil {
		t.Fatal(err)
	}
	if out["$id"] != "https://openworker.dev/schemas/tools/example.greet/1.2.0/output.json" {
		t.Errorf("output $id = %v", out["$id"])
	}
	if err := d.Validate(); err != nil {
		t.Errorf("generated descriptor does not validate: %v", err)
	}
	want, _ := SchemaDigest(d.InputSchema)
	if tt.InputDigest() != want || !validDigest(want) {
		t.Errorf("InputDigest() = %q, want %q", tt.InputDigest(), want)
	}
	if tt.OutputDigest() == tt.InputDigest() || !validDigest(tt.OutputDigest()) {
		t.Errorf("OutputDigest() = %q", tt.OutputDigest())
	}
}

func TestTypedCall(t *testing.T) {
	tt := newGreet(t, nil)
	out, err := tt.Call(context.Background(), nil, json.RawMessage(`{"name":"Ann"}`))
	if err != nil {
		t.Fatal(err)
	}
	// times defaults to 2 from the schema.
	if got, want := string(out.Structured), `{"greeting":"hi Ann hi Ann "}`; got != want {
		t.Errorf("Structured = %s, want %s", got, want)
	}
	if out.Text != "said: hi Ann hi Ann " {
		t.Errorf("Text = %q", out.Text)
	}
}

func TestTypedRejectsBadArguments(t *testing.T) {
	tt := newGreet(t, nil)
	cases := []struct{ args, field string }{
		{`{"name":"Ann","extra":1}`, "extra"},
		{`{"name":"much too long"}`, "name"},
		{`{"name":"Ann","times":9}`, "times"},
		{`{"name":"Ann","times":1.5}`, "times"},
		{`{"name":7}`, "name"},
		{`{}`, "name"},
		{`{"name":"Ann","tags":[1]}`, "tags"},
		{`[1,2]`, "object"},
		{`not json`, "object"},
	}
	for _, c := range cases {
		_, err := tt.Call(context.Background(), nil, json.RawMessage(c.args))
		var te *ToolError
		if !errors.As(err, &te) || te.Code != "invalid_arguments" {
			t.Errorf("Call(%s) = %v, want a ToolError invalid_arguments", c.args, err)
			continue
		}
		if !strings.Contains(te.Message, c.field) || !strings.Contains(te.Message, "example.greet") {
			t.Errorf("Call(%s) message %q does not name %q and the tool", c.args, te.Message, c.field)
		}
	}
}

func TestTypedEmptyArgsMeansEmptyObject(t *testing.T) {
	type noIn struct{}
	tt, err := NewTyped(Descriptor{Name: "example.none", Version: "1.0.0"}, func(context.Context, *Call, noIn) (greetOut, error) {
		return greetOut{Greeting: "ok"}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tt.Call(context.Background(), nil, nil); err != nil {
		t.Errorf("Call(nil) = %v", err)
	}
	if _, err := tt.Call(context.Background(), nil, json.RawMessage(`{"x":1}`)); err == nil {
		t.Error("Call({x:1}) on an empty struct succeeded; unknown fields must be rejected")
	}
}

func TestTypedOutputValidated(t *testing.T) {
	tt, err := NewTyped(Descriptor{Name: "example.bad", Version: "1.0.0"},
		func(context.Context, *Call, greetIn) (greetOut, error) { return greetOut{Greeting: "toolong"}, nil },
		WithOutputSchema(func(s *jsonschema.Schema) error {
			s.Properties["greeting"].MaxLength = jsonschema.Ptr(3)
			return nil
		}))
	if err != nil {
		t.Fatal(err)
	}
	_, err = tt.Call(context.Background(), nil, json.RawMessage(`{"name":"a"}`))
	var te *ToolError
	if err == nil || errors.As(err, &te) || !strings.Contains(err.Error(), "output schema") {
		t.Errorf("Call with bad output = %v, want a plain error about the output schema", err)
	}
}

func TestTypedPassesToolErrorThrough(t *testing.T) {
	tt := newGreet(t, func(context.Context, *Call, greetIn) (greetOut, error) {
		return greetOut{}, Errorf("not_found", "nobody")
	})
	_, err := tt.Call(context.Background(), nil, json.RawMessage(`{"name":"a"}`))
	var te *ToolError
	if !errors.As(err, &te) || te.Code != "not_found" {
		t.Errorf("Call = %v, want the tool's ToolError", err)
	}
}

func TestNewTypedRefuses(t *testing.T) {
	fn := func(context.Context, *Call, greetIn) (greetOut, error) { return greetOut{}, nil }
	if _, err := NewTyped(Descriptor{Name: "example.x", Version: "1.0.0", InputSchema: json.RawMessage(`{}`)}, fn); err == nil {
		t.Error("NewTyped accepted a hand-written InputSchema")
	}
	if _, err := NewTyped(Descriptor{Name: "bad name", Version: "1.0.0"}, fn); err == nil {
		t.Error("NewTyped accepted a bad name")
	}
	if _, err := NewTyped(Descriptor{Name: "example.x"}, fn); err == nil {
		t.Error("NewTyped accepted an empty version")
	}
	if _, err := NewTyped(Descriptor{Name: "example.m", Version: "1.0.0"}, func(context.Context, *Call, map[string]string) (greetOut, error) {
		return greetOut{}, nil
	}); err == nil {
		t.Error("NewTyped accepted a map input type")
	}
	if _, err := NewTyped(Descriptor{Name: "example.p", Version: "1.0.0"}, func(context.Context, *Call, *greetIn) (greetOut, error) {
		return greetOut{}, nil
	}); err == nil {
		t.Error("NewTyped accepted a pointer input type (its schema admits null)")
	}
	_, err := NewTyped(Descriptor{Name: "example.r", Version: "1.0.0"}, fn, WithInputSchema(func(s *jsonschema.Schema) error {
		s.Properties["name"] = &jsonschema.Schema{Ref: "https://example.invalid/remote.json"}
		return nil
	}))
	if err == nil || !strings.Contains(err.Error(), "remote $ref is not allowed") {
		t.Errorf("NewTyped with a remote $ref = %v, want the offline refusal", err)
	}
}
