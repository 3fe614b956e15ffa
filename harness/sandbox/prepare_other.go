//go:build !linux && !darwin && !windows

package sandbox

import (
	"fmt"
	"os/exec"
	"runtime"
)

// Check refuses every placement: this system has no sandbox OpenWorker
// can use (docs/sandbox.md).
func Check(*Rules) error {
	return fmt.Errorf("OpenWorker has no sandbox on %s", runtime.GOOS)
}

// Prepare refuses: see Check.
func Prepare(_ *exec.Cmd, r *Rules) error { return Check(r) }

func confineAndExec(r *Rules, _ string, _ []string) error { return Check(r) }
