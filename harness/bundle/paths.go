package bundle

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Links in a bundle (docs/bundles.md: a bundle is its own folder). The bundle folder
// itself may be a symbolic link (a user links a coworker they develop
// elsewhere into the bundles folder); it is resolved first, and every file
// and folder the bundle reads (coworker/manifest.md, coworker/tools.json,
// coworker/skills, each skill folder and SKILL.md) must resolve to a path
// inside that resolved folder. A link that stays inside is followed; one
// that leads out is a LoadError naming the link and where it points, so
// that a link like SKILL.md -> ~/.ssh/id_ed25519 never reaches the model.
//
// The check resolves the path, then reads the resolved path. A link swapped
// in between the two by someone who can write to the bundle is not caught
// (a race accepted: whoever can do that can edit the bundle's files). Hard
// links cannot be told apart from ordinary files and are not checked.

const linkOutFix = "copy the file into the bundle; links out of a bundle are not followed"

// resolveRoot sets l.root to the bundle folder with every link resolved.
// When it cannot be resolved (missing), l.root is the folder as given and
// the reads that follow report what is missing.
func (l *loader) resolveRoot() {
	l.root = l.dir
	if abs, err := filepath.Abs(l.dir); err == nil {
		l.root = abs
	}
	if r, err := filepath.EvalSymlinks(l.root); err == nil {
		l.root = r
	}
}

// confine resolves path, a file or folder of the bundle, and returns the
// resolved path. It returns path unchanged when nothing is there (the
// caller reports it missing), and a LoadError when path, or a folder on
// the way to it, is a link that leads out of the bundle or to nothing.
func (l *loader) confine(path string) (string, *LoadError) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", l.errf(path, 0, 0, unreadableFix(err), "cannot resolve %s: %v", l.rel(path), err)
	}
	real, err := filepath.EvalSymlinks(abs) // absolute in, absolute out
	if err == nil && l.inside(real) {
		return real, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", l.errf(path, 0, 0, unreadableFix(err), "cannot resolve %s: %v", l.rel(path), err)
	}
	return l.blameLink(path, real)
}

// blameLink names the first component of path, from the bundle folder on,
// that leads out of it or to nothing (path resolved to real, outside, or
// did not resolve). It returns path unchanged when a component is
// missing.
func (l *loader) blameLink(path, real string) (string, *LoadError) {
	rel, rerr := filepath.Rel(l.dir, path)
	if rerr != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", l.errf(path, 0, 0, "", "%s is not inside the bundle folder %s", path, l.dir)
	}
	cur, curAbs := l.dir, l.dir // as given, for messages; absolute, to resolve
	if a, err := filepath.Abs(l.dir); err == nil {
		curAbs = a
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		cur, curAbs = filepath.Join(cur, part), filepath.Join(curAbs, part)
		missing, lerr := l.component(cur, curAbs)
		if lerr != nil {
			return "", lerr
		}
		if missing {
			return path, nil // the caller says so
		}
	}
	// Not reached for a path under l.dir: its components were all
	// inside, so it resolved inside too.
	return "", l.errf(path, 0, 0, linkOutFix, "%s resolves to %s, outside the bundle folder %s", l.rel(path), real, l.root)
}

// component checks one component on the way to a path (cur as given,
// curAbs absolute): whether it is missing, and an error when it cannot be
// read or is a link that leads out of the bundle or to nothing.
func (l *loader) component(cur, curAbs string) (missing bool, _ *LoadError) {
	st, err := os.Lstat(curAbs)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil
	}
	if err != nil {
		return false, l.errf(cur, 0, 0, unreadableFix(err), "cannot read %s: %v", l.rel(cur), err)
	}
	if st.Mode()&fs.ModeSymlink == 0 {
		return false, nil
	}
	target, _ := os.Readlink(curAbs)
	r, err := filepath.EvalSymlinks(curAbs)
	if errors.Is(err, fs.ErrNotExist) {
		return false, l.errf(cur, 0, 0, "fix or remove the link", "%s is a link to %s, which does not exist", l.rel(cur), target)
	}
	if err != nil {
		return false, l.errf(cur, 0, 0, unreadableFix(err), "cannot resolve %s: %v", l.rel(cur), err)
	}
	if !l.inside(r) {
		to := target
		if filepath.Clean(target) != r {
			to += " (" + r + ")"
		}
		return false, l.errf(cur, 0, 0, linkOutFix, "%s is a link to %s, outside the bundle folder %s", l.rel(cur), to, l.root)
	}
	return false, nil
}

// inside reports whether real (a resolved path) is l.root or under it.
func (l *loader) inside(real string) bool {
	rel, err := filepath.Rel(l.root, real)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// rel names path relative to the bundle folder, with slashes, for messages.
func (l *loader) rel(path string) string {
	if r, err := filepath.Rel(l.dir, path); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return path
}

// unreadableFix is the fix of a bundle file or folder that cannot be
// read (issue 40: "lstat …: permission denied" said nothing to do).
func unreadableFix(err error) string {
	if errors.Is(err, fs.ErrPermission) {
		return "give your user read access to it and to every folder above it (for example chmod u+rx on a folder, chmod u+r on a file), or move the bundle to a folder you own"
	}
	return "check that the disk is readable and the file is not held by another program, then try again"
}
