package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
)

// sandboxExec is macOS's sandbox-exec: it applies an SBPL profile to
// itself and executes the program, which inherits the sandbox with every
// process it starts. It is deprecated in its manual page but present on
// every macOS release OpenWorker supports, and it is what the
// command-line coding agents use.
const sandboxExec = "/usr/bin/sandbox-exec"

// Check reports why this Mac cannot enforce r, naming what is missing:
// sandbox-exec is absent, or the rules cannot be written as a profile
// (Profile's errors). nil when it can.
//
// What the profile confines (docs/sandbox.md#macos): reading, writing,
// executing and mapping files outside r.Read and r.Write; TCP and UDP
// outside r.Network (loopback and port lists are enforced by address and
// port); Unix-domain sockets under "none" and "loopback"; signals and
// process information outside the sandbox; Mach services other than
// the user database, logging and notifications (and, with a network,
// name lookup and certificate trust). It does not confine: file
// metadata of the folders above the listed paths, sysctls about the
// machine, what the program reads from inherited file descriptors, and
// anything that runs outside the process tree.
func Check(r *Rules) error {
	if _, err := os.Stat(sandboxExec); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("this Mac has no %s, which the sandbox needs", sandboxExec)
		}
		return fmt.Errorf("the sandbox needs %s: %w", sandboxExec, err)
	}
	_, err := Profile(r)
	return err
}

// Prepare makes cmd (built by exec.Command: Path and Args set) run its
// program inside r: cmd runs sandbox-exec with the profile of r
// (Profile), which executes the program with the same arguments and
// environment; TMPDIR, TMP and TEMP are set to r.Temp. A placement that
// cannot be enforced is refused here, before anything starts (Check).
func Prepare(cmd *exec.Cmd, r *Rules) error {
	if err := Check(r); err != nil {
		return err
	}
	profile, err := Profile(r)
	if err != nil {
		return err
	}
	args := append([]string{"sandbox-exec", "-p", profile, cmd.Path}, cmd.Args[1:]...)
	cmd.Path, cmd.Args = sandboxExec, args
	setTemp(cmd, r.Temp)
	return nil
}

// confineAndExec is the Linux launcher's; on macOS sandbox-exec is the
// launcher, so it refuses.
func confineAndExec(*Rules, string, []string) error {
	return errors.New("the sandbox launcher runs only on Linux; on macOS sandbox-exec confines the program")
}
