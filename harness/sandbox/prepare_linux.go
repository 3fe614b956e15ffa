package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"

	"github.com/openworker/desktop/harness/tool"
)

// Prepare makes cmd (built by exec.Command: Path and Args set) run its
// program inside r: on Linux the host executable runs first as the
// launcher (launcher.go), in a user and mount namespace of its own
// (root_linux.go), which gives the program a root with only r's paths,
// applies Landlock and seccomp, drops every capability and then executes
// the program with the same arguments and environment. TMPDIR,
// TMP and TEMP are set to r.Temp. A placement this kernel cannot
// enforce is refused here, before anything starts (Check).
func Prepare(cmd *exec.Cmd, r *Rules) error {
	if err := Check(r); err != nil {
		return err
	}
	exe, err := launcherPath()
	if err != nil {
		return err
	}
	setTemp(cmd, r.Temp)
	if cmd.Env == nil {
		cmd.Env = cmd.Environ()
	}
	// The loader's variables are for the program: in the launcher, which
	// runs before the sandbox holds (and may be linked dynamically), an
	// LD_PRELOAD of the entry or of an extension's manifest would run its
	// code unconfined. The launcher puts them back when it executes the
	// program.
	rr := *r
	rr.Env = nil
	var env []string
	for _, kv := range cmd.Env {
		if k, _, _ := strings.Cut(kv, "="); loaderVar(k) {
			rr.Env = append(rr.Env, kv)
		} else {
			env = append(env, kv)
		}
	}
	cmd.Env = env
	spec, err := json.Marshal(&rr)
	if err != nil {
		return err
	}
	args := append([]string{exe, launcherArg, string(spec), cmd.Path}, cmd.Args[1:]...)
	cmd.Path, cmd.Args = exe, args
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	namespaces(cmd.SysProcAttr)
	if r.Network.Mode == tool.NetNone {
		// No network at all, not even loopback: and abstract Unix
		// sockets, which Landlock scopes only from ABI 6, belong to a
		// network namespace.
		cmd.SysProcAttr.Cloneflags |= syscall.CLONE_NEWNET
	}
	return nil
}

// loaderVar reports whether the variable k changes what the dynamic
// loader or the C library loads or writes before main: every LD_*, and
// the others glibc ignores for set-user-ID programs.
func loaderVar(k string) bool {
	if strings.HasPrefix(k, "LD_") {
		return true
	}
	switch k {
	case "GCONV_PATH", "GETCONF_DIR", "GLIBC_TUNABLES", "HOSTALIASES", "LOCALDOMAIN", "LOCPATH",
		"MALLOC_TRACE", "NIS_PATH", "NLSPATH", "RESOLV_HOST_CONF", "RES_OPTIONS", "TZDIR":
		return true
	}
	return false
}

// LauncherName is the file name of the small launcher program
// (cmd/openworker-sandbox) that Prepare runs when it is next to the
// executable; otherwise the executable itself is the launcher.
const LauncherName = "openworker-sandbox"

// launcherPath is LauncherName in the executable's folder when that is
// an executable file, else the executable.
func launcherPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("the sandbox launcher is this program, whose path is unknown: %w", err)
	}
	small := filepath.Join(filepath.Dir(exe), LauncherName)
	if st, err := os.Stat(small); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
		return small, nil
	}
	return exe, nil
}

// confineAndExec applies r on this thread and replaces the process with
// program; it returns only on failure. Landlock domains and seccomp
// filters belong to the thread that installs them and pass to what it
// executes, so the thread stays locked and nothing else runs between.
func confineAndExec(r *Rules, program string, argv []string) error {
	runtime.LockOSThread()
	if err := Check(r); err != nil {
		return err
	}
	if err := newRoot(r); err != nil {
		return err
	}
	if err := landlockSelf(r); err != nil {
		return err
	}
	if err := dropCapabilities(); err != nil {
		return err
	}
	if err := seccompSelf(r); err != nil {
		return err
	}
	env := append(os.Environ(), r.Env...)
	if err := syscall.Exec(program, argv, env); err != nil {
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.EACCES) {
			// Outside the read paths the program (or its interpreter or
			// loader) does not exist or may not be executed here.
			return fmt.Errorf("execute %s: %w: the program, its interpreter (#!) or its libraries are not inside the sandbox's read paths; add their folder (${program_dir} is the program's, ${system} the system's)", program, err)
		}
		return fmt.Errorf("execute %s: %w", program, err)
	}
	return nil
}
