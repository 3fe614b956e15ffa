package tool

import (
	"encoding/json"
	"testing"
)

func TestSchemaDigest(t *testing.T) {
	a, err := SchemaDigest(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := SchemaDigest(json.RawMessage("{ \"properties\" : {\"a\":{\"type\":\"string\"}},\n \"type\":\"object\" }"))
	if err != nil {
		t.Fatal(err)
	}
	if a != b {
		t.Errorf("key order and whitespace changed the digest: %s vs %s", a, b)
	}
	// sha256 of the canonical bytes, computed independently:
	// printf '%s' '{"properties":{"a":{"type":"string"}},"type":"object"}' | sha256sum
	if want := "sha256:08c8cc0e5745b1461ff0e3254761829dcd326eb328e9f4375a1ad67be880e009"; a != want {
		t.Errorf("SchemaDigest = %s, want %s", a, want)
	}
	c, _ := SchemaDigest(json.RawMessage(`{"type":"object","properties":{"a":{"type":"string","maxLength":3}}}`))
	if c == a {
		t.Error("a changed keyword kept the digest")
	}
	if d, err := SchemaDigest(nil); d != "" || err != nil {
		t.Errorf("SchemaDigest(nil) = %q, %v", d, err)
	}
	if _, err := SchemaDigest(json.RawMessage(`{"a":`)); err == nil {
		t.Error("SchemaDigest accepted invalid JSON")
	}
	if _, err := SchemaDigest(json.RawMessage(`{"a":1,"a":2}`)); err == nil {
		t.Error("SchemaDigest accepted duplicate keys")
	}
}

func TestSchemaID(t *testing.T) {
	if got, want := SchemaID("notification.show", "1.0.0", "input"), "https://openworker.dev/schemas/tools/notification.show/1.0.0/input.json"; got != want {
		t.Errorf("SchemaID = %q, want %q", got, want)
	}
}
