package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/openworker/desktop/harness/tool"
)

// CodeOutputInvalid is the tool.ToolError code of a successful result whose
// structuredContent breaks the tool's outputSchema, or that has none when
// the tool declares one (docs/mcp.md#results).
const CodeOutputInvalid = "output_invalid"

// maxViolations bounds how many broken rules one error names, and
// maxViolationBytes the length of each (a rule may quote long values).
const (
	maxViolations     = 5
	maxViolationBytes = 300
)

// outputSchemas holds the compiled output schemas of a provider's latest
// catalog listing, by remote tool name. Each schema is compiled once per
// listing, and not again by a listing that lists it unchanged.
type outputSchemas struct {
	mu     sync.Mutex
	byTool map[string]*outputSchema // nil before the first listing
}

// outputSchema is one tool's outputSchema, compiled, or why it cannot be used.
type outputSchema struct {
	raw    string
	schema *jsonschema.Schema
	err    error
}

// set replaces the schemas with those of a complete listing: remote tool
// name → outputSchema as the server sent it.
func (s *outputSchemas) set(schemas map[string]json.RawMessage) {
	s.mu.Lock()
	old := s.byTool
	s.mu.Unlock()
	next := make(map[string]*outputSchema, len(schemas))
	for name, schema := range schemas {
		if len(schema) == 0 {
			continue
		}
		if o := old[name]; o != nil && o.raw == string(schema) {
			next[name] = o
			continue
		}
		next[name] = compileOutputSchema(schema)
	}
	s.mu.Lock()
	s.byTool = next
	s.mu.Unlock()
}

// get returns the tool's compiled schema, or nil when the latest listing
// gave it none (or there was no listing yet).
func (s *outputSchemas) get(name string) *outputSchema {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byTool[name]
}

// errRemoteSchema refuses every $ref that is not inside the schema: an
// output schema is checked offline and never makes the harness fetch or
// read anything.
var errRemoteSchema = errors.New("such a $ref is not followed (nothing is fetched or read)")

type noLoader struct{}

func (noLoader) Load(string) (any, error) { return nil, errRemoteSchema }

// regexpOrAny compiles a "pattern" with Go's RE2; a pattern RE2 cannot
// compile (lookaround, backreferences: ECMA-262 features) is not checked,
// rather than making the whole schema unusable.
func regexpOrAny(s string) (jsonschema.Regexp, error) {
	if re, err := regexp.Compile(s); err == nil {
		return re, nil
	}
	return anyString(s), nil
}

type anyString string

func (a anyString) MatchString(string) bool { return true }
func (a anyString) String() string          { return string(a) }

// outputSchemaURL is where a compiled schema says it came from; an
// identifier only.
const outputSchemaURL = "urn:openworker:mcp:output-schema"

func compileOutputSchema(raw json.RawMessage) *outputSchema {
	o := &outputSchema{raw: string(raw)}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err == nil {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		c.UseLoader(noLoader{})
		c.UseRegexpEngine(regexpOrAny)
		if err = c.AddResource(outputSchemaURL, doc); err == nil {
			o.schema, err = c.Compile(outputSchemaURL)
		}
	}
	var (
		load *jsonschema.LoadURLError
		meta *jsonschema.SchemaValidationError
		ve   *jsonschema.ValidationError
	)
	switch {
	case err == nil:
	case errors.As(err, &load):
		o.err = fmt.Errorf("its $ref %q is outside the schema; %w", load.URL, errRemoteSchema)
	case errors.As(err, &meta) && errors.As(meta.Err, &ve):
		o.err = errors.New("it is not a valid JSON Schema: " + violations(ve))
	default:
		o.err = errors.New(strings.ReplaceAll(err.Error(), outputSchemaURL, "outputSchema"))
	}
	return o
}

// check validates a successful result's structured value (nil: the result
// had none). It returns nil or a *tool.ToolError with code output_invalid
// that names each broken rule (at most five) by the value's JSON Pointer
// and the schema keyword, for example
//
//	structuredContent does not match the tool's outputSchema: at /items/1/name: maxLength: got 4, want 2
func (o *outputSchema) check(structured json.RawMessage) error {
	if o.err != nil {
		return &tool.ToolError{Code: CodeOutputInvalid, Message: "the tool's outputSchema cannot be used, so its result was not accepted: " + o.err.Error()}
	}
	if structured == nil {
		return &tool.ToolError{Code: CodeOutputInvalid, Message: "the tool declares an outputSchema but its result has no structuredContent"}
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(structured))
	if err != nil {
		return &tool.ToolError{Code: CodeOutputInvalid, Message: "structuredContent is not valid JSON: " + err.Error()}
	}
	err = o.schema.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return &tool.ToolError{Code: CodeOutputInvalid, Message: "structuredContent could not be checked against the tool's outputSchema: " + err.Error()}
	}
	return &tool.ToolError{Code: CodeOutputInvalid, Message: "structuredContent does not match the tool's outputSchema: " + violations(ve)}
}

// violations lists the broken rules of e, at most maxViolations of them,
// joined with "; ".
func violations(e *jsonschema.ValidationError) string {
	var leaves []*jsonschema.ValidationError
	collectLeaves(e, &leaves)
	msgs := make([]string, 0, maxViolations+1)
	for i, l := range leaves {
		if i == maxViolations {
			msgs = append(msgs, fmt.Sprintf("and %d more", len(leaves)-maxViolations))
			break
		}
		msgs = append(msgs, violation(l))
	}
	return strings.Join(msgs, "; ")
}

func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

var english = message.NewPrinter(language.English)

// violation is one broken rule: "at POINTER: KEYWORD: what is wrong", the
// pointer "" (the whole value) written as "the top level".
func violation(e *jsonschema.ValidationError) string {
	at := "the top level"
	if len(e.InstanceLocation) > 0 {
		var b strings.Builder
		for _, tok := range e.InstanceLocation {
			b.WriteString("/" + strings.ReplaceAll(strings.ReplaceAll(tok, "~", "~0"), "/", "~1"))
		}
		at = b.String()
	}
	msg := e.ErrorKind.LocalizedString(english)
	if kw := e.ErrorKind.KeywordPath(); len(kw) > 0 {
		rule := strings.Join(kw, "/")
		if !strings.HasPrefix(msg, rule+":") && !strings.HasPrefix(msg, "'"+rule+"'") {
			msg = rule + ": " + msg
		}
	}
	v := "at " + at + ": " + msg
	if len(v) > maxViolationBytes {
		cut := maxViolationBytes
		for cut > 0 && !utf8.RuneStart(v[cut]) {
			cut--
		}
		v = v[:cut] + "…"
	}
	return v
}
