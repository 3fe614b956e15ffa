package app

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
)

// Adding a coworker (docs/app.md#adding-a-coworker): Coworkers → "Add
// coworker…" picks a bundle folder (ChooseCoworkerBundle) or takes one
// dropped on the window (EventBundleDropped), shows what it holds
// (PreviewCoworker) and only then copies or links it into the coworkers
// folder (AddCoworker).

// Ways AddCoworker puts a bundle into the coworkers folder.
const (
	AddCopy = "copy" // a copy of the folder: later edits of the original do not show
	AddLink = "link" // a symbolic link to it (not on Windows): edits show live
)

// CoworkerPreview is what a bundle folder holds, before it is added.
type CoworkerPreview struct {
	Source      string `json:"source"` // the folder, absolute
	ID          string `json:"id"`     // the manifest's id; "" when it did not load
	Name        string `json:"name"`
	Description string `json:"description"`
	Version     string `json:"version"`
	// Tools are the tools its tools.json selects: qualified names, and
	// "<namespace>.*" for a whole provider (version 1).
	Tools []string `json:"tools"`
	// Errors are why the bundle does not load, with file, line and column
	// (docs/bundles.md); it may still be added, and is listed broken.
	Errors []BrokenBundle `json:"errors"`
	Dest   string         `json:"dest"` // where it would go: <coworkers folder>/<folder name>
	// Exists is true when Dest is taken: AddCoworker then needs replace.
	Exists bool `json:"exists"`
	// Refused is why it cannot be added at all ("" when it can): not a
	// bundle (naming what is missing and where), inside the coworkers
	// folder already or holding it, a link that leads nowhere.
	Refused string `json:"refused"`
	// CanLink is false where AddLink is not offered (Windows: a symbolic
	// link needs developer mode or admin rights).
	CanLink bool `json:"can_link"`
	// UseInstead, with Refused, is the folder to preview instead: the
	// bundle whose coworker/ folder was given (the window's "Use the
	// parent folder", docs/app.md#adding-a-coworker); "" otherwise.
	UseInstead string `json:"use_instead,omitempty"`
}

// canLink reports whether AddLink is offered on this OS.
var canLink = runtime.GOOS != "windows"

// ChooseCoworkerBundle asks for a bundle folder with the native picker,
// starting in the home folder; "" when the person cancels. Nothing is read
// or written: the UI previews the folder next.
func (c *Coworkers) ChooseCoworkerBundle() (string, error) {
	if c.dialogs == nil {
		return "", errors.New("no folder picker is available")
	}
	home, _ := os.UserHomeDir()
	return c.dialogs.ChooseDirectory("Choose a coworker folder to add", home)
}

// PreviewCoworker loads the bundle folder at path with the harness bundle
// loader and says what adding it would do. Nothing is written. The error
// is only for a path that cannot be made absolute.
func (c *Coworkers) PreviewCoworker(path string) (CoworkerPreview, error) {
	return previewBundle(path, c.settings.coworkersDir())
}

// AddCoworker copies (AddCopy) or links (AddLink) the bundle folder at
// path into the coworkers folder as <folder name>, after the same checks
// as PreviewCoworker, and returns the new list. A taken name is refused
// unless replace; the old folder is then moved aside and removed only
// after the new one is in place, so a failed copy loses nothing. A copy
// is made under a temporary name (".adding-<name>-…") and renamed.
func (c *Coworkers) AddCoworker(path, mode string, replace bool) (CoworkerList, error) {
	dir := c.settings.coworkersDir()
	if err := addBundle(path, dir, mode, replace); err != nil {
		return CoworkerList{}, err
	}
	l := c.list(dir)
	c.emit.Emit(EventCoworkersChanged, l)
	return l, nil
}

