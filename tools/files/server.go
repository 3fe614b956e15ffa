// Package files is the built-in files MCP server (docs/files.md): tools
// that list, read, search, write, edit and move the files of one or more
// folders, its roots, and never anything outside them. The product serves
// it with `openworker mcp serve files [--root DIR]...` and registers it as
// the MCP provider "files"; tests serve it in memory.
//
// With Options.Roots (--root) the server works in those folders and
// ignores what the client offers; without, it asks the client for its MCP
// roots (roots/list, again after notifications/roots/list_changed). With
// no root at all every tool returns an error result saying how to give
// one.
//
// Every path a tool takes is relative to the first root, or absolute
// inside one of the roots. A path that leaves its root, by "..", as an
// absolute path elsewhere or through a symbolic link (checked at open
// time by os.Root), and a path with a control character, is refused with
// an error result that names the path and the fix; so is every other
// failure. Reads and searches are bounded (MaxTextBytes, MaxImageBytes,
// MaxSearchFileBytes); writes go to a temporary file in the same folder
// that is renamed over the target, so a reader sees the old file or the
// new one and a failed write leaves the old one as it was.
//
// The tools may be called concurrently; writes of one server are
// serialized. The server writes nothing to stdout but the MCP protocol;
// diagnostics go to stderr.
package files

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name announced in the MCP initialize handshake.
const Name = "openworker-files"

// Limits (docs/files.md#limits).
const (
	// MaxTextBytes bounds the text one file_read returns: whole lines up
	// to this many bytes (a longer single line is cut). It stays under
	// the harness's 256 KB result bound (docs/limits.md) with room for
	// the result's header.
	MaxTextBytes = 240 << 10
	// MaxImageBytes bounds an image file_read returns (the harness's
	// bound per image).
	MaxImageBytes = 5 << 20
	// MaxSearchFileBytes: files_search does not look inside larger files.
	MaxSearchFileBytes = 1 << 20
	// MaxWriteBytes bounds the content of file_write and the size of a
	// file file_edit changes.
	MaxWriteBytes = 4 << 20
)

// ErrUsage marks a bad command line of ServeStdio (an unknown flag, a
// --root that is not a folder): the CLI exits 2 for it.
var ErrUsage = errors.New("bad usage")

// Options configures NewServer.
type Options struct {
	// Roots are the folders the tools work in (`--root DIR`, in order;
	// the first is where relative paths start). Each must be an existing
	// folder; it is made absolute. Empty means the client's MCP roots.
	Roots []string
	// Version is announced as the server version; "" means "dev".
	Version string
}

// Version is the server version ServeStdio announces. The product's main
// may set it from its build version before serving.
var Version = "dev"

// server holds one files server's state, shared by its sessions.
type server struct {
	fixed  []folder     // --root folders; nil: the client's roots
	roots  *clientRoots // the client roots of each session
	writes sync.Mutex   // serializes this server's changes
	logger *slog.Logger
}

// NewServer returns the files MCP server with its tools registered. It
// fails when a root in opts is not an existing folder.
func NewServer(opts Options) (*sdk.Server, error) {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &server{roots: newClientRoots()}
	for _, r := range opts.Roots {
		f, err := fixedFolder(r)
		if err != nil {
			return nil, err
		}
		s.fixed = append(s.fixed, f)
	}
	s.logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := sdk.NewServer(&sdk.Implementation{Name: Name, Title: "OpenWorker files", Version: opts.Version},
		&sdk.ServerOptions{Logger: s.logger, RootsListChangedHandler: func(_ context.Context, req *sdk.RootsListChangedRequest) {
			s.roots.forget(req.Session)
		}})
	s.addListTool(srv)
	s.addReadTool(srv)
	s.addSearchTool(srv)
	s.addInfoTool(srv)
	s.addWriteTool(srv)
	s.addEditTool(srv)
	s.addMoveTool(srv)
	s.addMkdirTool(srv)
	return srv, nil
}

// fixedFolder checks a --root folder and returns it absolute and clean.
func fixedFolder(dir string) (folder, error) {
	if dir == "" {
		return folder{}, fmt.Errorf("--root is empty: give the folder to work in, e.g. --root ~/Documents/notes")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return folder{}, fmt.Errorf("--root %s: %v", dir, err)
	}
	st, err := os.Stat(abs)
	if err != nil {
		return folder{}, fmt.Errorf("--root %s: %v: give an existing folder", dir, describe(err))
	}
	if !st.IsDir() {
		return folder{}, fmt.Errorf("--root %s is a file, not a folder: give the folder to work in", dir)
	}
	return newFolder(abs, filepath.Base(abs)), nil
}

// Serve runs the server over newline-delimited JSON-RPC on in and out
// until the client disconnects or ctx is done. It returns nil on a clean
// disconnect.
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	srv, err := NewServer(opts)
	if err != nil {
		return err
	}
	return srv.Run(ctx, &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}})
}

// ServeStdio runs the server on the process's stdin and stdout, as
// `openworker mcp serve files [--root DIR]...` does; args are the words
// after "files". A bad command line returns an error wrapping ErrUsage.
// Nothing else may write to stdout while it runs.
func ServeStdio(ctx context.Context, args []string) error {
	var roots rootFlags
	fs := flag.NewFlagSet("openworker mcp serve files", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Var(&roots, "root", "a folder to work in (repeatable); without it, the client's MCP roots")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return fmt.Errorf("%w: usage: openworker mcp serve files [--root DIR]... (docs/files.md)", ErrUsage)
		}
		return fmt.Errorf("%w: %v; usage: openworker mcp serve files [--root DIR]...", ErrUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: unexpected argument %q; give folders with --root DIR", ErrUsage, fs.Arg(0))
	}
	srv, err := NewServer(Options{Roots: roots, Version: Version})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrUsage, err)
	}
	return srv.Run(ctx, &sdk.StdioTransport{})
}

type rootFlags []string

func (r *rootFlags) String() string     { return strings.Join(*r, ",") }
func (r *rootFlags) Set(v string) error { *r = append(*r, v); return nil }

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// Annotations (docs/files.md#tools): every tool works on local files only.
func readOnly() *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
}

func changes(destructive, idempotent bool) *sdk.ToolAnnotations {
	return &sdk.ToolAnnotations{DestructiveHint: ptr(destructive), IdempotentHint: idempotent, OpenWorldHint: ptr(false)}
}

func ptr[T any](v T) *T { return &v }
