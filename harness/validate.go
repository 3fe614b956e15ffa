package harness

import (
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaCache holds resolved input schemas by descriptor digest. Resolution
// never fetches a remote $ref (no loader is given).
var schemaCache sync.Map // digest → *jsonschema.Resolved or error

// validateArgs checks the model's arguments: a JSON object that satisfies the
// tool's input schema.
func validateArgs(rt *ResolvedTool, raw string) error {
	if raw == "" {
		raw = "{}"
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return fmt.Errorf("the arguments are not valid JSON (%v); send a JSON object", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return fmt.Errorf("the arguments must be a JSON object")
	}
	rs, err := resolvedSchema(rt)
	if err != nil {
		return fmt.Errorf("the tool's input schema cannot be used: %v", err)
	}
	if err := rs.Validate(v); err != nil {
		return fmt.Errorf("the arguments do not match the input schema of %s: %v", rt.Alias, err)
	}
	return nil
}

func resolvedSchema(rt *ResolvedTool) (*jsonschema.Resolved, error) {
	if v, ok := schemaCache.Load(rt.Pin.Input); ok {
		if err, isErr := v.(error); isErr {
			return nil, err
		}
		return v.(*jsonschema.Resolved), nil
	}
	var s jsonschema.Schema
	var res any
	if err := json.Unmarshal(rt.Descriptor.InputSchema, &s); err != nil {
		res = err
	} else if rs, err := s.Resolve(nil); err != nil {
		res = err
	} else {
		res = rs
	}
	schemaCache.Store(rt.Pin.Input, res)
	if err, isErr := res.(error); isErr {
		return nil, err
	}
	return res.(*jsonschema.Resolved), nil
}
