package elicit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// checker is the requested schema compiled by santhosh-tekuri/jsonschema,
// formats asserted (email, uri, date, date-time are checked, not only
// annotations).
type checker struct{ schema *jsonschema.Schema }

const schemaURL = "urn:openworker:elicitation:requested-schema"

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("the requested schema refers to %s; a form is self-contained", url)
}

func compile(raw json.RawMessage) (*checker, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("the requested schema is not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("the requested schema: %v", err)
	}
	s, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("the requested schema is not a valid JSON Schema: %s", strings.ReplaceAll(err.Error(), schemaURL, "requestedSchema"))
	}
	return &checker{s}, nil
}

var english = message.NewPrinter(language.English)

// Check validates an accepted answer's content against the requested
// schema: only the form's fields, each of its kind and within its bounds
// and format, the required ones present. The error names each field that
// is wrong, every one of them (fields it does not have too), for example
//
//	email: 'not-an-address' is not valid email: missing @; integer: minimum: got 0, want 1
//
// A host may call it to re-ask before it answers; the harness calls it on
// every accepted answer before anything is sent to the server.
func (f *Form) Check(content map[string]any) error {
	known := map[string]bool{}
	for _, fd := range f.Fields {
		known[fd.Name] = true
	}
	var msgs []string
	fields := map[string]any{} // the form's fields of content, checked against the schema
	for _, k := range sortedNames(content) {
		if !known[k] {
			msgs = append(msgs, fmt.Sprintf("%s: not a field of this form", k))
			continue
		}
		fields[k] = content[k]
	}
	content = fields
	// Through JSON: numbers as the validator reads them (json.Number).
	raw, err := json.Marshal(content)
	if err != nil {
		return fmt.Errorf("the answer is not JSON: %v", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return fmt.Errorf("the answer is not JSON: %v", err)
	}
	err = f.check.schema.Validate(v)
	var ve *jsonschema.ValidationError
	switch {
	case err == nil && len(msgs) == 0:
		return nil
	case err != nil && !errors.As(err, &ve):
		return err
	}
	var leaves []*jsonschema.ValidationError
	if ve != nil {
		collect(ve, &leaves)
	}
	for _, l := range leaves { // every one: a form has at most MaxFields fields
		at := "the form"
		if len(l.InstanceLocation) > 0 {
			at = l.InstanceLocation[0]
		}
		msgs = append(msgs, at+": "+l.ErrorKind.LocalizedString(english))
	}
	return errors.New(strings.Join(msgs, "; "))
}

func collect(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collect(c, out)
	}
}
