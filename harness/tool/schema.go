package tool

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/gowebpki/jcs"
)

// SchemaDialect is the JSON Schema dialect of every generated schema ($schema).
const SchemaDialect = "https://json-schema.org/draft/2020-12/schema"

// SchemaIDBase is the prefix of the canonical $id of a typed tool's schemas.
// The full $id is SchemaID(name, version, "input"|"output"), for example
// "https://openworker.dev/schemas/tools/notification.show/1.0.0/input.json".
// The $id is an identifier only: nothing is ever fetched from it.
const SchemaIDBase = "https://openworker.dev/schemas/tools/"

// SchemaID returns the canonical $id of the kind ("input" or "output")
// schema of version of the tool name. Name and version are path-escaped.
func SchemaID(name, version, kind string) string {
	return SchemaIDBase + url.PathEscape(name) + "/" + url.PathEscape(version) + "/" + kind + ".json"
}

// SchemaDigest returns "sha256:<hex>" of the RFC 8785 (JCS) canonical form of
// a JSON schema (docs/partner-tools.md). Key order and whitespace do not change the digest;
// any change of a keyword or value does. An empty schema has the digest "";
// invalid JSON is an error.
func SchemaDigest(schema json.RawMessage) (string, error) {
	if len(schema) == 0 {
		return "", nil
	}
	canon, err := jcs.Transform(schema)
	if err != nil {
		return "", fmt.Errorf("schema digest: canonical JSON (RFC 8785): %w", err)
	}
	sum := sha256.Sum256(canon)
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// errRemoteRef is returned by the loader of every typed tool's validator:
// schemas are resolved offline and a remote $ref is never fetched (docs/partner-tools.md).
var errRemoteRef = errors.New("remote $ref is not allowed: typed tool schemas are resolved offline and never fetch anything")

// compileSchema sets the dialect and $id of s, resolves it for validation with
// no loader for remote references, and returns the resolved schema and its
// JSON encoding.
func compileSchema(s *jsonschema.Schema, id string) (*jsonschema.Resolved, json.RawMessage, error) {
	s.Schema = SchemaDialect
	s.ID = id
	rs, err := s.Resolve(&jsonschema.ResolveOptions{
		Loader:           func(u *url.URL) (*jsonschema.Schema, error) { return nil, fmt.Errorf("%s: %w", u, errRemoteRef) },
		ValidateDefaults: true,
	})
	if err != nil {
		return nil, nil, fmt.Errorf("schema %s: %w", id, err)
	}
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, nil, fmt.Errorf("schema %s: encode: %w", id, err)
	}
	return rs, raw, nil
}

// validateJSON decodes data into a generic JSON value and validates it.
func validateJSON(rs *jsonschema.Resolved, data []byte) (any, error) {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	if err := rs.Validate(v); err != nil {
		return nil, err
	}
	return v, nil
}
