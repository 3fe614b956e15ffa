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
// executing and mapping as code any file outside r.Read and r.Write
// (r.Read is read-only); TCP and UDP other than r.Network allows (by
// address and port: "loopback" is outbound TCP and UDP to this computer,
// a port list outbound TCP to those ports plus DNS); listening, except
// under "any"; connecting to Unix-domain sockets, except mDNSResponder's
// (name lookups) under "loopback" and a port list, and all of them under
// "any"; signals and process
// information outside its own sandbox; Mach services other than the user
// database, logging and notifications (and, with a network, name lookup
// and certificate trust). It does not confine: the metadata (not the
// contents) of the folders above the listed paths, the machine's
// sysctls (not other processes' arguments), POSIX semaphores, what the
// program does with the file descriptors it inherits (its stdio pipes),
// and anything that runs outside its process tree.
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
