package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"syscall"

	"golang.org/x/sys/windows"
)

// Check reports why Windows cannot enforce r; nil when it can
// (docs/sandbox.md#windows).
//
// The Windows sandbox is a restricted token at low integrity
// (token_windows.go), used as the program's primary token; the Job
// object of harness/mcp still holds the process tree. What it confines:
// writing to files and folders outside r.Write (Prepare gives those the
// Low label), registry keys outside HKCU\Software\AppDataLow, opening
// other processes of the person for writing (injecting code, ending
// them), sending messages to their windows, and privileges (none is
// left but SeChangeNotifyPrivilege; Administrators is deny-only). What
// it does not confine: reading (a low-integrity program reads every file
// the person can), the network (any address and port), writing where
// an object's label is already Low (%USERPROFILE%\AppData\LocalLow and
// the like), and anything outside the process tree.
//
// So Check refuses a placement that asks for more than that, fail
// closed (lowIntegrityCheck): a network other than "any", and a read
// list that does not include the root of a drive (C:\, written "C:\\"
// in JSON), which is how a placement says honestly that the program
// reads every file. It refuses Rules whose write paths are not absolute.
func Check(r *Rules) error {
	if err := lowIntegrityCheck(r, systemDrive()); err != nil {
		return err
	}
	for _, p := range r.Write {
		if !filepath.IsAbs(p) {
			return fmt.Errorf("sandbox path %q is not absolute", p)
		}
	}
	return nil
}

func systemDrive() string {
	if d := os.Getenv("SystemDrive"); d != "" {
		return d
	}
	return "C:"
}

// Prepare makes cmd (built by exec.Command, with SysProcAttr as
// harness/mcp's setupCommand set it: kept) run its program inside r: it
// gives every write path the Low mandatory label until Release (recorded
// and put back: labels_windows.go), and sets the restricted low-integrity token as
// SysProcAttr.Token, so that os/exec starts the program with
// CreateProcessAsUser. TMPDIR, TMP and TEMP are set to r.Temp. A
// placement that cannot be enforced is refused before anything changes
// (Check). The token is closed when cmd is garbage collected.
func Prepare(cmd *exec.Cmd, r *Rules) error {
	if err := Check(r); err != nil {
		return err
	}
	for _, p := range r.Write {
		st, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("sandbox path %s: %w", p, err)
		}
		if err := labelFor(p, st.IsDir(), r.Temp); err != nil {
			return err
		}
	}
	tok, err := lowToken()
	if err != nil {
		return fmt.Errorf("the low-integrity token of the Windows sandbox: %w", err)
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Token = syscall.Token(tok)
	runtime.AddCleanup(cmd, func(t windows.Token) { t.Close() }, tok)
	setTemp(cmd, r.Temp)
	return nil
}

// confineAndExec is the Linux launcher's; Windows needs none.
func confineAndExec(*Rules, string, []string) error {
	return errors.New("the sandbox launcher runs only on Linux; on Windows the program starts with a low-integrity token")
}
