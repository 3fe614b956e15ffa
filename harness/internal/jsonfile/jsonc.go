package jsonfile

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tailscale/hujson"
)

// ParseJSONC is Parse for JSON with comments: it also accepts // and /* */
// comments and trailing commas (JSONC, as VS Code's mcp.json and other
// clients' config files are written). Every other rule of Parse holds
// (duplicate keys, size, depth). Lines and columns are those of data as
// written: comments are blanked out byte for byte
// (github.com/tailscale/hujson's Standardize) and positions are counted in
// the original text.
func ParseJSONC(file string, data []byte) (*Node, error) {
	if len(data) > MaxSize {
		return nil, tooBig(file, len(data))
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &Error{File: file, Line: 1, Col: 1, Msg: "file is empty", Fix: "write a JSON object"}
	}
	std, err := hujson.Standardize(bytes.Clone(data)) // Standardize rewrites its input
	if err != nil {
		return nil, jsoncError(file, data, err)
	}
	if len(std) != len(data) {
		// Standardize keeps every offset; if it ever did not, positions
		// would be wrong, so parse the text as plain JSON instead.
		return parse(file, data, data)
	}
	return parse(file, std, data)
}

var hujsonPos = regexp.MustCompile(`^hujson: line (\d+), column (\d+): `)

// jsoncError turns a hujson syntax error ("hujson: line L, column C: msg",
// C counted in bytes) into a *Error at the same place, its column counted
// in code points like every other position.
func jsoncError(file string, data []byte, err error) *Error {
	msg := err.Error()
	m := hujsonPos.FindStringSubmatch(msg)
	if m == nil {
		return &Error{File: file, Msg: "invalid JSON: " + strings.TrimPrefix(msg, "hujson: "), Fix: "check the syntax: strings in double quotes, commas between items"}
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	off := 0
	for l := 1; l < line && off < len(data); l++ {
		i := bytes.IndexByte(data[off:], '\n')
		if i < 0 {
			off = len(data)
			break
		}
		off += i + 1
	}
	off = min(off+col-1, len(data))
	msg = strings.TrimPrefix(msg, m[0])
	fix := "check the syntax here: strings in double quotes, commas between items"
	if strings.Contains(msg, "unexpected EOF") {
		msg, fix = "unexpected end of file", "close every open string, array, object and /* comment"
	} else if off < len(data) && data[off] == '\'' {
		fix = "use double quotes for strings and keys"
	}
	l, c := Position(data, off)
	return &Error{File: file, Line: l, Col: c, Msg: fmt.Sprintf("invalid JSON: %s", msg), Fix: fix}
}
