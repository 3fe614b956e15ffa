package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"unicode"
)

// Opening an extension file (docs/app.md#opening-an-extension): a .mcpb or
// .dxt given on the command line (`openworker x.mcpb`, which is how Windows
// starts the program for a double-clicked file), forwarded by a second
// start, or opened through macOS Launch Services (options.Mac.OnFileOpen)
// becomes one EventExtensionOpened, as does a file dropped on the window
// (filesDropped). The UI opens the install dialog for it, which calls
// PreviewExtension and InstallExtension (extinstall.go).

// extensionExts are the file name endings of an extension (MCP bundle),
// compared case-insensitively.
var extensionExts = []string{".mcpb", ".dxt"}

// ExtensionOpened is the payload of EventExtensionOpened. Path is absolute
// (as given when it could not be made absolute), Name its base name. Size
// is the file's size in bytes when it is one; otherwise Error says what is
// wrong with Path and how to fix it, and Size is 0.
type ExtensionOpened struct {
	Path  string `json:"path"`
	Name  string `json:"name"`
	Size  int64  `json:"size"`
	Error string `json:"error,omitempty"`
}

// isExtensionName reports whether path ends in .mcpb or .dxt, in any case.
func isExtensionName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	for _, e := range extensionExts {
		if ext == e {
			return true
		}
	}
	return false
}

// visibleName writes the characters of a file name that would hide what
// it reads as (controls, bidirectional overrides and isolates, zero-width
// characters: "invoice\u202Efdp.mcpb" shows as "invoicebpcm.pdf") as
// visible ⟨U+XXXX⟩ marks, so a notice never shows a disguised name.
func visibleName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		switch {
		case unicode.IsControl(r), r == 0x061C, r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E,
			r >= 0x2066 && r <= 0x2069, r == 0xFEFF:
			fmt.Fprintf(&b, "⟨U+%04X⟩", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// inspectExtension checks that path is an extension file: it must exist, be
// a regular file (a link to one is followed) and end in .mcpb or .dxt.
func inspectExtension(path string) ExtensionOpened {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	e := ExtensionOpened{Path: path, Name: visibleName(filepath.Base(path))}
	st, err := os.Stat(path)
	path = visibleName(path) // for the messages below; e.Path stays the real one
	switch {
	case errors.Is(err, fs.ErrNotExist):
		e.Error = fmt.Sprintf("%s does not exist (or is a link that leads nowhere): check the path, or download the extension again", path)
	case err != nil:
		// The OS error repeats the real path: its hidden characters are
		// shown as marks too (Windows refuses control characters in names
		// with "Invalid name" rather than "not found"; seen under Wine).
		e.Error = fmt.Sprintf("%s cannot be read: %s", path, visibleName(err.Error()))
	case st.IsDir():
		e.Error = fmt.Sprintf("%s is a folder: an extension is one .mcpb or .dxt file (to add a coworker folder, use Coworkers → Add coworker…)", path)
	case !st.Mode().IsRegular():
		e.Error = fmt.Sprintf("%s is not a regular file: open the .mcpb or .dxt file itself", path)
	case !isExtensionName(path):
		e.Error = fmt.Sprintf("%s is not an extension: OpenWorker opens .mcpb and .dxt files (MCP bundles)", path)
	default:
		e.Size = st.Size()
	}
	return e
}

// OpensFile reports whether the desktop app takes arg, a word that is not
// a flag, as a file to open (fileArgs): it ends in .mcpb or .dxt (any case)
// or exists. The CLI asks before it calls a word an unknown command.
func OpensFile(arg string) bool {
	if isExtensionName(arg) {
		return true
	}
	_, err := os.Stat(arg)
	return err == nil
}

// fileArgs are the file arguments of a command line (what follows the
// flags): each is resolved against wd when relative ("" is the current
// folder). An argument that neither ends in .mcpb or .dxt nor exists is a
// stray argument, a usage error, so a mistyped subcommand still exits 2;
// any other file becomes an ExtensionOpened, with its Error when it is not
// an extension.
func fileArgs(args []string, wd string) ([]string, error) {
	var out []string
	for _, arg := range args {
		p := arg
		if wd != "" && !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		if !OpensFile(p) {
			return nil, newUsageError(fmt.Sprintf("unexpected argument %q (subcommands are listed by openworker --help; files to open end in .mcpb or .dxt)", arg))
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out, nil
}

// launchFiles are the files a second start was given (its command line
// and working folder, as forwarded by wake_socket_unix.go or Wails'
// single-instance lock). The second start checked its flags already, so
// a line that no longer parses gives no files rather than an error.
func launchFiles(args []string, wd string) []string {
	fl, _ := newFlagSet(&config{})
	if err := fl.Parse(args); err != nil {
		return nil
	}
	files, _ := fileArgs(fl.Args(), wd)
	return files
}

// openedInbox holds the ExtensionOpened events that came before the UI
// listened: the UI subscribes to the events and then calls Info, which
// marks it ready (Info) and sends what waited, in order. mu guards the
// queue; Emit does not block, so events are sent under it, in order.
type openedInbox struct {
	*env

	mu    sync.Mutex
	ready bool
	queue []ExtensionOpened
}

// openFiles checks each path (inspectExtension) and sends it to the UI as
// EventExtensionOpened, or queues it until the UI is ready.
func (o *openedInbox) openFiles(paths []string) {
	for _, p := range paths {
		e := inspectExtension(p) // reads the file's facts: no lock held
		o.log.Info("extension opened", "path", e.Path, "size", e.Size, "error", e.Error)
		o.mu.Lock()
		if o.ready {
			o.send(e)
		} else {
			o.queue = append(o.queue, e)
		}
		o.mu.Unlock()
	}
}

// uiReady sends the queued ExtensionOpened events; later ones go at once.
func (o *openedInbox) uiReady() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ready = true
	for _, e := range o.queue {
		o.send(e)
	}
	o.queue = nil
}

// send sends e (Emit does not block, so it may run under the lock,
// which keeps the order).
func (o *openedInbox) send(e ExtensionOpened) {
	noteExtensionOpened(e)
	o.emit.Emit(EventExtensionOpened, e)
}
