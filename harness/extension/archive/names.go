package archive

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// MaxNameBytes bounds an entry's name (in bytes of UTF-8).
const MaxNameBytes = 1024

// MaxSegmentBytes bounds one segment of an entry's name (a file or folder
// name, in bytes of UTF-8): the limit of Linux and macOS file systems, and
// never more than Windows' 255 UTF-16 units. A longer one could not be
// written; it is refused when the archive is opened, before anything is.
const MaxSegmentBytes = 255

// checkName says why an entry's name is unsafe ("" when it is fine). A
// name is a relative, slash-separated path of valid UTF-8 whose segments
// are neither empty, "." nor ".."; it has no backslash, colon (drive
// letters, Windows streams) or control character, and no segment a
// Windows folder cannot hold (a reserved device name such as CON or
// COM1, a trailing dot or space) or longer than MaxSegmentBytes. A
// folder entry may end in "/".
func checkName(name string) string {
	switch {
	case name == "":
		return "the name is empty"
	case len(name) > MaxNameBytes:
		return fmt.Sprintf("the name is %d bytes long, more than %d", len(name), MaxNameBytes)
	case !utf8.ValidString(name):
		return "the name is not valid UTF-8"
	case strings.Contains(name, `\`):
		return `the name holds a backslash (\), which Windows reads as a folder separator`
	case strings.HasPrefix(name, "/"):
		return "the name is an absolute path"
	case len(name) >= 2 && name[1] == ':' && isLetter(name[0]):
		return "the name starts with a drive letter"
	case strings.Contains(name, ":"):
		return "the name holds a colon (:), which Windows reads as a drive or stream"
	}
	if strings.IndexFunc(name, unicode.IsControl) >= 0 {
		return "the name holds a control character"
	}
	for _, s := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		if why := checkSegment(s); why != "" {
			return why
		}
	}
	return ""
}

// checkSegment says why one segment of a name is unsafe ("" when it is
// fine).
func checkSegment(s string) string {
	switch {
	case s == "..":
		return "the name climbs out of the folder (..)"
	case s == "" || s == ".":
		return "the name has an empty or \".\" segment"
	case len(s) > MaxSegmentBytes:
		return fmt.Sprintf("the segment %.40q… is %d bytes long, more than the %d a file or folder name may be on Linux, macOS and Windows", s, len(s), MaxSegmentBytes)
	case strings.HasSuffix(s, ".") || strings.HasSuffix(s, " "):
		return fmt.Sprintf("the segment %q ends in a dot or space, which Windows drops", s)
	case reservedOnWindows(s):
		return fmt.Sprintf("the segment %q is a device name on Windows", s)
	}
	return ""
}

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// reservedOnWindows reports device names (CON, PRN, AUX, NUL, COM1–9,
// LPT1–9), alone or before an extension, in any case.
func reservedOnWindows(seg string) bool {
	base, _, _ := strings.Cut(strings.ToUpper(seg), ".")
	base = strings.TrimRight(base, " ")
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	if len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) {
		return base[3] >= '0' && base[3] <= '9'
	}
	return false
}

var folder = cases.Fold()

// foldKey is the name as a case-insensitive, normalising file system
// (macOS APFS/HFS+, Windows NTFS) compares it: case-folded and in Unicode
// normalisation form C.
func foldKey(name string) string {
	return norm.NFC.String(folder.String(norm.NFD.String(name)))
}

// names checks that no two entries land on the same path of a folding
// file system: no file twice, no file where another entry needs a folder,
// and no folder spelled two ways ("lib/a.js" and "LIB/b.js" are one
// folder on macOS and Windows, two on Linux). A folder may be named
// again with the same spelling.
type names struct {
	files map[string]string // fold key → first name, for files
	dirs  map[string]string // fold key → first name, for folders (explicit and implied)
}

func newNames() *names {
	return &names{files: map[string]string{}, dirs: map[string]string{}}
}

// add records an entry (isDir for a folder entry; name without its
// trailing "/") and returns the name it collides with ("" for none).
func (n *names) add(name string, isDir bool) string {
	// Every parent is a folder.
	for p := path.Dir(name); p != "."; p = path.Dir(p) {
		k := foldKey(p)
		if other, ok := n.files[k]; ok {
			return other
		}
		if other, ok := n.dirs[k]; !ok {
			n.dirs[k] = p
		} else if other != p {
			return other // one folder spelled two ways
		}
	}
	k := foldKey(name)
	if other, ok := n.files[k]; ok {
		return other
	}
	if other, ok := n.dirs[k]; ok {
		if !isDir || other != name {
			return other
		}
		return "" // a folder named twice, or after its files: one folder
	}
	if isDir {
		n.dirs[k] = name
	} else {
		n.files[k] = name
	}
	return ""
}
