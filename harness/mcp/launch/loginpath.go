package launch

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"runtime"
	"strings"
	"sync"
	"time"
)

// LoginShellTimeout bounds reading the login shell's PATH
// (docs/mcp.md#the-login-shells-path).
const LoginShellTimeout = 3 * time.Second

// Where a SearchPath came from.
const (
	FromLoginShell = "login shell" // the login shell's PATH, then the process's
	FromProcess    = "process"     // the process's own PATH, as started
	FromFallback   = "fallback"    // the process's PATH plus the usual folders that exist
)

// SearchPath is a resolved search PATH and where it came from.
type SearchPath struct {
	Path   string `json:"path"`            // folders joined by the OS list separator
	Source string `json:"source"`          // FromLoginShell, FromProcess or FromFallback
	Shell  string `json:"shell,omitempty"` // the login shell asked, when one was
	// Reason says why the login shell's PATH is not used (FromFallback),
	// e.g. "$SHELL is not set" or "the login shell /bin/zsh did not
	// answer within 3s"; "" otherwise.
	Reason string `json:"reason,omitempty"`
}

// Describe names the source for messages: "the login shell /bin/zsh",
// "the process environment", or the fallback with its reason.
func (p SearchPath) Describe() string {
	switch p.Source {
	case FromLoginShell:
		return "the login shell " + p.Shell
	case FromFallback:
		return "the process environment and the usual folders, because " + p.Reason
	}
	return "the process environment"
}

// ShellRunner runs shell with args and returns its stdout; ctx ends it
// (the default runner kills its whole process group).
type ShellRunner func(ctx context.Context, shell string, args []string) ([]byte, error)

// LoginOptions configure ReadLoginPath. Zero values are the process's own.
type LoginOptions struct {
	Shell       string        // "" is $SHELL
	ProcessPath string        // "" is $PATH of this process
	Home        string        // "" is os.UserHomeDir(); for the usual folders
	Timeout     time.Duration // 0 is LoginShellTimeout (3 s)
	Run         ShellRunner   // nil runs the shell (the process group is killed at the bound)
	// IsDir reports whether a usual folder exists; nil is os.Stat.
	IsDir func(string) bool
}

// usualFolders are added (when they exist) to the process's PATH when the
// login shell cannot say (docs/mcp.md#the-login-shells-path); "~" is the
// home folder.
var usualFolders = []string{
	"/opt/homebrew/bin", "/opt/homebrew/sbin", "/usr/local/bin", "/opt/local/bin",
	"~/.local/bin", "~/.cargo/bin", "~/.volta/bin", "~/.bun/bin", "~/.deno/bin",
	"~/.nix-profile/bin", "/nix/var/nix/profiles/default/bin",
	"/usr/bin", "/bin", "/usr/sbin", "/sbin",
}

// ReadLoginPath asks the login shell for its PATH once: it runs
// `$SHELL -i -l -c` printing PATH between two unique markers (what rc
// files print around them is ignored), within o.Timeout (3 s), with stdin
// closed. The result is the login PATH followed by the process PATH's
// folders that are not in it. When $SHELL is unset, the shell fails, hangs
// or prints no PATH, it is the process PATH plus the usual folders
// (/opt/homebrew/bin, /usr/local/bin, ~/.local/bin, ~/.cargo/bin, ...)
// that exist, with the reason.
func ReadLoginPath(ctx context.Context, o LoginOptions) SearchPath {
	o = o.fill()
	if o.Shell == "" {
		return fallback(o, "$SHELL is not set")
	}
	tag := make([]byte, 8)
	_, _ = rand.Read(tag)
	begin, end := "__OPENWORKER_PATH_"+hex.EncodeToString(tag)+"_BEGIN__", "__OPENWORKER_PATH_"+hex.EncodeToString(tag)+"_END__"
	script := fmt.Sprintf(`printf '%%s' '%s'; printf '%%s' "$PATH"; printf '%%s' '%s'`, begin, end)
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	out, err := o.Run(ctx, o.Shell, []string{"-i", "-l", "-c", script})
	if ctx.Err() == context.DeadlineExceeded {
		return fallback(o, fmt.Sprintf("the login shell %s did not answer within %s", o.Shell, o.Timeout))
	}
	if ctx.Err() != nil {
		return fallback(o, fmt.Sprintf("the login shell %s did not answer before the read was stopped", o.Shell))
	}
	// ErrWaitDelay: the shell exited 0 but an rc file's background job
	// still held stdout; what the shell printed is complete.
	if err != nil && !errors.Is(err, exec.ErrWaitDelay) {
		return fallback(o, fmt.Sprintf("the login shell %s failed: %v", o.Shell, err))
	}
	path, ok := between(out, begin, end)
	if !ok || strings.TrimSpace(path) == "" {
		return fallback(o, fmt.Sprintf("the login shell %s printed no PATH", o.Shell))
	}
	return SearchPath{Path: MergePath(path, o.ProcessPath), Source: FromLoginShell, Shell: o.Shell}
}

