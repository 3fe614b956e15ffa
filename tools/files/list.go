package files

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of files_list.
const (
	defaultListEntries = 200
	maxListEntries     = 1000
	// maxListScan bounds how many entries of one folder are read (and
	// sorted) before the first limit are returned.
	maxListScan = 20000
)

// ListInput is the argument of files_list.
type ListInput struct {
	Path  string `json:"path,omitempty" jsonschema:"the folder to list, relative to the working folder or absolute inside a root; default: the working folder"`
	Limit int    `json:"limit,omitempty" jsonschema:"most entries to return, 1 to 1000; default 200"`
}

// Entry is one file or folder of a listing.
type Entry struct {
	Name     string `json:"name" jsonschema:"the entry's name"`
	Path     string `json:"path" jsonschema:"its path, to give to the other tools"`
	Type     string `json:"type" jsonschema:"file, folder, link or other (a device, socket or pipe)"`
	Size     int64  `json:"size" jsonschema:"bytes (files; 0 for the rest)"`
	Modified string `json:"modified" jsonschema:"last change, RFC 3339"`
	// Target is where a link points, as written, and whether it stays in
	// the folder.
	Target string `json:"target,omitempty" jsonschema:"for a link: where it points, as written"`
	Note   string `json:"note,omitempty" jsonschema:"for a link that leads outside the folder or nowhere: why it cannot be used"`
}

// Listing is the structured result of files_list.
type Listing struct {
	Path      string   `json:"path" jsonschema:"the folder listed"`
	Folder    string   `json:"folder" jsonschema:"its absolute path"`
	Entries   []Entry  `json:"entries" jsonschema:"folders first, then files, each sorted by name"`
	Total     int      `json:"total" jsonschema:"entries in the folder (counted up to 20000)"`
	Truncated bool     `json:"truncated" jsonschema:"true when entries holds fewer than total: raise limit, or use files_search"`
	Roots     []string `json:"roots,omitempty" jsonschema:"when the working folder is listed: every folder this server works in (the first is the working folder)"`
}

func (s *server) addListTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "files_list",
		Title: "List a folder",
		Description: "Lists the files and folders in a folder (default: the working folder) with each one's type, size and last change. " +
			"Paths are relative to the working folder, or absolute inside one of the folders this server works in; nothing outside them can be listed.",
		Annotations: readOnly(),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in ListInput) (*sdk.CallToolResult, Listing, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, Listing{}, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, Listing{}, err
		}
		l, err := list(p, in.Limit)
		if err == nil && p.first && p.isRoot() {
			l.Roots = make([]string, len(roots))
			for i, f := range roots {
				l.Roots[i] = f.dir
			}
		}
		return nil, l, err
	})
}

func list(p place, limit int) (Listing, error) {
	if limit <= 0 {
		limit = defaultListEntries
	}
	limit = min(limit, maxListEntries)
	r, err := p.open()
	if err != nil {
		return Listing{}, err
	}
	defer r.Close()
	st, err := r.Stat(p.native())
	if err != nil {
		return Listing{}, failure(p, err)
	}
	if !st.IsDir() {
		return Listing{}, fmt.Errorf("%q is a file, not a folder: read it with file_read, or list its folder", p.shown())
	}
	d, err := r.Open(p.native())
	if err != nil {
		return Listing{}, failure(p, err)
	}
	defer d.Close()
	des, err := d.ReadDir(maxListScan)
	if err != nil && err != io.EOF {
		return Listing{}, failure(p, err)
	}
	sort.Slice(des, func(i, j int) bool {
		if di, dj := des[i].IsDir(), des[j].IsDir(); di != dj {
			return di
		}
		return des[i].Name() < des[j].Name()
	})
	l := Listing{Path: p.shown(), Folder: abs(p), Total: len(des), Entries: []Entry{}}
	for _, de := range des {
		if len(l.Entries) == limit {
			l.Truncated = true
			break
		}
		l.Entries = append(l.Entries, entry(r, p.child(de.Name()), de))
	}
	return l, nil
}

// entry describes one directory entry c of the root r.
func entry(r *os.Root, c place, de fs.DirEntry) Entry {
	e := Entry{Name: de.Name(), Path: c.shown(), Type: typeName(de.Type())}
	info, err := de.Info()
	if err != nil {
		e.Note = describe(err)
		return e
	}
	e.Modified = info.ModTime().Format(time.RFC3339)
	if info.Mode().IsRegular() {
		e.Size = info.Size()
	}
	if de.Type()&fs.ModeSymlink != 0 {
		e.Target, e.Note = link(r, c)
	}
	return e
}

