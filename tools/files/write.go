package files

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file holds the tools that change files (file_write, folder_make)
// and the atomic write they and file_edit use (docs/files.md#writes).

// WriteInput is the argument of file_write.
type WriteInput struct {
	Path      string `json:"path" jsonschema:"the file to write, relative to the working folder or absolute inside a root; missing folders on the way are made"`
	Content   string `json:"content" jsonschema:"the whole content of the file, as text (at most 4 MiB)"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace the file when it exists; default false: an existing file is left as it is and the call fails. Read a file before you replace it"`
}

// WriteResult is the structured result of file_write.
type WriteResult struct {
	Path        string `json:"path" jsonschema:"the file written"`
	Bytes       int    `json:"bytes" jsonschema:"its size now"`
	Created     bool   `json:"created" jsonschema:"true: a new file; false: an existing file was replaced"`
	MadeFolders string `json:"made_folders,omitempty" jsonschema:"the folder made on the way, when one was missing"`
}

func (s *server) addWriteTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "file_write",
		Title: "Write a file",
		Description: "Creates a text file with the given content, making missing folders on the way. An existing file is replaced only with overwrite: true " +
			"(read it first: its old content is gone); without it the call fails and the file stays as it is. " +
			"The file is written to a temporary file first and renamed into place, so it is never left half written.",
		Annotations: changes(true, true),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in WriteInput) (*sdk.CallToolResult, WriteResult, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, WriteResult{}, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, WriteResult{}, err
		}
		s.writes.Lock()
		defer s.writes.Unlock()
		res, err := write(p, in)
		return nil, res, err
	})
}

func write(p place, in WriteInput) (WriteResult, error) {
	if p.isRoot() {
		return WriteResult{}, fmt.Errorf("path is the folder itself: give a file name such as %q", "notes.md")
	}
	if len(in.Content) > MaxWriteBytes {
		return WriteResult{}, fmt.Errorf("content is %s, over the %s a write may hold: write a smaller file, or several", sizeText(int64(len(in.Content))), sizeText(MaxWriteBytes))
	}
	r, err := p.open()
	if err != nil {
		return WriteResult{}, err
	}
	defer r.Close()
	perm := fs.FileMode(0o644)
	st, err := r.Lstat(p.native())
	exists := err == nil
	switch {
	case exists:
		if err := replaceable(r, p, st); err != nil {
			return WriteResult{}, err
		}
		if !in.Overwrite {
			return WriteResult{}, fmt.Errorf("%q already exists (%s, changed %s) and was left as it is: read it first; to replace it call file_write again with overwrite: true, or change part of it with file_edit",
				p.shown(), sizeText(st.Size()), st.ModTime().Format(time.RFC3339))
		}
		perm = st.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return WriteResult{}, failureIn(r, p, err)
	}
	made, err := makeParent(r, p)
	if err != nil {
		return WriteResult{}, err
	}
	if err := writeAtomic(r, p, []byte(in.Content), perm, exists); err != nil {
		return WriteResult{}, err
	}
	return WriteResult{Path: p.shown(), Bytes: len(in.Content), Created: !exists, MadeFolders: made}, nil
}

// replaceable refuses to replace what st (p's Lstat) shows is not a
// regular file: a link (renaming over it would replace the link, not
// its target), a folder, a device.
func replaceable(r *os.Root, p place, st fs.FileInfo) error {
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		target, _ := r.Readlink(p.native())
		return fmt.Errorf("%q is a symbolic link (to %q): this server does not write through links; write to the file it points to instead", p.shown(), clip(target))
	case st.IsDir():
		return fmt.Errorf("%q is a folder: give a file name inside it, such as %q", p.shown(), path.Join(p.rel, "notes.md"))
	case !st.Mode().IsRegular():
		return fmt.Errorf("%q is not a regular file (%s): this server writes only files", p.shown(), typeName(st.Mode().Type()))
	}
	return nil
}

// failureIn is failure(p, err), or, when p's folder is a file (err is
// then "not a directory"), says so.
func failureIn(r *os.Root, p place, err error) error {
	parent := p
	parent.rel = path.Dir(p.rel)
	if st, serr := r.Stat(parent.native()); !escapes(err) && serr == nil && !st.IsDir() {
		return fmt.Errorf("%q is a file, so %q cannot be made inside it: choose another folder", parent.shown(), p.shown())
	}
	return failure(p, err)
}

// makeParent makes p's folder when it is missing and returns it ("" when
// it was there).
func makeParent(r *os.Root, p place) (string, error) {
	parent := p
	parent.rel = path.Dir(p.rel)
	if parent.isRoot() {
		return "", nil
	}
	st, err := r.Stat(parent.native())
	switch {
	case err == nil && st.IsDir():
		return "", nil
	case err == nil:
		return "", fmt.Errorf("%q is a file, so %q cannot be made inside it: choose another folder", parent.shown(), p.shown())
	case !errors.Is(err, fs.ErrNotExist):
		return "", failure(parent, err)
	}
	if err := r.MkdirAll(parent.native(), 0o755); err != nil {
		return "", failure(parent, err)
	}
	return parent.shown(), nil
}

