// Package jsonfile parses small JSON configuration files (tools.json,
// servers.json) into a tree that remembers where every value and key is, so
// that every error names the file, the line and the column.
//
// It is stricter than encoding/json: duplicate keys are errors, trailing data
// is an error, files over [MaxSize] bytes and nesting deeper than [MaxDepth]
// are refused. The walking helpers ([Node.Keys], [Node.AsString], ...) report
// unknown fields and wrong types at their own position.
//
//	root, err := jsonfile.Parse("tools.json", data)
//	if err != nil { return err } // a *jsonfile.Error: "tools.json:3:7: ..."
//	if err := root.Keys("version", "tools"); err != nil { return err }
//	v, err := root.Get("version").AsInt()
package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// Limits of Parse.
const (
	MaxSize  = 1 << 20 // bytes of one file (1 MiB)
	MaxDepth = 64      // nested arrays and objects
)

// Kind is the JSON type of a Node.
type Kind uint8

// The JSON kinds.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// String returns the kind with its article, for messages: "a string".
func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "a boolean"
	case Number:
		return "a number"
	case String:
		return "a string"
	case Array:
		return "an array"
	case Object:
		return "an object"
	}
	return fmt.Sprintf("kind %d", uint8(k))
}

// Node is one JSON value and where it starts. Only the fields of its Kind are
// set: Bool, Num, Str, Items (Array) or Fields (Object, in file order).
type Node struct {
	Kind      Kind
	File      string
	Path      string // for messages: "servers.acer.args[1]"; "" for the root
	Line, Col int    // 1-based; Col counts code points
	Bool      bool
	Num       json.Number
	Str       string
	Items     []*Node
	Fields    []*Field
}

// Field is one key of an object, where the key starts, and its value.
type Field struct {
	Key       string
	Line, Col int
	Value     *Node
}

