package bundle

import (
	"fmt"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// Notice is something about a bundle that does not stop it loading, said
// so that it can be fixed (docs/bundles.md#notices): a SKILL.md front
// matter key the Agent Skills specification does not define, a skill
// name or description the specification would refuse, a skill attached
// under a mended name. File, Line and Col are as in LoadError (Line 0
// for a whole file or folder); Msg says what, Fix what to change.
type Notice struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"col"`
	Msg  string `json:"msg"`
	Fix  string `json:"fix,omitempty"`
}

// String formats n as "FILE:LINE:COL: MSG; FIX", as LoadError.Error does.
func (n Notice) String() string {
	return (&jsonfile.Error{File: n.File, Line: n.Line, Col: n.Col, Msg: n.Msg, Fix: n.Fix}).Error()
}

// notef adds a notice to the bundle being loaded.
func (l *loader) notef(file string, line, col int, fix, format string, args ...any) {
	l.notices = append(l.notices, Notice{File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...), Fix: fix})
}
