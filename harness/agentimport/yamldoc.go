package agentimport

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Limits of what an import reads.
const (
	// MaxSourceBytes bounds one agent file, recipe or plugin.json (1 MiB).
	MaxSourceBytes = 1 << 20
)

// yamlDoc is a YAML mapping as read: its top-level keys in file order,
// each with the line it stands on (in the source file) and its value.
type yamlDoc struct {
	path   string
	fields []yamlField
}

type yamlField struct {
	key  string
	line int
	node ast.Node
}

// readFile reads a source file of at most MaxSourceBytes.
func readFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxSourceBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxSourceBytes {
		return nil, fmt.Errorf("%s is larger than %d KB; an agent or recipe file is a few pages of text", path, MaxSourceBytes>>10)
	}
	return data, nil
}

// markdown is a Markdown file with optional YAML front matter.
type markdown struct {
	front    []byte // the front matter's text, "" when none
	fmLine   int    // the line the front matter starts on (2 after "---")
	body     string // the text after the front matter, trimmed
	hasFront bool
}

// splitMarkdown splits data at its front matter: a first line "---",
// the YAML, a line "---" (or "..."). A byte order mark and CRLF line ends
// are accepted.
func splitMarkdown(path string, data []byte) (markdown, error) {
	text := strings.ReplaceAll(string(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))), "\r\n", "\n")
	first, rest, _ := strings.Cut(text, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return markdown{body: strings.TrimSpace(text)}, nil
	}
	lines := strings.SplitAfter(rest, "\n")
	for i, l := range lines {
		if t := strings.TrimRight(l, " \t\n"); t == "---" || t == "..." {
			return markdown{
				front: []byte(strings.Join(lines[:i], "")), fmLine: 2, hasFront: true,
				body: strings.TrimSpace(strings.Join(lines[i+1:], "")),
			}, nil
		}
	}
	return markdown{}, fmt.Errorf("%s:1: the front matter opened by \"---\" on line 1 is not closed; add a line \"---\" after its last field", path)
}

// parseYAML reads src, which starts on line first of the file at path,
// as a mapping. An empty document is an empty mapping.
func parseYAML(path string, src []byte, first int) (*yamlDoc, error) {
	doc := &yamlDoc{path: path}
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return nil, yamlError(path, first, err)
	}
	if len(f.Docs) == 0 || f.Docs[0].Body == nil {
		return doc, nil
	}
	if len(f.Docs) > 1 {
		return nil, fmt.Errorf("%s: holds more than one YAML document; keep the first", path)
	}
	var entries []*ast.MappingValueNode
	switch b := f.Docs[0].Body.(type) {
	case *ast.MappingNode:
		entries = b.Values
	case *ast.MappingValueNode:
		entries = []*ast.MappingValueNode{b}
	default:
		return nil, fmt.Errorf("%s:%d: is not a YAML mapping of key: value lines", path, first)
	}
	for _, e := range entries { // a key twice is a syntax error of the parser's
		if e.Key == nil || e.Key.GetToken() == nil || e.Value == nil {
			continue
		}
		key := e.Key.GetToken().Value
		line := first + e.Key.GetToken().Position.Line - 1
		doc.fields = append(doc.fields, yamlField{key: key, line: line, node: e.Value})
	}
	return doc, nil
}

// yamlError words a YAML syntax error at its line in the file, and the
// lines it refers to ("[2:1]") as the file's.
func yamlError(path string, first int, err error) error {
	var ye yaml.Error
	if errors.As(err, &ye) && ye.GetToken() != nil {
		msg := refRE.ReplaceAllStringFunc(ye.GetMessage(), func(m string) string {
			p := refRE.FindStringSubmatch(m)
			line, _ := strconv.Atoi(p[1])
			return fmt.Sprintf("line %d, column %s", first+line-1, p[2])
		})
		msg = strings.ReplaceAll(msg, "\t", `\t`)
		fix := `quote a value that holds ": " or starts with a special character`
		if strings.Contains(msg, "already defined") {
			fix = "keep one of them"
		}
		return fmt.Errorf("%s:%d: not valid YAML: %s; %s", path, first+ye.GetToken().Position.Line-1, msg, fix)
	}
	return fmt.Errorf("%s: not valid YAML: %v", path, err)
}

var refRE = regexp.MustCompile(`\[(\d+):(\d+)\]`)

// field returns the entry of key, or nil.
func (d *yamlDoc) field(key string) *yamlField {
	for i := range d.fields {
		if d.fields[i].key == key {
			return &d.fields[i]
		}
	}
	return nil
}

// has reports whether key is present.
func (d *yamlDoc) has(key string) bool { return d.field(key) != nil }

// str decodes key as a string ("" when missing); a value of another
// kind (a number, a list) is an error at its line.
func (d *yamlDoc) str(key string) (string, error) {
	f := d.field(key)
	if f == nil {
		return "", nil
	}
	if _, isNull := f.node.(*ast.NullNode); isNull {
		return "", nil
	}
	switch f.node.(type) {
	case *ast.SequenceNode, *ast.MappingNode, *ast.MappingValueNode:
		return "", fmt.Errorf("%s:%d: %s must be text, not a list or mapping", d.path, f.line, key)
	}
	var s string
	if err := yaml.NodeToValue(f.node, &s); err != nil {
		return "", fmt.Errorf("%s:%d: %s must be text: %s", d.path, f.line, key, yamlMessage(err))
	}
	return s, nil
}

// strs decodes each of keys as a string (str) into the matching dst,
// in order; the first error stops it.
func (d *yamlDoc) strs(keys []string, dst ...*string) error {
	for i, k := range keys {
		s, err := d.str(k)
		if err != nil {
			return err
		}
		*dst[i] = s
	}
	return nil
}

// decode decodes key into v; false (and no error) when missing.
func (d *yamlDoc) decode(key string, v any) (bool, error) {
	f := d.field(key)
	if f == nil {
		return false, nil
	}
	if _, isNull := f.node.(*ast.NullNode); isNull {
		return false, nil
	}
	if err := yaml.NodeToValue(f.node, v); err != nil {
		return true, fmt.Errorf("%s:%d: %s: %s", d.path, f.line, key, yamlMessage(err))
	}
	return true, nil
}

func yamlMessage(err error) string {
	var ye yaml.Error
	if errors.As(err, &ye) {
		return ye.GetMessage()
	}
	return err.Error()
}

// ignore lists the keys of d that known does not hold, each with the
// reason why given in reasons (or a generic one).
func (d *yamlDoc) ignore(known map[string]bool, reasons map[string]string, what string) []Ignored {
	var out []Ignored
	for _, f := range d.fields {
		if known[f.key] {
			continue
		}
		why := reasons[f.key]
		if why == "" {
			why = "not a field of " + what + " that OpenWorker knows"
		}
		out = append(out, Ignored{Field: f.key, Line: f.line, Reason: why})
	}
	return out
}
