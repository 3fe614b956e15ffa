// Package jsonenc is the one JSON encoder for everything the harness sends
// a model or writes to the journal: encoding/json without HTML escaping, so
// "<b>" stays "<b>" instead of "\u003cb\u003e" (docs/mcp.md#results). A
// model reads the bytes as text, so an escape it was never sent would be
// part of what it sees; the journal keeps what was sent, no larger than it
// needs to be.
package jsonenc

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping: '<', '>' and '&' (also
// inside a json.RawMessage, which encoding/json re-compacts) are written as
// they are. Everything else is encoded as json.Marshal does: no trailing
// newline, invalid UTF-8 as U+FFFD, U+2028 and U+2029 escaped.
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// String returns s as a JSON string, encoded by Marshal.
func String(s string) json.RawMessage {
	b, _ := Marshal(s) // a string always encodes
	return b
}
