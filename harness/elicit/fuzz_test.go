package elicit

import (
	"encoding/json"
	"testing"
)

// FuzzParse: a server's requested schema becomes a form or an error,
// never a panic (scripts/fuzz.sh).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"name":{"type":"string","minLength":1},"age":{"type":"integer","minimum":0},"ok":{"type":"boolean"},"pick":{"type":"string","enum":["a","b"],"enumNames":["A","B"]}},"required":["name"]}`,
		`{"type":"object","properties":{"when":{"type":"string","format":"date"},"many":{"type":"array","items":{"type":"string","enum":["x","y"]}},"one":{"type":"string","oneOf":[{"const":"a","title":"A"}]}}}`,
		`{}`, `null`, `[]`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse(json.RawMessage(data))
	})
}
