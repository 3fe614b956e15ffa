package sandbox

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// A sandboxed program sees only its own folders (docs/sandbox.md#linux):
// Landlock does not confine connecting to a Unix socket with a path
// before ABI 9, and a socket such as the desktop bus
// (/run/user/UID/bus) reaches the Secret Service, which hands out the
// person's passwords, and systemd, which runs any command outside the
// sandbox. So the launcher runs in a user and mount namespace of its own
// (namespaces, set by Prepare) and replaces the root with an empty one
// that holds only the rules' paths, its working folder and /proc
// (which Landlock keeps it from reading): every socket elsewhere is
// gone, and so is the metadata of files outside the lists.

// namespaces makes cmd start in a user and mount namespace of its own,
// as the same user and group. The capabilities to mount and to drop the
// others (in that namespace only) are ambient, so that they last through
// the execution of the launcher by a user other than root, until it
// drops them (dropCapabilities).
func namespaces(a *syscall.SysProcAttr) {
	a.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	a.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	a.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	a.GidMappingsEnableSetgroups = false
	a.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
}

// userNamespaces says why this system lets no unprivileged process make
// a user namespace, "" when it may.
func userNamespaces() string {
	read := func(p string) string { b, _ := os.ReadFile(p); return strings.TrimSpace(string(b)) }
	if !strings.Contains(read("/proc/self/uid_map"), "4294967295") {
		return "" // in a namespace already (the launcher's): its limits are not the system's
	}
	if read("/proc/sys/user/max_user_namespaces") == "0" {
		return "user.max_user_namespaces is 0"
	}
	if os.Geteuid() != 0 && read("/proc/sys/kernel/unprivileged_userns_clone") == "0" {
		return "kernel.unprivileged_userns_clone is 0"
	}
	return ""
}

// rootPaths are the paths the new root holds: every rule path, the
// working folder and /proc.
func rootPaths(r *Rules) []string {
	ps := append(append([]string{"/proc"}, r.Read...), r.Write...)
	if wd, err := os.Getwd(); err == nil {
		ps = append(ps, wd)
	}
	return ps
}

// newRoot replaces this mount namespace's root by a tmpfs that holds the
// paths of rootPaths, each bound at the path its links resolve to, and
// the links on the way to it recreated, so that both spellings work; it
// keeps the working folder. It fails when the launcher is not in a mount
// namespace of its own where it may mount (Prepare's namespaces).
func newRoot(r *Rules) error {
	wd, err := os.Getwd()
	if err != nil {
		return fmt.Errorf("the working folder: %w", err)
	}
	if err := privateMounts(); err != nil {
		return err
	}
	var reals, links []string
	for _, p := range rootPaths(r) {
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return fmt.Errorf("sandbox path %s: %w", p, err)
		}
		links = append(links, p)
		reals = append(reals, real)
	}
	binds, err := cloneTrees(reals)
	defer func() {
		for _, b := range binds {
			unix.Close(b.fd)
		}
	}()
	if err != nil {
		return err
	}
	const top = "/tmp"
	if err := fillRoot(top, binds, links); err != nil {
		return err
	}
	return pivot(top, wd)
}

// privateMounts makes the mounts of this namespace private, so that
// nothing newRoot mounts reaches another namespace. It refuses to run
// outside the user namespace Prepare makes.
func privateMounts() error {
	// Started by anything but Prepare (no user namespace of its own: the
	// initial one maps every id), it would change the mounts of its
	// caller's namespace, if it may.
	if m, err := os.ReadFile("/proc/self/uid_map"); err != nil || strings.Contains(string(m), "4294967295") {
		return fmt.Errorf("the launcher runs only in the user namespace OpenWorker makes for it")
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("a mount namespace of its own (this system must let a program make a user namespace; Ubuntu: sysctl kernel.apparmor_restrict_unprivileged_userns=0 or an AppArmor profile that allows userns): %w", err)
	}
	return nil
}

// bind is a detached copy of the mount tree at real, to be moved into
// the new root.
type bind struct {
	real string
	fd   int // open_tree's; the caller closes it
	dir  bool
}

