package archive

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Unpack writes the archive's entries into the folder dest, which must
// not exist (its parent must). It unpacks into a new temporary folder
// beside dest (".NAME.unpack-*" in dest's parent) and renames it to dest
// once every entry is written, so dest either appears complete or not at
// all. Files get mode 0o644, or 0o755 when the archive marks them
// executable; folders 0o755; nothing else of the archive's modes, times or
// owners is kept. Inflated bytes are counted as they are written: an
// entry that inflates beyond its declared size, or a total over
// MaxUnpackedBytes, stops the unpacking. On any error the temporary
// folder is removed and the error is an *Error naming the archive and the
// entry (docs/extensions.md#unpacking-limits).
func (a *Archive) Unpack(dest string) (err error) {
	fail := func(reason string, e error) error {
		return &Error{File: a.path, Kind: ErrDestination, Reason: reason + " " + dest, Err: e,
			Fix: "choose a folder that does not exist yet, inside one you can write"}
	}
	if _, e := os.Lstat(dest); e == nil {
		return fail("the destination exists:", nil)
	} else if !errors.Is(e, fs.ErrNotExist) {
		return fail("cannot check the destination", e)
	}
	tmp, e := os.MkdirTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".unpack-")
	if e != nil {
		return fail("cannot make a temporary folder beside", e)
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	if e := os.Chmod(tmp, 0o755); e != nil {
		return fail("cannot set the mode of the temporary folder beside", e)
	}
	var total int64
	for i, ent := range a.entries {
		target := filepath.Join(tmp, filepath.FromSlash(ent.Name))
		if ent.Mode.IsDir() {
			if e := os.MkdirAll(target, 0o755); e != nil {
				return a.writeErr(ent.Name, e)
			}
			continue
		}
		if e := os.MkdirAll(filepath.Dir(target), 0o755); e != nil {
			return a.writeErr(ent.Name, e)
		}
		n, e := a.writeFile(i, target, MaxUnpackedBytes-total)
		total += n
		if e != nil {
			return e
		}
	}
	if e := os.Rename(tmp, dest); e != nil {
		return fail("cannot move the unpacked folder into place at", e)
	}
	return nil
}

// writeFile inflates entry i into target (which must not exist), writing
// at most budget bytes; it returns the bytes written.
func (a *Archive) writeFile(i int, target string, budget int64) (int64, error) {
	f, ent := a.files[i], a.entries[i]
	rc, err := f.Open()
	if err != nil {
		return 0, a.corrupt(f.Name, err)
	}
	defer rc.Close()
	out, err := os.OpenFile(target, os.O_WRONLY|os.O_CREATE|os.O_EXCL, ent.Mode.Perm())
	if err != nil {
		return 0, a.writeErr(f.Name, err)
	}
	n, err := io.Copy(out, io.LimitReader(rc, budget+1))
	if cerr := out.Close(); err == nil && cerr != nil {
		return n, a.writeErr(f.Name, cerr)
	}
	switch {
	case err != nil:
		return n, a.corrupt(f.Name, err)
	case n > budget:
		return n, &Error{File: a.path, Entry: f.Name, Kind: ErrTooLarge,
			Reason: fmt.Sprintf("the archive inflates to more than %s (a zip bomb?)", mib(MaxUnpackedBytes)),
			Fix:    fixRepack}
	}
	// The umask may have taken bits away; the archive's executable bit is kept.
	if err := os.Chmod(target, ent.Mode.Perm()); err != nil {
		return n, a.writeErr(f.Name, err)
	}
	return n, nil
}

func (a *Archive) writeErr(entry string, err error) error {
	return &Error{File: a.path, Entry: entry, Kind: ErrDestination, Err: err,
		Reason: "cannot write the entry", Fix: "check the free space and permissions of the extensions folder"}
}
