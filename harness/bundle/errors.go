package bundle

import (
	"fmt"

	"github.com/openworker/desktop/harness/internal/jsonfile"
)

// LoadError is why one bundle could not be loaded. File is the path of the
// file at fault (or the bundle folder itself); Line and Col are 1-based, Col
// counting characters, and both are 0 when the problem is the file as a
// whole (missing, too large). Msg says what is wrong, Fix what to change.
// Field is set only by Validate and ReadDraft: the JSON name of the Draft
// field the problem is in ("name", "tools", "policy", ...), "" when it is
// in none (a missing file, a link that leads out).
type LoadError struct {
	Dir   string `json:"dir"` // the bundle folder, <bundles>/<id>
	File  string `json:"file"`
	Line  int    `json:"line"`
	Col   int    `json:"col"`
	Msg   string `json:"msg"`
	Fix   string `json:"fix"`
	Field string `json:"field,omitempty"`
}

// Error formats e as "FILE:LINE:COL: MSG; FIX", leaving out ":LINE:COL"
// when Line is 0 and "; FIX" when Fix is empty.
func (e *LoadError) Error() string {
	j := jsonfile.Error{File: e.File, Line: e.Line, Col: e.Col, Msg: e.Msg, Fix: e.Fix}
	if j.File == "" {
		j.File = e.Dir
	}
	return j.Error()
}

// loader accumulates the context of errors while one bundle loads.
type loader struct {
	dir  string // the bundle folder, as given
	root string // dir with every link resolved (see paths.go)
	// overlay holds files read from memory instead of disk, by path
	// relative to dir with slashes ("coworker/manifest.md"): a draft
	// is checked by the same rules before it is saved (draft.go).
	overlay map[string][]byte
	// notices are what loading found that does not stop the bundle
	// loading (notice.go), in the order found.
	notices []Notice
}

func (l *loader) errf(file string, line, col int, fix, format string, args ...any) *LoadError {
	return &LoadError{Dir: l.dir, File: file, Line: line, Col: col, Msg: fmt.Sprintf(format, args...), Fix: fix}
}

// fromJSON converts a jsonfile error (or any error) into a LoadError.
func (l *loader) fromJSON(file string, err error) *LoadError {
	if e, ok := jsonfile.AsError(err); ok {
		return &LoadError{Dir: l.dir, File: e.File, Line: e.Line, Col: e.Col, Msg: e.Msg, Fix: e.Fix}
	}
	return &LoadError{Dir: l.dir, File: file, Msg: err.Error()}
}
