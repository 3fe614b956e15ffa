package archive

import (
	"errors"
	"fmt"
)

// The kinds of refusal an *Error wraps; test them with errors.Is. The
// rules behind them are in docs/extensions.md#unpacking-limits.
var (
	// ErrUnreadable: the file cannot be read, is no zip, or is truncated.
	ErrUnreadable = errors.New("not a readable MCPB archive")
	// ErrTooLarge: the file, an entry or the total unpacked size is over
	// its limit (MaxFileBytes, MaxUnpackedBytes, MaxManifestBytes).
	ErrTooLarge = errors.New("too large")
	// ErrTooMany: more than MaxEntries entries.
	ErrTooMany = errors.New("too many entries")
	// ErrUnsafePath: an entry's name leaves the folder (../, an absolute
	// path, a drive letter), uses a backslash, or is not portable.
	ErrUnsafePath = errors.New("unsafe entry name")
	// ErrNotRegular: a symbolic link, device, pipe or other entry that is
	// neither a regular file nor a folder.
	ErrNotRegular = errors.New("not a regular file")
	// ErrDuplicate: two entries whose names are equal once case and
	// Unicode normalisation are folded (as macOS and Windows do).
	ErrDuplicate = errors.New("duplicate entry name")
	// ErrNoManifest: no manifest.json at the archive's root.
	ErrNoManifest = errors.New("no manifest.json")
	// ErrDestination: Unpack's destination exists or cannot be made.
	ErrDestination = errors.New("bad destination")
)

// Error is a refusal of an archive. File is the archive's path; Entry the
// entry's name inside it ("" when the whole file is at fault); Kind one of
// the Err* values above; Reason what is wrong and Fix what to do about it.
// Err, when set, is the underlying error.
type Error struct {
	File, Entry string
	Kind        error
	Reason, Fix string
	Err         error
}

// Error reads `FILE: entry "NAME": REASON; FIX`.
func (e *Error) Error() string {
	s := e.File + ": "
	if e.Entry != "" {
		s += fmt.Sprintf("entry %q: ", e.Entry)
	}
	s += e.Reason
	if e.Err != nil {
		s += " (" + e.Err.Error() + ")"
	}
	if e.Fix != "" {
		s += "; " + e.Fix
	}
	return s
}

// Is matches the error's Kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// fixRepack is the fix for an archive its author must rebuild.
const fixRepack = "ask the extension's author for an archive packed with `mcpb pack`"