// cloneTrees copies the mount trees at the resolved paths reals, skipping
// what an earlier folder's copy holds already. The binds it returns,
// also with an error, hold open descriptors the caller closes.
func cloneTrees(reals []string) ([]bind, error) {
	// Folders before what is inside them; what is inside a folder that is
	// bound with everything below it needs no bind of its own.
	sort.Strings(reals)
	var binds []bind
	for _, real := range reals {
		if n := len(binds); n > 0 && (binds[n-1].real == real || binds[n-1].dir && within(real, binds[n-1].real)) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Stat(real, &st); err != nil {
			return binds, fmt.Errorf("stat %s: %w", real, err)
		}
		// A detached copy of the tree now, before the new root is
		// mounted: binding "/" or /tmp later would hold the new root.
		fd, err := unix.OpenTree(unix.AT_FDCWD, real, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE|unix.AT_SYMLINK_NOFOLLOW)
		if err != nil {
			return binds, fmt.Errorf("copy the mount of %s: %w", real, err)
		}
		binds = append(binds, bind{real: real, fd: fd, dir: st.Mode&unix.S_IFMT == unix.S_IFDIR})
	}
	return binds, nil
}

// fillRoot mounts the new root, a tmpfs, on top, moves the binds into it
// and recreates the links on the way to the paths links.
func fillRoot(top string, binds []bind, links []string) error {
	if err := unix.Mount("openworker-sandbox", top, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "mode=0755"); err != nil {
		return fmt.Errorf("the new root on %s: %w", top, err)
	}
	for _, b := range binds {
		at := filepath.Join(top, b.real)
		if err := mountPoint(at, b.dir); err != nil {
			return err
		}
		if err := unix.MoveMount(b.fd, "", unix.AT_FDCWD, at, unix.MOVE_MOUNT_F_EMPTY_PATH); err != nil {
			return fmt.Errorf("bind %s: %w", b.real, err)
		}
	}
	for _, p := range links {
		if err := copyLinks(top, p, 0); err != nil {
			return err
		}
	}
	return nil
}

// pivot makes top the root, detaches the old one and returns to the
// working folder wd.
func pivot(top, wd string) error {
	if err := unix.Chdir(top); err != nil {
		return err
	}
	if err := unix.PivotRoot(".", "."); err != nil {
		return fmt.Errorf("pivot_root: %w", err)
	}
	if err := unix.Unmount(".", unix.MNT_DETACH); err != nil {
		return fmt.Errorf("detach the old root: %w", err)
	}
	if err := unix.Chdir(wd); err != nil {
		return fmt.Errorf("the working folder %s: %w", wd, err)
	}
	return nil
}

// within reports whether p is inside the folder dir.
func within(p, dir string) bool {
	return dir == "/" || strings.HasPrefix(p, dir+"/")
}

// mountPoint makes at (below the new root) a folder, or an empty file
// when the bind is of a file, and the folders above it.
func mountPoint(at string, dir bool) error {
	if !dir {
		if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
			return fmt.Errorf("the new root: %w", err)
		}
		f, err := os.OpenFile(at, os.O_CREATE|os.O_RDONLY, 0o644)
		if err != nil {
			return fmt.Errorf("the new root: %w", err)
		}
		return f.Close()
	}
	if err := os.MkdirAll(at, 0o755); err != nil {
		return fmt.Errorf("the new root: %w", err)
	}
	return nil
}

// copyLinks recreates below top the first symbolic link on the way to p
// (as the old root has it) and then those on the way through its
// target, so that p resolves in the new root as it did before. Binds
// come first: the folders above a link are then folders in the new
// root, never a link that would lead outside it.
func copyLinks(top, p string, depth int) error {
	if depth > 40 {
		return fmt.Errorf("sandbox path %s: too many links", p)
	}
	parts := strings.Split(strings.TrimPrefix(filepath.Clean(p), "/"), "/")
	q := "/"
	for i, c := range parts {
		q = filepath.Join(q, c)
		st, err := os.Lstat(q)
		if err != nil {
			return nil // EvalSymlinks found it: a race, nothing to copy
		}
		if st.Mode()&os.ModeSymlink == 0 {
			continue
		}
		target, err := os.Readlink(q)
		if err != nil {
			return err
		}
		at := filepath.Join(top, q)
		if _, err := os.Lstat(at); errors.Is(err, os.ErrNotExist) {
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				return fmt.Errorf("the new root: %w", err)
			}
			if err := os.Symlink(target, at); err != nil {
				return fmt.Errorf("the new root: %w", err)
			}
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(q), target)
		}
		return copyLinks(top, filepath.Join(append([]string{target}, parts[i+1:]...)...), depth+1)
	}
	return nil
}
