//go:build !linux

package freedesktop

import "os/exec"

// dieWithParent is Linux-only (PR_SET_PDEATHSIG); elsewhere zenity ends when
// the user closes it or its --timeout passes.
func dieWithParent(*exec.Cmd) (release func()) { return func() {} }
