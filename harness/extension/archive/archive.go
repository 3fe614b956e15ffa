// Package archive reads MCPB extension files (.mcpb, formerly .dxt): a
// zip, optionally followed by the signature block `mcpb sign` appends. It
// checks the signature with a PKCS#7 library, refuses hostile entries
// (zip-slip, links, duplicates under case folding, zip bombs) and unpacks
// into a folder atomically. It knows nothing of manifest fields: the
// manifest is returned as bytes. The rules are in docs/extensions.md.
package archive

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"time"
)

// Limits (docs/extensions.md#unpacking-limits).
const (
	// MaxFileBytes bounds the .mcpb file itself.
	MaxFileBytes = 512 << 20
	// MaxEntries bounds the entries (files and folders) of an archive.
	MaxEntries = 20000
	// MaxUnpackedBytes bounds the bytes of all files once inflated, and
	// so also of any one file; they are counted while inflating.
	MaxUnpackedBytes = 512 << 20
	// MaxManifestBytes bounds manifest.json.
	MaxManifestBytes = 1 << 20
)

// ManifestName is the manifest's entry at the archive's root.
const ManifestName = "manifest.json"

// Entry is one entry of an archive: Name is its slash-separated path (a
// folder's without the trailing "/"), Size the uncompressed size its
// header declares in bytes (0 for folders; Unpack counts real bytes), Mode
// fs.ModeDir|0o755 for a folder, else 0o644 or, when any executable bit
// is set in the archive, 0o755.
type Entry struct {
	Name string
	Size int64
	Mode fs.FileMode
}

// Archive is an opened MCPB file held in memory. Its methods may be called
// from several goroutines.
type Archive struct {
	path    string
	zip     *zip.Reader
	files   []*zip.File // parallel to entries
	entries []Entry
	sig     Signature
}

// Open reads the MCPB file at path (at most MaxFileBytes), splits off a
// trailing signature block and checks it (see Signature), and opens the
// zip before it. It refuses, with an *Error naming path and the entry, a
// file that is too large or no zip, and an archive with more than
// MaxEntries entries, an unsafe name, an entry that is neither a regular
// file nor a folder, names that collide once folded, or declared sizes
// over MaxUnpackedBytes. A block that is malformed or does not verify does
// not fail Open: Signature reports Invalid.
func Open(path string) (*Archive, error) {
	return open(path, time.Now())
}

