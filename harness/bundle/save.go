package bundle

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openworker/desktop/harness/tool"
)

// ErrIDTaken is matched (errors.Is) by the error of Create for an id that
// a folder, file or link of the coworkers folder has already, and of
// Restore for a trashed coworker whose id was taken meanwhile.
var ErrIDTaken = errors.New("coworker id taken")

// takenError is an ErrIDTaken with its message for people.
type takenError struct{ msg string }

func (e *takenError) Error() string { return e.msg }
func (e *takenError) Unwrap() error { return ErrIDTaken }

func idTaken(format string, args ...any) error { return &takenError{fmt.Sprintf(format, args...)} }

// DraftError is returned by Save and Create for a draft that does not
// validate: Problems are Validate's. Nothing was written.
type DraftError struct {
	Dir      string
	Problems []*LoadError
}

// Error is the first problem, and how many more there are.
func (e *DraftError) Error() string {
	if len(e.Problems) == 0 {
		return "the coworker is not valid"
	}
	msg := e.Problems[0].Error()
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// Save writes d over the bundle in dir (<coworkers>/<id>; a linked
// coworker's target, see LinkTarget): coworker/manifest.md and
// coworker/tools.json, rendered as described at docs/bundles.md#editing
// (keys, comments and body bytes kept). A file whose bytes would not
// change is not written.
//
// d must validate (Validate; else a *DraftError), and its ID must be the
// folder's name: Save does not rename a coworker.
//
// Each file is written atomically: a temporary file beside it, written and
// synced, then renamed over it (and the folder synced where the OS
// allows). Both temporary files are written before the first rename, and
// the renames are ordered so that the bundle loads between them
// (manifest.md first when the new manifest loads with the old tools.json,
// else tools.json first; when neither does, because the new policy or
// sampling names tools only the new tools.json selects and the old
// manifest names tools only the old one does, a first manifest.md holding
// only the policy and sampling entries both selections allow goes first).
// A crash leaves the old bundle, the new one, or one of those loadable
// steps between, plus at worst a stale ".manifest.md.*" or ".tools.json.*"
// temporary file, which the loader ignores. An error (a full disk, a
// folder that cannot be written, a failed rename) leaves the bundle as it
// was, byte for byte: renames already done are undone.
//
// Save is not safe for concurrent use on one bundle; the last one wins.
func Save(dir string, d Draft) (err error) {
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return fmt.Errorf("no coworker folder %s to save to; create a new coworker with Create", dir)
	}
	files := renderFiles(dir, d)
	if ps := validateFiles(dir, d, files); len(ps) > 0 {
		return &DraftError{Dir: dir, Problems: ps}
	}
	l := &loader{dir: dir}
	l.resolveRoot()
	cw := filepath.Join(l.root, "coworker")
	if _, err := os.Stat(cw); errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(cw, 0o755); err != nil {
			return fmt.Errorf("save coworker %s: %w", dir, err)
		}
		defer func() {
			if err != nil {
				os.Remove(cw) // made for this save: the bundle is left as it was
			}
		}()
	}
	var targets [2]target
	for i, rel := range []string{manifestRel, toolsRel} {
		t, err := l.target(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		targets[i] = t
	}
	m, tj := targets[0], targets[1]
	newM, newT := files[manifestRel], files[toolsRel]
	steps := saveOrder(dir, d, m, tj, newM, newT)
	return writeSteps(steps)
}

// validateFiles is Validate for files already rendered from d: the
// loader's problems with them, and those of the draft's other fields.
func validateFiles(dir string, d Draft, files map[string][]byte) []*LoadError {
	l := &loader{dir: dir, overlay: files}
	l.resolveRoot()
	if _, lerr := loadSafely(l); lerr == nil && draftShape(dir, d) == nil {
		return nil
	}
	return Validate(dir, d)
}

// target is one file Save replaces: where it really is (a link inside
// the bundle is followed), its bytes and mode now.
type target struct {
	path    string // as the bundle names it
	real    string // where the bytes go
	old     []byte // nil when missing
	existed bool
	perm    fs.FileMode
}