// previewBundle is PreviewCoworker for the coworkers folder dir.
func previewBundle(path, dir string) (CoworkerPreview, error) {
	src, err := filepath.Abs(path)
	if err != nil {
		return CoworkerPreview{}, err
	}
	p := CoworkerPreview{Source: src, Tools: []string{}, Errors: []BrokenBundle{}, CanLink: canLink}
	if p.Refused = notABundle(src); p.Refused != "" {
		if h := bundleFolderHint(src); h != nil && h.Kind == HintCoworkerSubfolder {
			p.UseInstead = h.Bundle
		}
		return p, nil
	}
	p.Dest = filepath.Join(dir, filepath.Base(src))
	// Resolved or as written: a linked coworker's own entry in the folder
	// (dir/b -> elsewhere) resolves outside it, and "adding" it over itself
	// would make it a link to itself.
	if inside(dir, src) || absInside(dir, src) {
		p.Refused = fmt.Sprintf("%s is in the coworkers folder %s already", src, dir)
		return p, nil
	}
	if inside(src, dir) { // a copy would copy itself
		p.Refused = fmt.Sprintf("the coworkers folder %s is inside %s, so it cannot be added there; move the bundle out, or choose another coworkers folder", dir, src)
		return p, nil
	}
	if _, err := os.Lstat(p.Dest); err == nil {
		p.Exists = true
	}
	p.load()
	return p, nil
}

// notABundle says why the folder src is not a bundle that may be added
// (missing, a file, the coworker/ folder of one, no manifest, a folder
// of coworkers), or "" when it has the manifest.
func notABundle(src string) string {
	if h := bundleFolderHint(src); h != nil && h.Kind == HintCoworkerSubfolder {
		return fmt.Sprintf("%s is the coworker/ folder of a bundle; add its parent %s instead", src, h.Bundle)
	}
	st, err := os.Stat(src) // follows a link: a linked bundle may be added
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("%s does not exist (or is a link that leads nowhere)", src)
	case err != nil:
		return fmt.Sprintf("%s cannot be read: %v", src, err)
	case !st.IsDir():
		return fmt.Sprintf("%s is a file, not a folder; a coworker is a folder <id>/coworker/manifest.md (unpack a zipped bundle first)", src)
	}
	manifest := filepath.Join(src, "coworker", "manifest.md")
	if _, err := os.Stat(manifest); err != nil {
		if looksLikeCoworkersFolder(src) {
			return fmt.Sprintf("%s holds coworkers but is not one itself: add one of its folders, or use it as the coworkers folder with \"Choose folder…\"", src)
		}
		return fmt.Sprintf("%s is not a coworker bundle: %s is missing; a bundle holds coworker/manifest.md and coworker/tools.json (docs/bundles.md)", src, manifest)
	}
	return ""
}

// load loads the bundle at p.Source into p: its identity and tools, or
// the error that stops it loading, in p.Errors.
func (p *CoworkerPreview) load() {
	b, err := bundle.Load(p.Source)
	if err != nil {
		var le *bundle.LoadError
		if errors.As(err, &le) {
			p.Errors = append(p.Errors, BrokenBundle{Dir: le.Dir, File: le.File, Line: le.Line, Col: le.Col, Message: le.Msg, Fix: le.Fix})
		} else {
			p.Errors = append(p.Errors, BrokenBundle{Dir: p.Source, File: p.Source, Message: err.Error()})
		}
		return
	}
	p.ID, p.Name, p.Description, p.Version = b.ID, b.Name, b.Description, b.Version
	p.Tools = append(p.Tools, b.Tools.Explicit()...)
	for _, ns := range b.Tools.Providers {
		p.Tools = append(p.Tools, ns+".*")
	}
}

