package manifest

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// MaxProblems bounds how many problems one Error lists; the rest are
// counted in a last line ("and 12 more problems").
const MaxProblems = 100

// Problem is one thing wrong in manifest.json, at a 1-based line and column
// (columns count characters). Line 0 means the whole file.
type Problem struct {
	Line, Col int
	Path      string // the field, "server.type", "user_config.dir.min", "tools[2].name"; "" for the top level
	Msg       string // what is wrong: `"ruby" is not one of python, node, binary, uv`
	Fix       string // what to change; may be empty
}

// String is "PATH: MSG (FIX)", without the position.
func (p Problem) String() string {
	s := p.Msg
	if p.Path != "" {
		s = p.Path + ": " + s
	}
	if p.Fix != "" {
		s += " (" + p.Fix + ")"
	}
	return s
}

// Error is every problem Parse found in a manifest. Error() has one line per
// problem: "manifest.json:L:C: PATH: MSG (FIX)", sorted by position.
type Error struct {
	File     string
	Problems []Problem // at most MaxProblems
	More     int       // problems found beyond MaxProblems
}

func (e *Error) Error() string {
	var b strings.Builder
	for i, p := range e.Problems {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.File)
		if p.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", p.Line, p.Col)
		}
		b.WriteString(": " + p.String())
	}
	if e.More > 0 {
		fmt.Fprintf(&b, "\n%s: and %d more problems", e.File, e.More)
	}
	return b.String()
}

// fromJSONFile turns a syntax error of jsonfile.Parse into a one-problem Error.
func fromJSONFile(file string, err error) *Error {
	var je *jsonfile.Error
	if !errors.As(err, &je) {
		return &Error{File: file, Problems: []Problem{{Msg: err.Error()}}}
	}
	return &Error{File: file, Problems: []Problem{{Line: je.Line, Col: je.Col, Msg: je.Msg, Fix: je.Fix}}}
}

// ValuesError lists every user_config value CheckValues refused, one per
// line: "user_config.KEY (TITLE): MSG (FIX)".
type ValuesError struct {
	Problems []string
}

func (e *ValuesError) Error() string { return strings.Join(e.Problems, "\n") }