// target resolves a bundle file for writing; a link out of the bundle is
// an error (Save writes only inside the bundle).
func (l *loader) target(path string) (target, error) {
	real, lerr := l.confine(path)
	if lerr != nil {
		return target{}, lerr
	}
	if real == path { // missing: goes where the bundle's real folder is
		real = filepath.Join(l.root, "coworker", filepath.Base(path))
	}
	t := target{path: path, real: real, perm: 0o644}
	st, err := os.Lstat(real)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return t, nil
	case err != nil:
		return t, fmt.Errorf("save %s: %w", path, err)
	case !st.Mode().IsRegular():
		return t, fmt.Errorf("save %s: it is not a regular file; remove it first", path)
	}
	data, err := os.ReadFile(real)
	if err != nil {
		return t, fmt.Errorf("save %s: %w", path, err)
	}
	t.old, t.existed, t.perm = data, true, st.Mode().Perm()
	return t, nil
}

// step writes data to t.
type step struct {
	t    target
	data []byte
}

// saveOrder returns the writes that take the bundle from m.old, tj.old
// to newM, newT with a loadable bundle after each one (see Save).
func saveOrder(dir string, d Draft, m, tj target, newM, newT []byte) []step {
	changedM := !m.existed || !bytes.Equal(m.old, newM)
	changedT := !tj.existed || !bytes.Equal(tj.old, newT)
	switch {
	case changedM && !changedT:
		return []step{{m, newM}}
	case changedT && !changedM:
		return []step{{tj, newT}}
	case !changedM && !changedT:
		return nil
	}
	loads := func(mb, tb []byte) bool { return loadsWith(dir, mb, tb) }
	switch {
	case loads(newM, tj.old):
		return []step{{m, newM}, {tj, newT}}
	case loads(m.old, newT):
		return []step{{tj, newT}, {m, newM}}
	}
	if old, err := parseSelection("tools.json", tj.old); err == nil {
		mid := renderManifest(m.old, between(d, old))
		if loads(mid, tj.old) && loads(mid, newT) {
			return []step{{m, mid}, {tj, newT}, {m, newM}}
		}
	}
	return []step{{tj, newT}, {m, newM}} // the old bundle did not load either
}

// loadsWith reports whether the bundle in dir loads with manifest.md mb
// and tools.json tb in place of its own (false when either is nil).
func loadsWith(dir string, mb, tb []byte) bool {
	if mb == nil || tb == nil {
		return false
	}
	l := &loader{dir: dir, overlay: map[string][]byte{manifestRel: mb, toolsRel: tb}}
	l.resolveRoot()
	_, lerr := loadSafely(l)
	return lerr == nil
}

// between returns d with only the policy and sampling entries that both
// d's selection and old select.
func between(d Draft, old Selection) Draft {
	sel := func(names, whole []string) (tools, providers map[string]bool) {
		tools, providers = map[string]bool{}, map[string]bool{}
		for _, n := range names {
			tools[n] = true
			if ns, _, err := tool.SplitName(n); err == nil {
				providers[ns] = true
			}
		}
		for _, ns := range whole {
			providers[ns] = true
			tools[ns+".*"] = true
		}
		return tools, providers
	}
	oldT, oldP := sel(old.Explicit(), old.WholeProviders())
	newT, newP := sel(d.Tools, d.WholeProviders)
	in := func(tools map[string]bool, name string) bool {
		if tools[name] {
			return true
		}
		ns, _, err := tool.SplitName(name)
		return err == nil && tools[ns+".*"]
	}
	mid := d
	mid.Policy = map[string]string{}
	for n, p := range d.Policy {
		if n == "*" || in(oldT, n) && in(newT, n) {
			mid.Policy[n] = p
		}
	}
	mid.Sampling = nil
	for _, ns := range d.Sampling {
		if oldP[ns] && newP[ns] {
			mid.Sampling = append(mid.Sampling, ns)
		}
	}
	return mid
}

// rename and createTemp are os.Rename and os.CreateTemp; tests make them
// fail.
var (
	rename     = os.Rename
	createTemp = os.CreateTemp
)

// writeSteps writes every step's temporary file, then renames them in
// order; on an error, renames done are undone and temporary files removed.
func writeSteps(steps []step) (err error) {
	tmps := make([]string, len(steps))
	defer func() {
		for _, t := range tmps {
			if t != "" {
				os.Remove(t)
			}
		}
	}()
	for i, s := range steps {
		if tmps[i], err = writeTemp(s.t.real, s.data, s.t.perm); err != nil {
			return fmt.Errorf("save %s: %w", s.t.path, err)
		}
	}
	for i, s := range steps {
		if err := rename(tmps[i], s.t.real); err != nil {
			return errors.Join(fmt.Errorf("save %s: %w", s.t.path, err), undo(steps[:i]))
		}
		tmps[i] = ""
		syncDir(filepath.Dir(s.t.real))
	}
	return nil
}

