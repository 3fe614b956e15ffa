package mcp

import (
	"path/filepath"
	"slices"
	"strconv"

	"github.com/openworker/desktop/internal/redact"
)

// commandForms lists, longest first, the forms a "command" that had
// variables substituted into it takes in a start error, so that none shows
// the value (docs/servers.md#substitution): the value as written, the
// program it resolved to (an absolute path: on Windows a path written with
// slashes gets backslashes and, without a drive, the install folder before
// it) and the value with the OS's separators; each of them also as Go's %q
// writes it, which is how os/exec names a program it cannot start on
// Windows (`exec: "C:\\dir\\server": executable file not found in %PATH%`).
// Found by running the Windows build under Wine
// (scripts/test-windows-wine.sh, TestStartErrorNamesTheVariable): on Unix
// the error is `fork/exec /dir/server`, the value as written.
func commandForms(written, resolved string) []string {
	var forms []string
	for _, v := range []string{resolved, written, filepath.FromSlash(written)} {
		if len(v) < redact.MinSecret {
			continue
		}
		q := strconv.Quote(v)
		forms = append(forms, v, q[1:len(q)-1])
	}
	slices.SortStableFunc(forms, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(forms)
}
