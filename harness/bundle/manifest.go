package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// frontMatter is a YAML front matter split from a Markdown file.
type frontMatter struct {
	yaml     []byte // between the "---" lines
	body     string // after the closing "---" line
	bodyLine int    // line of manifest.md where body starts
	present  bool
}

// splitFrontMatter splits "---\n<yaml>\n---\n<body>". The YAML starts on line
// 2 of the file. Without an opening "---" line, present is false and body is
// the whole text. A UTF-8 byte order mark and CRLF line ends are accepted.
func splitFrontMatter(data []byte) (frontMatter, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	first, rest, _ := bytes.Cut(data, []byte("\n"))
	if !isFence(first) {
		return frontMatter{body: string(data), bodyLine: 1}, nil
	}
	off, line := len(first)+1, 2
	for len(rest) > 0 {
		l, next, found := bytes.Cut(rest, []byte("\n"))
		if isFence(l) {
			fm := frontMatter{present: true, yaml: data[len(first)+1 : off], bodyLine: line + 1}
			if found {
				fm.body = string(next)
			}
			return fm, nil
		}
		off += len(l) + 1
		line++
		rest = next
	}
	return frontMatter{}, errors.New("front matter is not closed")
}

func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// yamlError maps a go-yaml error to a position in the Markdown file, whose
// front matter starts on line 2, and rewrites "[L:C]" references alike.
func (l *loader) yamlError(file string, err error, allowed []string) *LoadError {
	var ye yaml.Error
	if !errors.As(err, &ye) || ye.GetToken() == nil {
		return l.errf(file, 2, 1, "", "front matter: %v", err)
	}
	pos := ye.GetToken().Position
	msg := refRE.ReplaceAllStringFunc(ye.GetMessage(), func(m string) string {
		p := refRE.FindStringSubmatch(m)
		line, _ := strconv.Atoi(p[1])
		return fmt.Sprintf("line %d, column %s", line+1, p[2])
	})
	var te *yaml.TypeError
	if errors.As(err, &te) {
		msg = typeMessage(te)
	}
	var ue *yaml.UnknownFieldError
	fix := yamlFix(msg)
	if errors.As(err, &ue) {
		fix = "allowed fields: " + strings.Join(allowed, ", ")
	}
	msg = strings.ReplaceAll(msg, "\t", `\t`)
	return l.errf(file, pos.Line+1, pos.Column, fix, "front matter: %s", msg)
}

var refRE = regexp.MustCompile(`\[(\d+):(\d+)\]`)

// yamlFix suggests the repair for the YAML syntax errors people make most.
func yamlFix(msg string) string {
	switch {
	case strings.Contains(msg, "'\t'") || strings.Contains(msg, "tab"):
		return "indent with spaces; YAML does not allow tabs"
	case strings.Contains(msg, "mapping value is not allowed"), strings.Contains(msg, "value is not allowed in this context"):
		return `put quotes around a value that holds ": " (name: "Research: Helper") or a key such as "*", and check that keys at one level start in the same column`
	case strings.Contains(msg, "where sequence is expected"):
		return "write a list: [a, b] or one \"- item\" per line"
	case strings.Contains(msg, "could not find expected ':'"), strings.Contains(msg, "unexpected key name"):
		return `write each field as "key: value" on its own line`
	case strings.Contains(msg, "did not find expected") || strings.Contains(msg, "found character that cannot start any token"):
		return `put quotes around values that start with *, &, !, @, %, or a backquote ("*": allow)`
	}
	return ""
}

func typeMessage(te *yaml.TypeError) string {
	field := ""
	if te.StructFieldName != nil {
		field = *te.StructFieldName
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
	}
	switch strings.ToLower(field) {
	case "skills":
		return "skills must be a list of skill folder names"
	case "policy":
		return "policy must map tool names to ask, allow or deny"
	case "requiressandbox":
		return "requires_sandbox must be true or false"
	case "":
		return te.GetMessage()
	}
	return fmt.Sprintf("%s must be text", strings.ToLower(field))
}