func open(path string, now time.Time) (*Archive, error) {
	// Stat first: opening a named pipe would wait for a writer forever.
	if st, err := os.Stat(path); err == nil && !st.Mode().IsRegular() {
		return nil, notRegular(path, st.Mode())
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, &Error{File: path, Kind: ErrUnreadable, Reason: "cannot open the file", Err: err,
			Fix: "check that the file exists and can be read"}
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, &Error{File: path, Kind: ErrUnreadable, Reason: "cannot read the file", Err: err,
			Fix: "copy the file again"}
	}
	if !st.Mode().IsRegular() { // replaced since the Stat above
		return nil, notRegular(path, st.Mode())
	}
	if st.Size() > MaxFileBytes {
		return nil, tooLargeFile(path, st.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, &Error{File: path, Kind: ErrUnreadable, Reason: "cannot read the file", Err: err,
			Fix: "copy the file again"}
	}
	if len(data) > MaxFileBytes {
		return nil, tooLargeFile(path, int64(len(data)))
	}
	content, sig, problem := splitSignature(data)
	a := &Archive{path: path}
	switch {
	case problem != "":
		a.sig = Signature{Status: Invalid, Problem: problem}
	case sig == nil:
		a.sig = Signature{Status: Unsigned}
	default:
		a.sig = verify(content, sig, now)
	}
	zr, err := zip.NewReader(bytes.NewReader(content), int64(len(content)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) { // names are checked below, with a clearer error
		return nil, &Error{File: path, Kind: ErrUnreadable, Err: err,
			Reason: "not a zip archive, or a truncated one",
			Fix:    "download the extension again; " + fixRepack}
	}
	if len(zr.File) > MaxEntries {
		return nil, &Error{File: path, Kind: ErrTooMany,
			Reason: fmt.Sprintf("the archive has %d entries, more than %d", len(zr.File), MaxEntries), Fix: fixRepack}
	}
	a.zip = zr
	if err := a.index(); err != nil {
		return nil, err
	}
	return a, nil
}

func notRegular(path string, m fs.FileMode) error {
	what := "a folder"
	if !m.IsDir() {
		what = "a " + kindOf(m)
	}
	return &Error{File: path, Kind: ErrUnreadable, Reason: "not a regular file but " + what, Fix: "choose the .mcpb file itself"}
}

func tooLargeFile(path string, n int64) error {
	return &Error{File: path, Kind: ErrTooLarge,
		Reason: fmt.Sprintf("the file is %s, more than the %s an extension may be", mib(n), mib(MaxFileBytes)),
		Fix:    fixRepack + " and without what the server does not need"}
}

// index checks every entry's name, type and declared size and builds the
// entry list.
func (a *Archive) index() error {
	seen := newNames()
	var total uint64
	for _, f := range a.zip.File {
		bad := func(kind error, reason string) error {
			return &Error{File: a.path, Entry: f.Name, Kind: kind, Reason: reason, Fix: fixRepack}
		}
		if why := checkName(f.Name); why != "" {
			return bad(ErrUnsafePath, why)
		}
		mode := f.Mode()
		isDir := mode.IsDir()
		if isDir != strings.HasSuffix(f.Name, "/") {
			return bad(ErrNotRegular, "a folder entry's name must end in / and only a folder's may")
		}
		if !isDir && !mode.IsRegular() {
			return bad(ErrNotRegular, fmt.Sprintf("the entry is a %s, not a regular file or folder; extensions may hold only those", kindOf(mode)))
		}
		name := strings.TrimSuffix(f.Name, "/")
		if other := seen.add(name, isDir); other != "" {
			return bad(ErrDuplicate, fmt.Sprintf("the name collides with %q on file systems that ignore case or Unicode normalisation (macOS, Windows)", other))
		}
		e := Entry{Name: name, Mode: fs.ModeDir | 0o755}
		if !isDir {
			total += f.UncompressedSize64
			if f.UncompressedSize64 > MaxUnpackedBytes {
				return bad(ErrTooLarge, fmt.Sprintf("the entry declares %s once unpacked, more than the %s an extension may hold",
					mib(int64(min(f.UncompressedSize64, 1<<62))), mib(MaxUnpackedBytes)))
			}
			if total > MaxUnpackedBytes {
				return bad(ErrTooLarge, fmt.Sprintf("with this entry (%s) the archive declares %s once unpacked, more than the %s an extension may hold",
					mib(int64(f.UncompressedSize64)), mib(int64(total)), mib(MaxUnpackedBytes)))
			}
			e.Size, e.Mode = int64(f.UncompressedSize64), 0o644
			if mode&0o111 != 0 {
				e.Mode = 0o755
			}
		}
		a.files = append(a.files, f)
		a.entries = append(a.entries, e)
	}
	return nil
}

func kindOf(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "symbolic link"
	case m&fs.ModeDevice != 0:
		return "device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// mib formats n bytes as "12.3 MiB".
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// Path is the file Open read.
func (a *Archive) Path() string { return a.path }

// Signature is the outcome of the signature check Open made
// (docs/extensions.md#signatures).
func (a *Archive) Signature() Signature { return a.sig }

// Entries lists the archive's entries in their order in the zip.
func (a *Archive) Entries() []Entry { return append([]Entry(nil), a.entries...) }

// Manifest returns the raw bytes of manifest.json at the archive's root,
// at most MaxManifestBytes (counted while inflating). The error is an
// *Error: ErrNoManifest when there is none, ErrTooLarge, ErrUnreadable.
func (a *Archive) Manifest() ([]byte, error) {
	for i, e := range a.entries {
		if e.Name != ManifestName || e.Mode.IsDir() {
			continue
		}
		f := a.files[i]
		rc, err := f.Open()
		if err != nil {
			return nil, a.corrupt(f.Name, err)
		}
		defer rc.Close()
		b, err := io.ReadAll(io.LimitReader(rc, MaxManifestBytes+1))
		if err != nil {
			return nil, a.corrupt(f.Name, err)
		}
		if len(b) > MaxManifestBytes {
			return nil, &Error{File: a.path, Entry: f.Name, Kind: ErrTooLarge,
				Reason: fmt.Sprintf("manifest.json is more than %s", mib(MaxManifestBytes)), Fix: fixRepack}
		}
		return b, nil
	}
	return nil, &Error{File: a.path, Kind: ErrNoManifest, Reason: "the archive has no manifest.json at its root",
		Fix: "an MCPB extension needs one; " + fixRepack + " from a folder with manifest.json"}
}

// corrupt is the error for an entry that does not inflate.
func (a *Archive) corrupt(entry string, err error) error {
	return &Error{File: a.path, Entry: entry, Kind: ErrUnreadable, Err: err,
		Reason: "the entry is damaged or inflates beyond its declared size",
		Fix:    "download the extension again; " + fixRepack}
}
