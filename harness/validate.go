package harness

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/openworker/desktop/harness/internal/jsonenc"
	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// schemaCache holds resolved input schemas by descriptor digest. Resolution
// never fetches a remote $ref (no loader is given).
var schemaCache sync.Map // digest → *jsonschema.Resolved or error

// validateArgs checks the model's arguments — one JSON object, no duplicate
// keys, satisfying the tool's input schema — and returns them normalized:
// compact JSON with sorted keys and every control character escaped. The
// normalized form is what the person is asked about, what is journaled and
// what the tool receives, so all three see the same thing (whitespace tricks
// such as a raw carriage return cannot hide part of it, and duplicate keys
// cannot mean one thing to the validator and another to the tool).
func validateArgs(rt *ResolvedTool, raw string) (json.RawMessage, error) {
	if raw == "" {
		raw = "{}"
	}
	if _, err := jsonfile.Parse("arguments", []byte(raw)); err != nil {
		msg := err.Error()
		if e, ok := jsonfile.AsError(err); ok {
			msg = e.Msg
		}
		return nil, fmt.Errorf("the arguments are not valid JSON (%s); send one JSON object", msg)
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return nil, fmt.Errorf("the arguments are not valid JSON (%v); send one JSON object", err)
	}
	if _, ok := v.(map[string]any); !ok {
		return nil, fmt.Errorf("the arguments must be a JSON object")
	}
	rs, err := resolvedSchema(rt)
	if err != nil {
		return nil, fmt.Errorf("the tool's input schema cannot be used: %v", err)
	}
	if err := rs.Validate(v); err != nil {
		return nil, fmt.Errorf("the arguments do not match the input schema of %s: %v", rt.Alias, err)
	}
	return normalizeJSON([]byte(raw))
}

// normalizeJSON re-encodes a JSON value compactly with sorted object keys,
// keeping numbers exactly as written.
func normalizeJSON(raw []byte) (json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	b, err := jsonenc.Marshal(v)
	if err != nil {
		return nil, err
	}
	return escapeControls(b), nil
}

// escapeControls rewrites, as \uXXXX, the characters encoding/json leaves
// raw but a terminal may act on: DEL, the C1 controls (U+0080–U+009F, such
// as the 8-bit CSI) and the bidirectional embeddings, overrides and
// isolates, which can reorder what a person reads in a consent prompt. In
// normalized JSON they can only stand inside strings, where \uXXXX means
// the same character.
func escapeControls(b []byte) json.RawMessage {
	needs := false
	for _, r := range string(b) {
		if isTerminalControl(r) {
			needs = true
			break
		}
	}
	if !needs {
		return json.RawMessage(b)
	}
	var out bytes.Buffer
	for _, r := range string(b) {
		if isTerminalControl(r) {
			fmt.Fprintf(&out, "\\u%04x", r)
			continue
		}
		out.WriteRune(r)
	}
	return json.RawMessage(out.Bytes())
}

func isTerminalControl(r rune) bool {
	return r == 0x7f || r >= 0x80 && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
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