// decodeYAML decodes front matter into v strictly: syntax errors, unknown
// fields, duplicate keys and wrong types are errors; anchors, aliases, tags
// and non-text scalars for text fields are refused (they hide what a field
// holds). It returns the top-level mapping for position lookups.
func (l *loader) decodeYAML(file string, src []byte, v any, allowed []string, textFields ...string) (*yamlMap, *LoadError) {
	m, body, lerr := l.parseYAML(file, src, allowed)
	if lerr != nil || body == nil {
		return m, lerr
	}
	if err := yaml.NodeToValue(body, v, yaml.Strict()); err != nil {
		return nil, l.yamlError(file, err, allowed)
	}
	for _, k := range textFields {
		if lerr := l.textNode(file, m, k); lerr != nil {
			return nil, lerr
		}
	}
	return m, nil
}

// textNode refuses a value of key that is not text (a number, a list):
// YAML would turn 1.10 into 1.1.
func (l *loader) textNode(file string, m *yamlMap, key string) *LoadError {
	if n := m.value(key); n != nil {
		switch n.(type) {
		case *ast.StringNode, *ast.LiteralNode, *ast.NullNode:
		default:
			line, col := pos(n)
			return l.errf(file, line, col, fmt.Sprintf("quote it: %s: \"%s\"", key, n.String()), "front matter: %s must be text, not %s", key, strings.ToLower(n.Type().String()))
		}
	}
	return nil
}

// parseYAML parses front matter into its top-level mapping, refusing
// what decodeYAML refuses but unknown fields and types: syntax errors,
// duplicate keys, anchors, aliases, tags, more than one document,
// anything but a mapping. body is nil for empty front matter.
func (l *loader) parseYAML(file string, src []byte, allowed []string) (m *yamlMap, body ast.Node, lerr *LoadError) {
	if len(src) > MaxFrontMatterBytes {
		return nil, nil, l.errf(file, 2, 1, "move long text into the Markdown body", "front matter is %d bytes; the limit is %d", len(src), MaxFrontMatterBytes)
	}
	if off := tooDeep(src); off >= 0 {
		line, col := jsonfile.Position(src, off)
		return nil, nil, l.errf(file, line+1, col, "flatten it", "front matter is nested more than %d levels deep", maxYAMLDepth)
	}
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, nil, l.yamlError(file, err, allowed)
	}
	if len(f.Docs) > 1 {
		return nil, nil, l.errf(file, 2, 1, "", "front matter holds more than one YAML document")
	}
	m = &yamlMap{}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return m, nil, nil
	}
	body = f.Docs[0].Body
	var bad ast.Node
	ast.Walk(visitFunc(func(n ast.Node) bool {
		switch n.(type) {
		case *ast.AnchorNode, *ast.AliasNode, *ast.TagNode:
			bad = n
		}
		return bad == nil
	}), body)
	if bad != nil {
		line, col := pos(bad)
		return nil, nil, l.errf(file, line, col, "write the value out", "front matter: YAML %s are not allowed here", map[ast.NodeType]string{ast.AnchorType: "anchors", ast.AliasType: "aliases", ast.TagType: "tags"}[bad.Type()])
	}
	switch b := body.(type) {
	case *ast.MappingNode:
		m.entries = b.Values
	case *ast.MappingValueNode:
		m.entries = []*ast.MappingValueNode{b}
	default:
		line, col := pos(body)
		return nil, nil, l.errf(file, line, col, "write key: value lines", "front matter must be a mapping, not %s", strings.ToLower(body.Type().String()))
	}
	return m, body, nil
}

// maxYAMLDepth bounds nesting in front matter. go-yaml's parser is recursive
// and slows down quadratically with depth (measured: 20,000 nested "- " take
// 1.8 s; far deeper input overflows the stack, which no recover can catch),
// so deep input is refused before it reaches the parser.
const maxYAMLDepth = 32