// Parse parses data, the contents of file, into a tree. The error, if any, is
// a *Error naming file, line and column: a syntax error, a duplicate key
// (naming the line of the first), data after the value, an empty file, a
// file over MaxSize bytes or nesting over MaxDepth. A UTF-8 byte order mark
// is ignored. Parse never panics.
func Parse(file string, data []byte) (*Node, error) {
	if len(data) > MaxSize {
		return nil, tooBig(file, len(data))
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	return parse(file, data, data)
}

func tooBig(file string, n int) *Error {
	return &Error{File: file, Msg: fmt.Sprintf("file is %d bytes; the limit is %d bytes (1 MiB)", n, MaxSize), Fix: "make it smaller"}
}

// parse parses data; src is the text positions are counted in (data
// itself, or the JSONC text data was standardized from: same length, same
// line breaks).
func parse(file string, data, src []byte) (*Node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	p := &parser{file: file, data: data, src: src, dec: dec}
	tok, off, err := p.next()
	if err == io.EOF {
		return nil, &Error{File: file, Line: 1, Col: 1, Msg: "file is empty", Fix: "write a JSON object"}
	}
	if err != nil {
		return nil, err
	}
	root, err := p.value(tok, off, "", 0)
	if err != nil {
		return nil, err
	}
	_, off, err = p.next()
	switch {
	case err == io.EOF:
		return root, nil
	case err != nil:
		return nil, err
	}
	return nil, p.errAt(off, "unexpected data after the top-level value", "remove it or wrap the values in one array or object")
}

type parser struct {
	file string
	data []byte
	src  []byte // where positions are counted: data, or the JSONC it came from
	dec  *json.Decoder

	off, line, col int // cursor of pos
}

func (p *parser) errAt(off int, msg, fix string) *Error {
	line, col := Position(p.src, off)
	return &Error{File: p.file, Line: line, Col: col, Msg: msg, Fix: fix}
}

// next returns the next token and the byte offset where it starts.
func (p *parser) next() (json.Token, int, error) {
	start := int(p.dec.InputOffset())
	tok, err := p.dec.Token()
	if err != nil {
		return nil, 0, p.convert(err, start)
	}
	for start < len(p.data) && strings.IndexByte(" \t\r\n,:", p.data[start]) >= 0 {
		start++
	}
	return tok, start, nil
}

func (p *parser) convert(err error, start int) error {
	if err == io.EOF {
		return io.EOF
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// The streaming decoder reports the offset of the token it was
		// reading, not of the bad byte; a whole-input check finds the byte.
		// Both stop at the same first error.
		var raw json.RawMessage
		if uerr := json.Unmarshal(p.data, &raw); errors.As(uerr, &se) {
			if int(se.Offset) >= len(p.data) && strings.Contains(se.Error(), "end of JSON input") {
				return p.errAt(len(p.data), "invalid JSON: unexpected end of file", "close every open string, array and object")
			}
			return p.errAt(int(se.Offset)-1, "invalid JSON: "+strings.TrimPrefix(se.Error(), "json: "), syntaxFix(p.data, int(se.Offset)-1))
		}
		return p.errAt(start, "invalid JSON: "+strings.TrimPrefix(err.Error(), "json: "), "")
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return p.errAt(len(p.data), "invalid JSON: unexpected end of file", "close every open string, array and object")
	}
	return p.errAt(start, "invalid JSON: "+err.Error(), "")
}

// pos returns the line and column of off. Offsets asked for while parsing
// only grow, so it advances a cursor instead of rescanning from the start
// (which would be quadratic on a 1 MiB file of small values).
func (p *parser) pos(off int) (line, col int) {
	if off < p.off || p.line == 0 {
		p.off, p.line, p.col = 0, 1, 1
	}
	if off > len(p.src) {
		off = len(p.src)
	}
	for ; p.off < off; p.off++ {
		switch c := p.src[p.off]; {
		case c == '\n':
			p.line, p.col = p.line+1, 1
		case c&0xC0 != 0x80: // not a UTF-8 continuation byte
			p.col++
		}
	}
	return p.line, p.col
}

func (p *parser) node(kind Kind, off int, path string) *Node {
	line, col := p.pos(off)
	return &Node{Kind: kind, File: p.file, Path: path, Line: line, Col: col}
}

func (p *parser) value(tok json.Token, off int, path string, depth int) (*Node, error) {
	switch t := tok.(type) {
	case nil:
		return p.node(Null, off, path), nil
	case bool:
		n := p.node(Bool, off, path)
		n.Bool = t
		return n, nil
	case json.Number:
		n := p.node(Number, off, path)
		n.Num = t
		return n, nil
	case string:
		n := p.node(String, off, path)
		n.Str = t
		return n, nil
	case json.Delim:
		if depth >= MaxDepth {
			return nil, p.errAt(off, fmt.Sprintf("values are nested more than %d deep", MaxDepth), "flatten the file")
		}
		if t == '[' {
			return p.array(off, path, depth)
		}
		if t == '{' {
			return p.object(off, path, depth)
		}
	}
	return nil, p.errAt(off, fmt.Sprintf("invalid JSON: unexpected %v", tok), "")
}

func (p *parser) array(off int, path string, depth int) (*Node, error) {
	n := p.node(Array, off, path)
	for {
		tok, off, err := p.next()
		if err != nil {
			return nil, p.eof(err)
		}
		if tok == json.Delim(']') {
			return n, nil
		}
		item, err := p.value(tok, off, fmt.Sprintf("%s[%d]", path, len(n.Items)), depth+1)
		if err != nil {
			return nil, err
		}
		n.Items = append(n.Items, item)
	}
}

func (p *parser) object(off int, path string, depth int) (*Node, error) {
	n := p.node(Object, off, path)
	seen := map[string]*Field{}
	for {
		tok, koff, err := p.next()
		if err != nil {
			return nil, p.eof(err)
		}
		if tok == json.Delim('}') {
			return n, nil
		}
		key, ok := tok.(string)
		if !ok { // the decoder guarantees string keys; stay safe anyway
			return nil, p.errAt(koff, "invalid JSON: object key is not a string", "")
		}
		line, col := p.pos(koff)
		if first, dup := seen[key]; dup {
			return nil, &Error{File: p.file, Line: line, Col: col,
				Msg: fmt.Sprintf("duplicate key %q (first at line %d, column %d)", key, first.Line, first.Col),
				Fix: "keep only one of them"}
		}
		tok, voff, err := p.next()
		if err != nil {
			return nil, p.eof(err)
		}
		child := key
		if path != "" {
			child = path + "." + key
		}
		v, err := p.value(tok, voff, child, depth+1)
		if err != nil {
			return nil, err
		}
		f := &Field{Key: key, Line: line, Col: col, Value: v}
		seen[key] = f
		n.Fields = append(n.Fields, f)
	}
}

// eof turns an end of input inside a value into a positioned error.
func (p *parser) eof(err error) error {
	if err == io.EOF {
		return p.errAt(len(p.data), "invalid JSON: unexpected end of file", "close every open string, array and object")
	}
	return err
}

// syntaxFix suggests the likely repair for a syntax error at the byte off.
func syntaxFix(data []byte, off int) string {
	if off < 0 || off >= len(data) {
		return "check the JSON syntax: strings in double quotes, commas between items, no comments"
	}
	prev := byte(0) // the last byte before off that is not white space
	if before := bytes.TrimRight(data[:off], " \t\n\r"); len(before) > 0 {
		prev = before[len(before)-1]
	}
	switch c := data[off]; {
	case (c == ']' || c == '}') && prev == ',':
		return "remove the comma before it (JSON allows no trailing commas)"
	case c == '\'':
		return "use double quotes for strings and keys"
	case c == '/' || c == '#':
		return "remove the comment (JSON has no comments)"
	case startsValue(c) && endsValue(prev):
		return "add a comma between the two values"
	}
	return "check the JSON syntax here: strings in double quotes, commas between items, no comments"
}

// startsValue reports whether c opens a string, an object or an array.
func startsValue(c byte) bool { return strings.IndexByte(`"{[`, c) >= 0 }

// endsValue reports whether c may end a value (a string, an object, an
// array or a number).
func endsValue(c byte) bool { return strings.IndexByte(`"}]0123456789`, c) >= 0 }
