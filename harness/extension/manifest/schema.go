package manifest

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// Versions are the manifest versions Parse accepts, oldest first: those of
// the schemas vendored from @anthropic-ai/mcpb 2.1.2 (schemas/README.md).
var Versions = []string{"0.1", "0.2", "0.3", "0.4"}

//go:embed schemas/*.schema.json
var schemaFiles embed.FS

// compiled is one version's schema: compiled, and as a position tree (for
// the allowed keys of an object, in the schema's order).
type compiled struct {
	schema *jsonschema.Schema
	tree   *jsonfile.Node
}

var (
	schemasOnce sync.Once
	schemas     map[string]*compiled
	schemasErr  error
)

func schemaURL(version string) string { return "urn:openworker:mcpb-manifest-v" + version }

// schemaFor returns the compiled schema of version. The vendored files are
// compiled once; a failure is a build defect and is returned as it is.
func schemaFor(version string) (*compiled, error) {
	schemasOnce.Do(func() {
		schemas = map[string]*compiled{}
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft7)
		c.AssertFormat() // zod, which mcpb validates with, checks url and email
		c.UseLoader(noLoader{})
		for _, v := range Versions {
			raw, err := schemaFiles.ReadFile("schemas/mcpb-manifest-v" + v + ".schema.json")
			if err != nil {
				schemasErr = err
				return
			}
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
			if err != nil {
				schemasErr = fmt.Errorf("schema %s: %w", v, err)
				return
			}
			tree, err := jsonfile.Parse("schema-v"+v, raw)
			if err != nil {
				schemasErr = err
				return
			}
			if err := c.AddResource(schemaURL(v), doc); err != nil {
				schemasErr = err
				return
			}
			s, err := c.Compile(schemaURL(v))
			if err != nil {
				schemasErr = fmt.Errorf("schema %s: %w", v, err)
				return
			}
			schemas[v] = &compiled{schema: s, tree: tree}
		}
	})
	if schemasErr != nil {
		return nil, schemasErr
	}
	return schemas[version], nil
}

type (
	kindAnyOf                = kind.AnyOf
	kindOneOf                = kind.OneOf
	kindType                 = kind.Type
	kindEnum                 = kind.Enum
	kindConst                = kind.Const
	kindRequired             = kind.Required
	kindAdditionalProperties = kind.AdditionalProperties
	kindFormat               = kind.Format
	kindPattern              = kind.Pattern
	kindMinLength            = kind.MinLength
)

var english = message.NewPrinter(language.English)

type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, errors.New("the manifest schemas refer to nothing outside themselves: " + url)
}

// validate checks data (already parsed into root without errors) against
// the schema of version and returns every violation as a positioned Problem.
func validate(version string, data []byte, root *jsonfile.Node) ([]Problem, error) {
	c, err := schemaFor(version)
	if err != nil {
		return nil, err
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	if err != nil { // jsonfile.Parse accepted it; stay safe anyway
		return []Problem{{Line: 1, Col: 1, Msg: "invalid JSON: " + err.Error()}}, nil
	}
	err = c.schema.Validate(inst)
	if err == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return nil, err
	}
	r := reporter{root: root, schema: c.tree}
	r.walk(ve)
	return r.dropShadowed(), nil
}

// dropShadowed keeps only the type problem of a value whose type is wrong:
// a number where a "const": "0.4" string belongs is one problem, not two.
func (r *reporter) dropShadowed() []Problem {
	if len(r.typed) == 0 {
		return r.out
	}
	out := r.out[:0]
	for i, p := range r.out {
		if r.typed[[2]int{p.Line, p.Col}] && !r.isType[i] {
			continue
		}
		out = append(out, p)
	}
	return out
}

type reporter struct {
	root, schema *jsonfile.Node
	out          []Problem
	typed        map[[2]int]bool // positions with a type problem
	isType       map[int]bool    // indexes of out that are type problems
}

// walk reports the leaves of e. An anyOf whose branches all fail on the
// value's type is one problem ("must be a string, a number, … not an
// object"); one whose branch failed deeper reports that deeper problem.
func (r *reporter) walk(e *jsonschema.ValidationError) {
	switch e.ErrorKind.(type) {
	case *kindAnyOf, *kindOneOf:
		var want []string
		var got string
		deeper := []*jsonschema.ValidationError{}
		for _, c := range e.Causes {
			if t, ok := c.ErrorKind.(*kindType); ok && len(c.InstanceLocation) == len(e.InstanceLocation) {
				want = append(want, t.Want...)
				got = t.Got
				continue
			}
			deeper = append(deeper, c)
		}
		if len(deeper) > 0 {
			for _, c := range deeper {
				r.walk(c)
			}
			return
		}
		if len(want) > 0 {
			r.typeProblem(e.InstanceLocation, got, want)
			return
		}
	}
	if len(e.Causes) > 0 {
		for _, c := range e.Causes {
			r.walk(c)
		}
		return
	}
	r.leaf(e)
}

func (r *reporter) node(loc []string) *jsonfile.Node { return nodeAt(r.root, loc) }

func (r *reporter) add(n *jsonfile.Node, msg, fix string) {
	r.out = append(r.out, Problem{Line: n.Line, Col: n.Col, Path: n.Path, Msg: msg, Fix: fix})
}

func (r *reporter) typeProblem(loc []string, got string, want []string) {
	n := r.node(loc)
	names := make([]string, len(want))
	for i, w := range want {
		names[i] = article(w)
		if w == "array" && strings.HasSuffix(n.Path, "default") {
			names[i] = "an array of strings"
		}
	}
	if r.typed == nil {
		r.typed, r.isType = map[[2]int]bool{}, map[int]bool{}
	}
	r.typed[[2]int{n.Line, n.Col}] = true
	r.isType[len(r.out)] = true
	r.add(n, fmt.Sprintf("must be %s, not %s", orList(names), article(got)), typeFix(want))
}

