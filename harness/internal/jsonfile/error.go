package jsonfile

import "fmt"

// Error is a problem at a place in a file. Line and Col are 1-based; Col
// counts characters (UTF-8 code points), not bytes, as editors do. Line 0
// means the problem concerns the whole file.
type Error struct {
	File      string
	Line, Col int
	Msg       string // what is wrong
	Fix       string // what to change; may be empty
}

// Error formats e as "FILE:LINE:COL: MSG; FIX" (the "; FIX" part only when
// Fix is set, the ":LINE:COL" part only when Line > 0).
func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(":%d:%d", e.Line, e.Col)
	}
	s += ": " + e.Msg
	if e.Fix != "" {
		s += "; " + e.Fix
	}
	return s
}

// Position converts a byte offset in data into a 1-based line and column.
// The column counts UTF-8 code points (bytes that do not continue a
// multi-byte sequence). An offset outside data is clamped to it.
func Position(data []byte, offset int) (line, col int) {
	var p parser
	p.data, p.src = data, data
	if offset < 0 {
		offset = 0
	}
	return p.pos(offset)
}