// writeAtomic writes data to p through a temporary file in p's folder,
// then renames it into place (replace) or links it there only if p does
// not exist yet (!replace), so a reader sees the old file or the new one,
// a crash leaves at most a stray ".NAME.tmp-…" file, and a create never
// replaces a file made in the meantime. The file gets perm.
func writeAtomic(r *os.Root, p place, data []byte, perm fs.FileMode, replace bool) error {
	tmp, err := createTemp(r, p, data, perm)
	if err != nil {
		return err
	}
	if replace {
		err = r.Rename(tmp.native(), p.native())
	} else {
		err = createOnly(r, tmp, p)
	}
	if err != nil {
		r.Remove(tmp.native())
		return err
	}
	syncDir(r, path.Dir(p.rel))
	return nil
}

// createTemp writes data to a new temporary file beside p and returns it.
func createTemp(r *os.Root, p place, data []byte, perm fs.FileMode) (place, error) {
	base := path.Base(p.rel)
	if len(base) > 100 { // the temporary name must stay under the 255-byte limit of a name
		base = clip(base[:100])
	}
	tmp := p
	var f *os.File
	for i := 0; ; i++ {
		tmp.rel = path.Join(path.Dir(p.rel), "."+base+".tmp-"+randomHex())
		var err error
		f, err = r.OpenFile(tmp.native(), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			break
		}
		if !errors.Is(err, fs.ErrExist) || i == 10 {
			return place{}, failure(p, err)
		}
	}
	_, err := f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = r.Chmod(tmp.native(), perm)
	}
	if err != nil {
		r.Remove(tmp.native())
		return place{}, fmt.Errorf("writing %q failed and it was left as it was: %s", p.shown(), describe(err))
	}
	return tmp, nil
}

// createOnly puts the written file tmp at p only if nothing is there: a
// hard link fails when p exists. A file system without hard links gets
// an empty placeholder made with O_EXCL, which the rename replaces.
func createOnly(r *os.Root, tmp, p place) error {
	err := r.Link(tmp.native(), p.native())
	if err == nil {
		r.Remove(tmp.native())
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%q was made by someone else while it was written, and was left as it is: read it, then call file_write with overwrite: true to replace it", p.shown())
	}
	if escapes(err) {
		return failure(p, err)
	}
	f, err := r.OpenFile(p.native(), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%q was made by someone else while it was written, and was left as it is: read it, then call file_write with overwrite: true to replace it", p.shown())
	}
	if err != nil {
		return failure(p, err)
	}
	f.Close()
	if err := r.Rename(tmp.native(), p.native()); err != nil {
		r.Remove(p.native())
		return failure(p, err)
	}
	return nil
}

// syncDir makes a rename in dir durable where the OS can (not Windows).
func syncDir(r *os.Root, dir string) {
	if d, err := r.Open(filepath.FromSlash(dir)); err == nil {
		d.Sync()
		d.Close()
	}
}

func randomHex() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// MkdirInput is the argument of folder_make.
type MkdirInput struct {
	Path string `json:"path" jsonschema:"the folder to make, with any missing folders above it"`
}

// MkdirResult is the structured result of folder_make.
type MkdirResult struct {
	Path    string `json:"path" jsonschema:"the folder"`
	Created bool   `json:"created" jsonschema:"false when it was there already"`
}

func (s *server) addMkdirTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:        "folder_make",
		Title:       "Make a folder",
		Description: "Makes a folder, and any missing folders above it. A folder that is already there is left as it is (created: false).",
		Annotations: changes(false, true),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in MkdirInput) (*sdk.CallToolResult, MkdirResult, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, MkdirResult{}, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, MkdirResult{}, err
		}
		s.writes.Lock()
		defer s.writes.Unlock()
		res, err := mkdir(p)
		return nil, res, err
	})
}

func mkdir(p place) (MkdirResult, error) {
	r, err := p.open()
	if err != nil {
		return MkdirResult{}, err
	}
	defer r.Close()
	st, err := r.Stat(p.native())
	switch {
	case err == nil && st.IsDir():
		return MkdirResult{Path: p.shown()}, nil
	case err == nil:
		return MkdirResult{}, fmt.Errorf("%q is a file, not a folder: choose another name", p.shown())
	case !errors.Is(err, fs.ErrNotExist):
		return MkdirResult{}, failure(p, err)
	}
	if err := r.MkdirAll(p.native(), 0o755); err != nil {
		return MkdirResult{}, failure(p, err)
	}
	return MkdirResult{Path: p.shown(), Created: true}, nil
}