func (r *reporter) leaf(e *jsonschema.ValidationError) {
	n := r.node(e.InstanceLocation)
	switch k := e.ErrorKind.(type) {
	case *kindType:
		r.typeProblem(e.InstanceLocation, k.Got, k.Want)
	case *kindEnum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		r.add(n, fmt.Sprintf("%s is not one of %s", display(k.Got), strings.Join(want, ", ")), "use one of them")
	case *kindConst:
		r.add(n, fmt.Sprintf("%s is not %s", display(k.Got), display(k.Want)), fmt.Sprintf("write %s", display(k.Want)))
	case *kindRequired:
		for _, m := range k.Missing {
			r.add(n, fmt.Sprintf("required field %q is missing", m), fmt.Sprintf("add %q here", m))
		}
	case *kindAdditionalProperties:
		r.unknownFields(n, e.SchemaURL, k.Properties)
	case *kindFormat:
		msg, fix := formatProblem(k.Got, k.Want)
		r.add(n, msg, fix)
	case *kindPattern:
		r.add(n, fmt.Sprintf("%s does not match the pattern %s", display(k.Got), k.Want), patternFix(n.Path))
	case *kindMinLength:
		r.add(n, "must not be empty", "write a value or remove the field")
	default:
		r.add(n, e.ErrorKind.LocalizedString(english), "")
	}
}

// unknownFields reports each field of n that the schema at schemaURL does
// not allow, at the field when n has it, naming the allowed ones.
func (r *reporter) unknownFields(n *jsonfile.Node, schemaURL string, fields []string) {
	allowed := r.allowedKeys(schemaURL)
	for _, p := range fields {
		fix := "remove it"
		if len(allowed) > 0 {
			fix = "remove it; allowed fields: " + strings.Join(allowed, ", ")
		}
		if f := n.Field(p); f != nil {
			r.out = append(r.out, Problem{Line: f.Line, Col: f.Col, Path: n.Path, Msg: fmt.Sprintf("unknown field %q", p), Fix: fix})
		} else {
			r.add(n, fmt.Sprintf("unknown field %q", p), fix)
		}
	}
}

// formatFixes says, by format, what a valid value is and how to write one.
var formatFixes = map[string]struct{ what, fix string }{
	"uri":   {"a valid URL", "write an absolute URL such as https://example.com/page"},
	"email": {"a valid email address", "write an address such as name@example.com"},
}

// formatProblem is the message and fix of value got that is not of format
// want.
func formatProblem(got any, want string) (msg, fix string) {
	if f, ok := formatFixes[want]; ok {
		return fmt.Sprintf("%s is not %s", display(got), f.what), f.fix
	}
	return fmt.Sprintf("%s is not a valid %s", display(got), want), ""
}

// patternFixes says, by the end of a field's path, how to write a value
// its pattern takes.
var patternFixes = []struct{ suffix, fix string }{
	{".size", `write WIDTHxHEIGHT, for example "16x16"`},
	{".resources", "include the ${locale} placeholder"},
	{".default_locale", `write a BCP 47 locale such as "en-US"`},
}

// patternFix is the fix for a value at path its pattern refuses, or "".
func patternFix(path string) string {
	for _, p := range patternFixes {
		if strings.HasSuffix(path, p.suffix) {
			return p.fix
		}
	}
	return ""
}

// allowedKeys lists the "properties" of the schema at schemaURL (the one
// with the failing additionalProperties, "urn:…#/properties/server"), in
// the schema's order.
func (r *reporter) allowedKeys(schemaURL string) []string {
	_, ptr, _ := strings.Cut(schemaURL, "#")
	n := r.schema
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		f := n.Field(tok)
		if f == nil {
			return nil
		}
		n = f.Value
	}
	props := n.Field("properties")
	if props == nil {
		return nil
	}
	keys := make([]string, 0, len(props.Value.Fields))
	for _, f := range props.Value.Fields {
		if f.Key != "$schema" {
			keys = append(keys, f.Key)
		}
	}
	return keys
}

// nodeAt returns the value at loc (a JSON pointer's tokens), or the deepest
// existing value on the way.
func nodeAt(n *jsonfile.Node, loc []string) *jsonfile.Node {
	for _, tok := range loc {
		switch n.Kind {
		case jsonfile.Object:
			f := n.Field(tok)
			if f == nil {
				return n
			}
			n = f.Value
		case jsonfile.Array:
			i := 0
			if _, err := fmt.Sscanf(tok, "%d", &i); err != nil || i < 0 || i >= len(n.Items) {
				return n
			}
			n = n.Items[i]
		default:
			return n
		}
	}
	return n
}

func article(t string) string {
	switch t {
	case "object", "array", "integer":
		return "an " + t
	case "null":
		return "null"
	}
	return "a " + t
}

func orList(s []string) string {
	if len(s) <= 1 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func typeFix(want []string) string {
	if len(want) != 1 {
		return ""
	}
	switch want[0] {
	case "string":
		return "write it in double quotes"
	case "boolean":
		return "write true or false, without quotes"
	case "number", "integer":
		return "write a number, without quotes"
	case "array":
		return "write a list in [ ]"
	case "object":
		return "write an object in { }"
	}
	return ""
}

var controlChars = regexp.MustCompile(`[\x00-\x1f]`)

// display quotes a value for a message, cut to 60 characters.
func display(v any) string {
	s := fmt.Sprint(v)
	if str, ok := v.(string); ok {
		if r := []rune(str); len(r) > 60 {
			str = string(r[:60]) + "…"
		}
		return fmt.Sprintf("%q", str)
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return controlChars.ReplaceAllString(s, "?")
}
