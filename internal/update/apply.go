package update

import (
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/minio/selfupdate"
)

// Target is what an update replaces.
type Target struct {
	// Exe is the running executable (os.Executable, symlinks resolved).
	Exe string
	// Platform is Platform() unless a test says otherwise.
	Platform string
	// Restart asks the Windows installer to start the app once it has
	// installed (its /START option): the app's own update at its start
	// does; `openworker update apply` does not.
	Restart bool
}

// Applied says what ApplyStaged did.
type Applied struct {
	Version string
	// Installer is true when an installer was started (Windows): the
	// program must exit now so the installer can replace it.
	Installer bool
}

// ApplyStaged applies the update staged in dir, if any, to t (at the start
// of the app, before anything else: docs/update.md#apply). ok is false
// when nothing was staged. The staged file is verified again first; a
// changed one is refused and forgotten, and the installed program is left
// as it was. Whatever happens, the stage is cleared so a broken update is
// not tried at every start.
func ApplyStaged(dir string, t Target) (a Applied, ok bool, err error) {
	removeLeftovers(dir)
	st, ok, err := ReadStaged(dir)
	if err != nil || !ok {
		return Applied{}, ok, err
	}
	a = Applied{Version: st.Version}
	path, err := verifyStaged(dir, st)
	if err != nil {
		Discard(dir)
		return a, true, err
	}
	if st.Platform != t.Platform {
		Discard(dir)
		return a, true, fmt.Errorf("the staged update is for %s, not %s: %w", st.Platform, t.Platform, ErrRefused)
	}
	switch {
	case strings.HasPrefix(t.Platform, "windows-"):
		err = startInstaller(path, t.Restart)
		a.Installer = err == nil
		// The installer holds its file open: forget the record now and
		// remove the file at a later start (removeLeftovers).
		os.Remove(filepath.Join(dir, stagedFile))
		return a, true, err
	case strings.HasPrefix(t.Platform, "darwin-"):
		err = replaceAppBundle(path, t.Exe)
	default:
		err = replaceExecutable(path, st.SHA256, t.Exe)
	}
	Discard(dir)
	return a, true, err
}

// replaceExecutable swaps exe for the file at path atomically (a rename
// in exe's folder), checking the SHA-256 once more as it copies.
func replaceExecutable(path, sha string, exe string) error {
	sum, err := hex.DecodeString(sha)
	if err != nil {
		return fmt.Errorf("the staged update's SHA-256 %q: %w", sha, err)
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := selfupdate.Apply(f, selfupdate.Options{TargetPath: exe, Checksum: sum}); err != nil {
		if rerr := selfupdate.RollbackError(err); rerr != nil {
			return fmt.Errorf("replace %s: %v, and putting the old one back failed too (%v): reinstall OpenWorker", exe, err, rerr)
		}
		return fmt.Errorf("replace %s: %w", exe, err)
	}
	return nil
}

// startInstaller runs the Windows installer silently (/S), detached: it
// waits for this program to exit, then installs over it, and with restart
// (/START) starts the app again.
func startInstaller(path string, restart bool) error {
	args := []string{"/S"}
	if restart {
		args = append(args, "/START")
	}
	cmd := exec.Command(path, args...)
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start the update installer %s: %w", path, err)
	}
	return cmd.Process.Release()
}

// removeLeftovers deletes files of dir that no staged record names: an
// installer that already ran, a download cut off.
func removeLeftovers(dir string) {
	st, _, _ := ReadStaged(dir)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.Name() != stagedFile && e.Name() != st.File {
			os.RemoveAll(filepath.Join(dir, e.Name()))
		}
	}
}
