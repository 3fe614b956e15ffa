package files

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves a files server with opts in memory and returns a client
// session. roots, when not nil, are offered by the client as its MCP roots
// (client is then returned so a test can change them).
func connect(t *testing.T, opts Options, roots ...string) (*sdk.ClientSession, *sdk.Client) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	srv, err := NewServer(opts)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	var copts *sdk.ClientOptions
	if roots != nil {
		copts = &sdk.ClientOptions{Capabilities: &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{ListChanged: true}}}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, copts)
	for _, r := range roots {
		c.AddRoots(&sdk.Root{URI: fileURI(r), Name: filepath.Base(r)})
	}
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs, c
}

// fileURI is the file:// URI of an absolute path, as harness/mcp writes it.
func fileURI(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return "file://" + p
}

// serveRoot serves a files server on a fresh root folder (--root) and
// returns the session and the folder.
func serveRoot(t *testing.T) (*sdk.ClientSession, string) {
	t.Helper()
	dir := t.TempDir()
	cs, _ := connect(t, Options{Roots: []string{dir}, Version: "1.2.3"})
	return cs, dir
}

// call calls a tool and returns its result; a protocol error fails the
// test (a refusal must be a tool error result, never a protocol error).
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", name, args, err)
	}
	return res
}

// ok calls a tool, fails the test on an error result and decodes the
// structured content into out (when not nil).
func ok(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, out any) *sdk.CallToolResult {
	t.Helper()
	res := call(t, cs, name, args)
	if res.IsError {
		t.Fatalf("%s(%v) failed: %s", name, args, text(res))
	}
	if out != nil {
		b, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s structured content %s: %v", name, b, err)
		}
	}
	return res
}

// refused calls a tool and checks that it returns an error result whose
// message holds every one of want.
func refused(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, want ...string) string {
	t.Helper()
	res := call(t, cs, name, args)
	msg := text(res)
	if !res.IsError {
		t.Fatalf("%s(%v) succeeded, want a refusal: %s", name, args, msg)
	}
	for _, w := range want {
		if !strings.Contains(msg, w) {
			t.Errorf("%s(%v) error %q does not say %q", name, args, msg, w)
		}
	}
	return msg
}

// text is the result's text blocks, joined with "\n".
func text(res *sdk.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// symlink makes a symbolic link, or skips the test where this system
// does not let the test make one (Windows without the privilege).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		if runtime.GOOS == "windows" {
			t.Skipf("cannot make a symbolic link here: %v", err)
		}
		t.Fatal(err)
	}
}

func TestListToolsAndAnnotations(t *testing.T) {
	cs, _ := serveRoot(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	type hints struct {
		readOnly, idempotent bool
		destructive          *bool
	}
	no, yes := false, true
	want := map[string]hints{
		"files_list":   {readOnly: true, idempotent: true},
		"file_read":    {readOnly: true, idempotent: true},
		"files_search": {readOnly: true, idempotent: true},
		"file_info":    {readOnly: true, idempotent: true},
		"file_write":   {destructive: &yes, idempotent: true},
		"file_edit":    {destructive: &no},
		"file_move":    {destructive: &yes},
		"folder_make":  {destructive: &no, idempotent: true},
	}
	for _, tl := range res.Tools {
		w, found := want[tl.Name]
		if !found {
			t.Errorf("unexpected tool %s", tl.Name)
			continue
		}
		delete(want, tl.Name)
		a := tl.Annotations
		if a == nil {
			t.Errorf("%s has no annotations", tl.Name)
			continue
		}
		if a.ReadOnlyHint != w.readOnly || a.IdempotentHint != w.idempotent {
			t.Errorf("%s: readOnly=%v idempotent=%v, want %v %v", tl.Name, a.ReadOnlyHint, a.IdempotentHint, w.readOnly, w.idempotent)
		}
		if !w.readOnly && (a.DestructiveHint == nil || *a.DestructiveHint != *w.destructive) {
			t.Errorf("%s: destructiveHint=%v, want %v", tl.Name, a.DestructiveHint, *w.destructive)
		}
		if a.OpenWorldHint == nil || *a.OpenWorldHint {
			t.Errorf("%s: openWorldHint=%v, want false", tl.Name, a.OpenWorldHint)
		}
		if tl.Description == "" || tl.Title == "" {
			t.Errorf("%s has no title or description", tl.Name)
		}
	}
	if len(want) != 0 {
		t.Errorf("tools missing: %v", want)
	}
	init := cs.InitializeResult()
	if init.ServerInfo.Name != Name || init.ServerInfo.Version != "1.2.3" {
		t.Errorf("server info = %+v", init.ServerInfo)
	}
}

func TestNewServerRefusesBadRoots(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	writeFile(t, file, "x")
	for _, tc := range []struct{ root, want string }{
		{filepath.Join(dir, "missing"), "give an existing folder"},
		{file, "is a file, not a folder"},
		{"", "--root is empty"},
	} {
		if _, err := NewServer(Options{Roots: []string{tc.root}}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("NewServer(--root %q) = %v, want an error saying %q", tc.root, err, tc.want)
		}
	}
}

func TestServeStdioUsage(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--nope"}, "flag provided but not defined: -nope"},
		{[]string{"extra"}, `unexpected argument "extra"`},
		{[]string{"--root"}, "flag needs an argument: -root"},
		{[]string{"--root", missing}, "give an existing folder"},
		{[]string{"--help"}, "usage: openworker mcp serve files [--root DIR]..."},
	} {
		err := ServeStdio(context.Background(), c.args)
		if !errors.Is(err, ErrUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ServeStdio(%q) = %v, want a usage error saying %q", c.args, err, c.want)
		}
	}
}
