package jsonfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Err returns an error at n's position.
func (n *Node) Err(msg, fix string) *Error {
	return &Error{File: n.File, Line: n.Line, Col: n.Col, Msg: msg, Fix: fix}
}

// Err returns an error at the position of f's key.
func (f *Field) Err(file, msg, fix string) *Error {
	return &Error{File: file, Line: f.Line, Col: f.Col, Msg: msg, Fix: fix}
}

// Name is how messages call n: its quoted path, or "the top-level value".
func (n *Node) Name() string {
	if n.Path == "" {
		return "the top-level value"
	}
	return strconv.Quote(n.Path)
}

// Expect returns an error at n unless n is of kind k:
// `"tools" must be an array, not a string`.
func (n *Node) Expect(k Kind) error {
	if n.Kind == k {
		return nil
	}
	return n.Err(fmt.Sprintf("%s must be %s, not %s", n.Name(), k, n.Kind), "")
}

// Keys checks that n is an object whose keys are all in allowed; the first
// other key is reported at its own position, with the allowed keys as fix.
func (n *Node) Keys(allowed ...string) error {
	if err := n.Expect(Object); err != nil {
		return err
	}
	for _, f := range n.Fields {
		ok := false
		for _, a := range allowed {
			if f.Key == a {
				ok = true
				break
			}
		}
		if !ok {
			where := "here"
			if n.Path != "" {
				where = "in " + n.Name()
			}
			fix := "remove it"
			if len(allowed) > 0 {
				fix = "allowed fields " + where + ": " + strings.Join(allowed, ", ")
			}
			return f.Err(n.File, fmt.Sprintf("unknown field %q", f.Key), fix)
		}
	}
	return nil
}

// Field returns the field of object n with key, or nil (also when n is not an
// object).
func (n *Node) Field(key string) *Field {
	if n == nil || n.Kind != Object {
		return nil
	}
	for _, f := range n.Fields {
		if f.Key == key {
			return f
		}
	}
	return nil
}

// Get returns the value of key in object n, or nil.
func (n *Node) Get(key string) *Node {
	if f := n.Field(key); f != nil {
		return f.Value
	}
	return nil
}

// Require returns the value of key in object n, or an error at n naming the
// missing key.
func (n *Node) Require(key, fix string) (*Node, error) {
	if err := n.Expect(Object); err != nil {
		return nil, err
	}
	if v := n.Get(key); v != nil {
		return v, nil
	}
	where := "the top-level object"
	if n.Path != "" {
		where = n.Name()
	}
	return nil, n.Err(fmt.Sprintf("%s has no %q field", where, key), fix)
}

// AsString returns the string value of n.
func (n *Node) AsString() (string, error) {
	if err := n.Expect(String); err != nil {
		return "", err
	}
	return n.Str, nil
}

// AsBool returns the boolean value of n.
func (n *Node) AsBool() (bool, error) {
	if err := n.Expect(Bool); err != nil {
		return false, err
	}
	return n.Bool, nil
}

// AsInt returns the value of n, which must be an integer that fits in 32 bits.
func (n *Node) AsInt() (int, error) {
	if err := n.Expect(Number); err != nil {
		return 0, err
	}
	v, err := strconv.ParseInt(string(n.Num), 10, 64)
	if err != nil || v < math.MinInt32 || v > math.MaxInt32 {
		return 0, n.Err(fmt.Sprintf("%s must be a whole number, not %s", n.Name(), n.Num), "")
	}
	return int(v), nil
}

// AsStringSlice returns the values of n, an array of strings.
func (n *Node) AsStringSlice() ([]string, error) {
	if err := n.Expect(Array); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(n.Items))
	for _, it := range n.Items {
		s, err := it.AsString()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// AsStringMap returns the values of n, an object whose values are strings.
func (n *Node) AsStringMap() (map[string]string, error) {
	if err := n.Expect(Object); err != nil {
		return nil, err
	}
	out := make(map[string]string, len(n.Fields))
	for _, f := range n.Fields {
		s, err := f.Value.AsString()
		if err != nil {
			return nil, err
		}
		out[f.Key] = s
	}
	return out, nil
}

// ReadFile reads at most limit bytes of path, which must be a regular file
// (a symbolic link to one is followed; callers that must stay inside a
// folder resolve links themselves). A larger file is a *Error naming the
// file, its size and the limit. Anything that is not a regular file (a
// folder, a named pipe, a socket, a device) is a *Error saying what it is,
// refused before it is opened: opening a named pipe blocks until someone
// writes to it, and a device such as /dev/urandom never ends. Other failures
// are the *os.PathError from os (match them with errors.Is(err,
// fs.ErrNotExist) and the like).
//
// The check is os.Stat, then open, then a second check on the opened file.
// Between the first two a file can be swapped for a pipe; on Unix the open
// uses O_NONBLOCK, so even then it returns at once and the second check
// refuses it. On other systems that race is accepted.
func ReadFile(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if e := notRegular(path, st); e != nil {
		return nil, e
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if e := notRegular(path, st); e != nil {
		return nil, e
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, &os.PathError{Op: "read", Path: path, Err: err}
	}
	if int64(len(data)) > limit {
		size := "more than " + strconv.FormatInt(limit, 10)
		if st, err := f.Stat(); err == nil {
			size = strconv.FormatInt(st.Size(), 10)
		}
		return nil, &Error{File: path, Msg: fmt.Sprintf("file is %s bytes; the limit is %d bytes", size, limit), Fix: "make it smaller"}
	}
	return data, nil
}

// notRegular returns the error for a path that is not a regular file, or
// nil.
func notRegular(path string, st fs.FileInfo) *Error {
	m := st.Mode()
	if m.IsRegular() {
		return nil
	}
	if m.IsDir() {
		return &Error{File: path, Msg: "is a folder, not a file", Fix: "point at the file itself"}
	}
	what := "a special file"
	switch {
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a device"
	}
	return &Error{File: path, Msg: fmt.Sprintf("%s is not a regular file (it is %s)", filepath.Base(path), what),
		Fix: "replace it with a regular file holding the text"}
}

// AsError returns err as a *Error if it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