func (o LoginOptions) fill() LoginOptions {
	if o.Shell == "" {
		o.Shell = os.Getenv("SHELL")
	}
	if o.ProcessPath == "" {
		o.ProcessPath = os.Getenv("PATH")
	}
	if o.Home == "" {
		o.Home, _ = os.UserHomeDir()
	}
	if o.Timeout <= 0 {
		o.Timeout = LoginShellTimeout
	}
	if o.Run == nil {
		o.Run = runShell
	}
	if o.IsDir == nil {
		o.IsDir = func(p string) bool { fi, err := os.Stat(p); return err == nil && fi.IsDir() }
	}
	return o
}

func fallback(o LoginOptions, reason string) SearchPath {
	var extra []string
	for _, dir := range usualFolders {
		if strings.HasPrefix(dir, "~/") {
			if o.Home == "" {
				continue
			}
			dir = path.Join(o.Home, dir[2:]) // a Unix path on any system, as MergePath wants
		}
		if o.IsDir(dir) {
			extra = append(extra, dir)
		}
	}
	return SearchPath{Path: MergePath(o.ProcessPath, strings.Join(extra, ":")), Source: FromFallback, Shell: o.Shell, Reason: reason}
}

// between returns what out holds between the last begin marker and the
// end marker after it.
func between(out []byte, begin, end string) (string, bool) {
	i := bytes.LastIndex(out, []byte(begin))
	if i < 0 {
		return "", false
	}
	rest := out[i+len(begin):]
	j := bytes.Index(rest, []byte(end))
	if j < 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// MergePath returns first's folders, then second's folders not already
// listed (":"-separated, first occurrence kept). Empty, "." and other
// relative entries are dropped: they would make a server's
// `#!/usr/bin/env node` run ./node from its working folder.
func MergePath(first, second string) string {
	seen := map[string]bool{}
	var out []string
	for _, list := range []string{first, second} {
		for _, dir := range strings.Split(list, ":") {
			dir = strings.TrimSpace(dir)
			if !strings.HasPrefix(dir, "/") || seen[dir] {
				continue
			}
			seen[dir] = true
			out = append(out, dir)
		}
	}
	return strings.Join(out, ":")
}

// Reader reads the login shell's PATH once, in the background: Start
// returns at once, Wait blocks until the read ended (bounded by
// LoginOptions.Timeout) or ctx ends. Safe for concurrent use.
type Reader struct {
	opts  LoginOptions
	once  sync.Once
	done  chan struct{}
	found SearchPath
}

// NewReader returns a Reader that has not started.
func NewReader(o LoginOptions) *Reader { return &Reader{opts: o, done: make(chan struct{})} }

// Start begins the read in a goroutine; later calls do nothing.
func (r *Reader) Start() {
	r.once.Do(func() {
		go func() {
			r.found = ReadLoginPath(context.Background(), r.opts)
			close(r.done)
		}()
	})
}

// Wait starts the read if needed and returns its result, or, when ctx
// ends first, the fallback saying so.
func (r *Reader) Wait(ctx context.Context) SearchPath {
	r.Start()
	select {
	case <-r.done:
		return r.found
	case <-ctx.Done():
		return fallback(r.opts.fill(), "the login shell had not answered when the program was needed: "+context.Cause(ctx).Error())
	}
}

var loginReader = NewReader(LoginOptions{})

// StartLoginPath begins reading this process's login shell PATH in the
// background (the app calls it at start); it never blocks.
func StartLoginPath() {
	if runtime.GOOS != "windows" {
		loginReader.Start()
	}
}

// LoginPath is this process's login-shell search PATH (read once, see
// ReadLoginPath), waiting for the read at most until its 3 s bound or ctx.
// On Windows it is the process PATH: there is no login shell.
func LoginPath(ctx context.Context) SearchPath {
	if runtime.GOOS == "windows" {
		return ProcessPath()
	}
	return loginReader.Wait(ctx)
}

// ProcessPath is the process's own PATH, as it was started.
func ProcessPath() SearchPath {
	return SearchPath{Path: os.Getenv("PATH"), Source: FromProcess}
}

// Default is the search PATH an MCP stdio provider is resolved against
// when the host names none (docs/mcp.md#finding-the-program): LoginPath on
// macOS, where an app started from Finder or the Dock has launchd's
// minimal PATH; ProcessPath elsewhere (the desktop app also uses
// LoginPath on Linux). `openworker doctor` prints it.
func Default(ctx context.Context) SearchPath {
	if runtime.GOOS == "darwin" {
		return LoginPath(ctx)
	}
	return ProcessPath()
}