// tooDeep returns the offset where src nests flow collections ("[", "{")
// or block sequence markers ("- - -" on one line) more than maxYAMLDepth
// deep, or -1. It ignores quoting, so it may over-count brackets inside
// strings; no real front matter comes near the limit.
func tooDeep(src []byte) int {
	flow, dashes, lineStart := 0, 0, true
	for i, c := range src {
		if c == '\n' {
			lineStart, dashes = true, 0
			continue
		}
		switch {
		case c == '[' || c == '{':
			flow++
		case (c == ']' || c == '}') && flow > 0:
			flow--
		}
		if lineStart {
			lineStart, dashes = indent(src, i, dashes)
		}
		if flow > maxYAMLDepth || dashes > maxYAMLDepth {
			return i
		}
	}
	return -1
}

// indent reads src[i] in the indentation of a line: a blank, or a block
// sequence marker ("-" then a blank), which adds one to dashes. It
// reports whether the indentation goes on, and the dashes.
func indent(src []byte, i, dashes int) (bool, int) {
	switch c := src[i]; {
	case c == ' ' || c == '\t':
		return true, dashes
	case c == '-' && i+1 < len(src) && (src[i+1] == ' ' || src[i+1] == '\t'):
		return true, dashes + 1
	}
	return false, dashes
}

type visitFunc func(ast.Node) bool

func (f visitFunc) Visit(n ast.Node) ast.Visitor {
	if n == nil || !f(n) {
		return nil
	}
	return f
}

// yamlMap finds the positions of keys and values of a decoded mapping.
type yamlMap struct{ entries []*ast.MappingValueNode }

func (m *yamlMap) entry(key string) *ast.MappingValueNode {
	if m == nil {
		return nil
	}
	for _, e := range m.entries {
		if e.Key != nil && e.Key.GetToken() != nil && e.Key.GetToken().Value == key {
			return e
		}
	}
	return nil
}

func (m *yamlMap) value(key string) ast.Node {
	if e := m.entry(key); e != nil {
		return e.Value
	}
	return nil
}

// at returns the file position of key's value, or of the key line when the
// value is absent; (2, 1) when the key is missing.
func (m *yamlMap) at(key string) (line, col int) {
	if v := m.value(key); v != nil {
		return pos(v)
	}
	return 2, 1
}

// keyPos returns the position of key itself, or (0, 0).
func (m *yamlMap) keyPos(key string) (line, col int) {
	if e := m.entry(key); e != nil {
		return pos(e.Key)
	}
	return 0, 0
}

// sub returns the entries of the mapping under key.
func (m *yamlMap) sub(key string) *yamlMap {
	switch v := m.value(key).(type) {
	case *ast.MappingNode:
		return &yamlMap{v.Values}
	case *ast.MappingValueNode:
		return &yamlMap{[]*ast.MappingValueNode{v}}
	}
	return nil
}

// item returns the position of the i-th element of the sequence under key.
func (m *yamlMap) item(key string, i int) (line, col int) {
	if s, ok := m.value(key).(*ast.SequenceNode); ok && i < len(s.Values) {
		return pos(s.Values[i])
	}
	return m.at(key)
}

// pos is the position of n in the Markdown file (front matter starts on
// line 2).
func pos(n ast.Node) (line, col int) {
	tk := n.GetToken()
	if tk == nil || tk.Position == nil {
		return 2, 1
	}
	return tk.Position.Line + 1, tk.Position.Column
}

// invalidUTF8OrNUL returns the position of the first invalid UTF-8 sequence
// or NUL byte in data, or 0, 0.
func invalidUTF8OrNUL(data []byte) (line, col int) {
	for i := 0; i < len(data); {
		r, size := rune(data[i]), 1
		if r >= 0x80 {
			r, size = decodeRune(data[i:])
		}
		if r == 0 || r == 0xFFFD && size == 1 {
			return jsonfile.Position(data, i)
		}
		i += size
	}
	return 0, 0
}