// link reads the symbolic link c and says whether it can be followed.
func link(r *os.Root, c place) (target, note string) {
	t, err := r.Readlink(c.native())
	if err != nil {
		return "", describe(err)
	}
	if _, err := r.Stat(c.native()); err != nil {
		if escapes(err) {
			return clip(t), "leads outside the folder (or is written as an absolute path): it cannot be used"
		}
		return clip(t), "leads nowhere: " + describe(err)
	}
	return clip(t), ""
}

func typeName(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "folder"
	case m&fs.ModeSymlink != 0:
		return "link"
	case m.IsRegular():
		return "file"
	}
	return "other"
}

func abs(p place) string { return filepath.Join(p.f.dir, p.native()) }

// InfoInput is the argument of file_info.
type InfoInput struct {
	Path string `json:"path" jsonschema:"the file or folder, relative to the working folder or absolute inside a root"`
}

// Info is the structured result of file_info.
type Info struct {
	Path     string `json:"path" jsonschema:"the path as given to the other tools"`
	Absolute string `json:"absolute" jsonschema:"its absolute path"`
	Type     string `json:"type" jsonschema:"file, folder, link or other"`
	Size     int64  `json:"size" jsonschema:"bytes (files)"`
	Modified string `json:"modified" jsonschema:"last change, RFC 3339"`
	Mode     string `json:"mode" jsonschema:"permissions, as ls shows them"`
	Target   string `json:"target,omitempty" jsonschema:"for a link: where it points, as written"`
	Note     string `json:"note,omitempty" jsonschema:"for a link that cannot be followed: why"`
	// Kind says what file_read does with a file.
	Kind     string `json:"kind,omitempty" jsonschema:"for a file: text, image (PNG or JPEG, read as an image), or binary (not readable here)"`
	MIMEType string `json:"mime_type,omitempty" jsonschema:"for a file: its type, sniffed from its first bytes"`
}

func (s *server) addInfoTool(srv *sdk.Server) {
	sdk.AddTool(srv, &sdk.Tool{
		Name:  "file_info",
		Title: "File info",
		Description: "Reports whether a path exists and what it is: type (file, folder, link), size, last change, permissions, " +
			"and for a file whether file_read can read it as text or as an image.",
		Annotations: readOnly(),
	}, func(ctx context.Context, req *sdk.CallToolRequest, in InfoInput) (*sdk.CallToolResult, Info, error) {
		roots, ask, err := s.folders(req)
		if ask != nil || err != nil {
			return ask, Info{}, err
		}
		p, err := locate(roots, "path", in.Path)
		if err != nil {
			return nil, Info{}, err
		}
		return info(p)
	})
}

func info(p place) (*sdk.CallToolResult, Info, error) {
	r, err := p.open()
	if err != nil {
		return nil, Info{}, err
	}
	defer r.Close()
	st, err := r.Lstat(p.native())
	if err != nil {
		return nil, Info{}, failure(p, err)
	}
	in := Info{Path: p.shown(), Absolute: abs(p), Type: typeName(st.Mode().Type()), Modified: st.ModTime().Format(time.RFC3339), Mode: st.Mode().String()}
	if st.Mode()&fs.ModeSymlink != 0 {
		in.Target, in.Note = link(r, p)
		return nil, in, nil
	}
	if st.Mode().IsRegular() {
		in.Size = st.Size()
		f, err := openRegular(r, p)
		if err != nil {
			return nil, Info{}, err
		}
		defer f.Close()
		head := make([]byte, sniffBytes)
		n, _ := io.ReadFull(f, head)
		in.Kind, in.MIMEType = kindOf(head[:n])
	}
	return nil, in, nil
}

// sniffBytes is how much of a file decides whether it is text.
const sniffBytes = 8 << 10

// kindOf says what file_read does with a file that starts with head:
// "text", "image" (PNG, JPEG) or "binary", and its sniffed MIME type.
func kindOf(head []byte) (kind, mime string) {
	mime = http.DetectContentType(head)
	switch {
	case mime == "image/png" || mime == "image/jpeg":
		return "image", mime
	case strings.HasPrefix(mime, "text/") && !strings.Contains(mime, "utf-16"):
		return "text", mime
	}
	return "binary", mime
}
