package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
)

// launcherArg is the first argument with which the host executable runs
// as the launcher of a sandboxed program (Linux: prepare_linux.go). It
// is followed by the Rules as JSON, the program and its arguments.
const launcherArg = "__openworker_sandbox_launcher__"

// launcherExit is the launcher's exit status when it cannot confine the
// program: the program has not run.
const launcherExit = 125

// init turns every binary that can start a sandboxed provider into its
// launcher: started with launcherArg, the process applies the rules and
// executes the program without running anything else of the binary
// (no other package's main or flags). It must be in init, not in a
// function a main calls, so that a partner's binary cannot forget it.
func init() {
	if len(os.Args) < 4 || os.Args[1] != launcherArg {
		return
	}
	var r Rules
	if err := json.Unmarshal([]byte(os.Args[2]), &r); err != nil {
		launcherFail(fmt.Errorf("the rules are not valid: %w", err))
	}
	err := confineAndExec(&r, os.Args[3], os.Args[3:])
	launcherFail(err) // confineAndExec returns only on failure
}

func launcherFail(err error) {
	fmt.Fprintf(os.Stderr, "openworker sandbox: %v; the program was not started\n", err)
	os.Exit(launcherExit)
}
