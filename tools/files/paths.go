package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds the confinement rules (docs/files.md#confinement): a
// path argument is found in one root (locate) or refused; what it names is
// then opened through an os.Root of that folder, which refuses a symbolic
// link that leads outside it at the moment of each open.

// place is a path argument found in a root.
type place struct {
	f     folder
	first bool   // f is the first root: results name it relative
	rel   string // slash-separated and clean; "." is the root itself
}

// native is rel with this OS's separators, as os.Root takes it.
func (p place) native() string { return filepath.FromSlash(p.rel) }

// shown is how results and messages name the path: relative to the first
// root, else absolute.
func (p place) shown() string {
	if p.first {
		return p.rel
	}
	return filepath.Join(p.f.dir, p.native())
}

// child is the place of a name inside the folder p.
func (p place) child(name string) place {
	c := p
	c.rel = path.Join(p.rel, name)
	return c
}

func (p place) isRoot() bool { return p.rel == "." }

// open opens the root folder of p; the caller closes it.
func (p place) open() (*os.Root, error) {
	r, err := os.OpenRoot(p.f.dir)
	if err != nil {
		return nil, fmt.Errorf("the folder %s cannot be opened (%s): check that it still exists and that you may read it", p.f.dir, describe(err))
	}
	return r, nil
}

// locate finds the path argument arg (named field in messages) in one of
// roots: relative to the first folder, or absolute inside any. "" is the
// first folder itself. Windows-style separators count as "/".
func locate(roots []folder, field, arg string) (place, error) {
	if err := checkName(field, arg); err != nil {
		return place{}, err
	}
	p := strings.ReplaceAll(arg, `\`, "/")
	if p == "" {
		p = "."
	}
	if filepath.IsAbs(filepath.FromSlash(p)) {
		clean := filepath.Clean(filepath.FromSlash(p))
		for i, f := range roots {
			for _, base := range []string{f.dir, f.real} {
				rel, err := filepath.Rel(base, clean)
				if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
					continue
				}
				return place{f: f, first: i == 0, rel: filepath.ToSlash(rel)}, nil
			}
		}
		return place{}, fmt.Errorf("%s %q is outside the folders this server works in (%s): give a path inside one of them, or one relative to %s such as %q",
			field, clip(arg), folderList(roots), roots[0].dir, "notes/todo.md")
	}
	if strings.HasPrefix(p, "/") || filepath.VolumeName(filepath.FromSlash(p)) != "" {
		// Windows: rooted without a drive (\x), or a drive without a root (C:x).
		return place{}, fmt.Errorf("%s %q is neither a full path nor relative to the folder: give a path relative to %s, such as %q, or a full path inside it",
			field, clip(arg), roots[0].dir, "notes/todo.md")
	}
	clean := path.Clean(p)
	if clean == ".." || strings.HasPrefix(clean, "../") {
		return place{}, fmt.Errorf("%s %q leads outside the folder %s (by \"..\"): give a path inside it, such as %q",
			field, clip(arg), roots[0].dir, "notes/todo.md")
	}
	return place{f: roots[0], first: true, rel: clean}, nil
}

// checkName refuses a path or name that holds a NUL byte, a control
// character or bytes that are not UTF-8.
func checkName(field, arg string) error {
	if i := strings.IndexByte(arg, 0); i >= 0 {
		return fmt.Errorf("%s %q holds a NUL byte (at byte %d), which no file name may hold: give the path without it", field, clip(arg), i)
	}
	if !utf8.ValidString(arg) {
		return fmt.Errorf("%s %q is not valid UTF-8: give the path as UTF-8 text", field, clip(arg))
	}
	for i, r := range arg {
		if unicode.IsControl(r) {
			return fmt.Errorf("%s %q holds the control character %U (at byte %d); this server refuses file names with control characters: give the path without it", field, clip(arg), r, i)
		}
	}
	return nil
}

func folderList(roots []folder) string {
	ds := make([]string, len(roots))
	for i, f := range roots {
		ds[i] = f.dir
	}
	return strings.Join(ds, ", ")
}

// escapes reports whether err is os.Root's refusal of a path that leaves
// the root (a symbolic link pointing outside it or written as an absolute
// path, or ".." above it).
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}

// failure turns an error of an operation on p into the message a tool
// returns: what happened to which path, and the fix.
func failure(p place, err error) error {
	name := p.shown()
	switch {
	case escapes(err):
		return fmt.Errorf("%q leads outside the folder %s through a symbolic link: this server follows only links that stay inside the folder and are written as relative paths; use a path inside the folder instead", name, p.f.dir)
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%q does not exist in %s: list its folder with files_list or find it with files_search", name, p.f.dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%q: permission denied: this server may not use it (the file's permissions or the sandbox keep it out)", name)
	}
	return fmt.Errorf("%q: %s", name, describe(err))
}

// describe is err without the operation and path os adds to it.
func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		err = le.Err
	}
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "no such file or folder"
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrExist):
		return "it already exists"
	}
	return err.Error()
}

// maxText bounds a free-form string copied into a message.
const maxText = 256

// clip bounds s to maxText bytes without splitting a UTF-8 sequence.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