// undo puts back the files the done steps replaced, as they were before
// the first one.
func undo(done []step) error {
	var errs []error
	restored := map[string]bool{}
	for i := len(done) - 1; i >= 0; i-- {
		t := done[i].t
		if restored[t.real] {
			continue
		}
		restored[t.real] = true
		if !t.existed {
			if err := os.Remove(t.real); err != nil {
				errs = append(errs, fmt.Errorf("could not remove %s again: %w", t.path, err))
			}
			continue
		}
		tmp, err := writeTemp(t.real, t.old, t.perm)
		if err == nil {
			if err = rename(tmp, t.real); err != nil {
				os.Remove(tmp)
			}
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("could not put back %s as it was: %w", t.path, err))
		}
	}
	return errors.Join(errs...)
}

// writeTemp writes data to a new temporary file beside path (named
// ".<base>.*", which no loader reads), synced and with mode perm, and
// returns its name.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := createTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), perm)
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// syncDir makes a rename in dir durable where the OS allows it (not on
// Windows, where a folder cannot be opened for syncing); best effort.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}

// Create writes d as a new bundle <coworkersDir>/<d.ID>/coworker/{manifest.md,
// tools.json} (coworkersDir is created when missing) and returns its
// folder. An id already taken by a folder, file or link is refused
// (ErrIDTaken: "coworker … exists already"; NewID suggests a free one), as is a draft
// that does not validate (*DraftError). The bundle is built in a hidden
// ".new-<id>-*" folder and renamed into place, so the coworkers folder
// never holds half of it.
func Create(coworkersDir string, d Draft) (string, error) {
	if !IDPattern.MatchString(d.ID) {
		return "", &DraftError{Dir: filepath.Join(coworkersDir, d.ID), Problems: []*LoadError{{
			Dir: filepath.Join(coworkersDir, d.ID), File: filepath.Join(coworkersDir, d.ID), Field: FieldID,
			Msg: fmt.Sprintf("id %q is not valid", d.ID), Fix: "use 1 to 64 lowercase letters, digits, '_' or '-', starting with a letter or digit",
		}}}
	}
	dir := filepath.Join(coworkersDir, d.ID)
	if _, err := os.Lstat(dir); err == nil {
		return "", idTaken("coworker %q exists already at %s; choose another id", d.ID, dir)
	}
	files := renderFiles(dir, d)
	if ps := validateFiles(dir, d, files); len(ps) > 0 {
		return "", &DraftError{Dir: dir, Problems: ps}
	}
	if err := os.MkdirAll(coworkersDir, 0o755); err != nil {
		return "", fmt.Errorf("create coworker %s: %w", dir, err)
	}
	tmp, err := os.MkdirTemp(coworkersDir, ".new-"+d.ID+"-")
	if err != nil {
		return "", fmt.Errorf("create coworker %s: %w", dir, err)
	}
	defer os.RemoveAll(tmp) // nothing left after the rename
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", fmt.Errorf("create coworker %s: %w", dir, err)
	}
	cw := filepath.Join(tmp, "coworker")
	if err := os.Mkdir(cw, 0o755); err != nil {
		return "", fmt.Errorf("create coworker %s: %w", dir, err)
	}
	for _, rel := range []string{manifestRel, toolsRel} {
		name, err := writeTemp(filepath.Join(tmp, filepath.FromSlash(rel)), files[rel], 0o644)
		if err == nil {
			err = os.Rename(name, filepath.Join(tmp, filepath.FromSlash(rel)))
		}
		if err != nil {
			return "", fmt.Errorf("create coworker %s: %w", dir, err)
		}
	}
	syncDir(cw)
	if _, err := os.Lstat(dir); err == nil {
		return "", idTaken("coworker %q exists already at %s; choose another id", d.ID, dir)
	}
	if err := rename(tmp, dir); err != nil {
		if errors.Is(err, fs.ErrExist) { // ENOTEMPTY counts: a folder made meanwhile

			return "", idTaken("coworker %q exists already at %s; choose another id", d.ID, dir)
		}
		return "", fmt.Errorf("create coworker %s: %w", dir, err)
	}
	syncDir(coworkersDir)
	return dir, nil
}