// looksLikeCoworkersFolder reports whether some folder right under dir
// is a bundle.
func looksLikeCoworkersFolder(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if st, err := os.Stat(filepath.Join(dir, e.Name(), "coworker", "manifest.md")); err == nil && st.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// inside reports whether path is root or below it, both with links
// resolved where they resolve.
func inside(root, path string) bool {
	return under(realPath(root), realPath(path))
}

// under reports whether path is root or below it, as the two strings
// stand (both absolute).
func under(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// absInside is inside for the paths as written (absolute, cleaned), with
// only root's links resolved: whether path names an entry under root.
func absInside(root, path string) bool {
	p, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	a, err := filepath.Abs(root)
	return err == nil && under(a, p) || under(realPath(root), p)
}

// realPath is path absolute with its links resolved, or as absolute as it
// gets when it does not resolve.
func realPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// addBundle is AddCoworker for the coworkers folder dir.
func addBundle(path, dir, mode string, replace bool) error {
	if err := checkAddMode(mode); err != nil {
		return err
	}
	p, err := previewBundle(path, dir)
	if err != nil {
		return err
	}
	if p.Refused != "" {
		return errors.New(p.Refused)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("the coworkers folder %s does not exist or is not a folder; choose another one", dir)
	}
	if p.Exists && !replace {
		return fmt.Errorf("%s exists already: a coworker named %q is in the coworkers folder; replace it, or rename the folder you add (and its id)", p.Dest, filepath.Base(p.Dest))
	}
	tmp, err := os.MkdirTemp(dir, ".adding-"+filepath.Base(p.Dest)+"-")
	if err != nil {
		return fmt.Errorf("make a temporary folder in %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // what is left of a failed copy, or the replaced one; empty otherwise
	staged := filepath.Join(tmp, filepath.Base(p.Dest))
	if err := stage(mode, p.Source, staged); err != nil {
		return err
	}
	if p.Exists {
		return replaceWith(p.Dest, staged, filepath.Join(tmp, "replaced"))
	}
	if err := os.Rename(staged, p.Dest); err != nil {
		return fmt.Errorf("put %s in place: %w", p.Dest, err)
	}
	return nil
}

// checkAddMode refuses a mode other than AddCopy and AddLink, and
// AddLink where links are not offered (Windows).
func checkAddMode(mode string) error {
	if mode != AddCopy && mode != AddLink {
		return fmt.Errorf("unknown way to add a coworker %q: use %q or %q", mode, AddCopy, AddLink)
	}
	if mode == AddLink && !canLink {
		return errors.New("linking a coworker is not offered on Windows (a symbolic link needs developer mode); copy it instead")
	}
	return nil
}

// stage puts the bundle src at staged: a link to it (AddLink) or a copy.
func stage(mode, src, staged string) error {
	if mode == AddLink {
		return os.Symlink(src, staged)
	}
	return copyTree(src, staged)
}

// replaceWith puts staged in place of dest, moving the old dest to old
// first (the caller removes it: a link is removed, not what it points
// to), and moves the old one back when staged cannot take its place.
func replaceWith(dest, staged, old string) error {
	if err := os.Rename(dest, old); err != nil {
		return fmt.Errorf("move the old %s aside: %w", dest, err)
	}
	if err := os.Rename(staged, dest); err != nil {
		if rerr := os.Rename(old, dest); rerr != nil {
			return fmt.Errorf("put %s in place: %w; the old folder is at %s (%v)", dest, err, old, rerr)
		}
		return fmt.Errorf("put %s in place: %w; the old one is kept", dest, err)
	}
	return nil
}

// copyTree copies the folder src to dst (which must not exist): folders,
// regular files with their permission bits, and links that stay inside
// src as links. A link out of src, a link loop, a pipe or a device is an
// error naming it: the bundle loader would refuse it anyway
// (docs/bundles.md).
func copyTree(src, dst string) error {
	root := realPath(src)
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		rel, _ := filepath.Rel(root, p)
		target := filepath.Join(dst, rel)
		shown := filepath.Join(src, rel)
		switch t := d.Type(); {
		case d.IsDir():
			return os.Mkdir(target, 0o755)
		case t&fs.ModeSymlink != 0:
			to, err := os.Readlink(p)
			if err != nil {
				return fmt.Errorf("read the link %s: %w", shown, err)
			}
			r, err := filepath.EvalSymlinks(p)
			if err != nil {
				return fmt.Errorf("the link %s -> %s leads nowhere or loops (%v); remove it or copy the file in", shown, to, err)
			}
			if !inside(root, r) {
				return fmt.Errorf("the link %s -> %s leads out of the bundle; copy the file into the bundle instead", shown, to)
			}
			if filepath.IsAbs(to) { // keep it pointing inside the copy
				rr, _ := filepath.Rel(root, r)
				to, _ = filepath.Rel(filepath.Dir(target), filepath.Join(dst, rr))
			}
			return os.Symlink(to, target)
		case t.IsRegular():
			return copyFile(p, target)
		default:
			return fmt.Errorf("%s is not a regular file or folder (%v); a bundle holds only files and folders", shown, t)
		}
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	defer in.Close()
	info, err := in.Stat()
	if err != nil {
		return fmt.Errorf("read %s: %w", src, err)
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, info.Mode().Perm()|0o600)
	if err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return fmt.Errorf("copy %s to %s: %w", src, dst, err)
	}
	if err := out.Close(); err != nil {
		return fmt.Errorf("write %s: %w", dst, err)
	}
	return nil
}
