//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/tool"
)

// filesystemServer is server-filesystem started without folder arguments:
// it can work only inside the roots the client offers.
func filesystemServer(t *testing.T) tool.MCPServer {
	t.Helper()
	node, entry := npmtest.Server(t, "server-filesystem")
	return tool.MCPServer{Namespace: "files", Program: node, Args: []string{entry}}
}

// TestRootsFilesystemServer: server-filesystem without folders asks for
// the roots, takes the workspace as its one allowed directory, reads a file
// inside it and refuses one outside.
func TestRootsFilesystemServer(t *testing.T) {
	srv := filesystemServer(t)
	ws, err := filepath.EvalSymlinks(t.TempDir()) // the server resolves symlinks (macOS /var)
	if err != nil {
		t.Fatal(err)
	}
	ws = filepath.Join(ws, "my work")
	os.Mkdir(ws, 0o755)
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("the meeting is at 10:00\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("not for the model\n"), 0o644)

	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard) // hang guard
	defer cancel()
	p, err := ConnectIn(ctx, srv, &Options{StartTimeout: startGuard}, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if r, ok := p.Root(); !ok || r.Name != "my work" || r.URI != FileURI(ws) {
		t.Errorf("Root() = %+v, %v", r, ok)
	}
	// The server asks for the roots after the handshake and then validates
	// them; it says so on stderr.
	select {
	case <-p.stdio.stderr.when("Updated allowed directories from MCP roots: 1 valid"):
	case <-ctx.Done():
		t.Fatalf("the server never took the root; stderr: %s", p.StderrTail())
	}
	if n, _ := p.RootsAsked(); n != 1 {
		t.Errorf("RootsAsked = %d, want 1", n)
	}
	out, err := p.CallTool(ctx, "list_allowed_directories", json.RawMessage(`{}`), nil)
	if err != nil || !strings.Contains(out.Text, ws) {
		t.Errorf("list_allowed_directories = %q, %v; want %q", out.Text, err, ws)
	}
	args := func(path string) json.RawMessage { b, _ := json.Marshal(map[string]string{"path": path}); return b }
	out, err = p.CallTool(ctx, "read_text_file", args(filepath.Join(ws, "notes.txt")), nil)
	if err != nil || !strings.Contains(out.Text, "the meeting is at 10:00") {
		t.Errorf("read inside the workspace = %q, %v", out.Text, err)
	}
	out, err = p.CallTool(ctx, "read_text_file", args(outside), nil)
	var te *tool.ToolError
	if !errors.As(err, &te) || !strings.Contains(te.Message, "outside allowed directories") || strings.Contains(out.Text, "not for the model") {
		t.Errorf("read outside the workspace = %q, %v; want the server's refusal", out.Text, err)
	}
}

// TestRootsNotOffered: without a workspace the roots capability is not
// advertised: server-everything then does not offer its get-roots-list
// tool (it registers it only for a client with roots), and never asks.
func TestRootsNotOffered(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	p, err := ConnectIn(ctx, everythingServer(t), &Options{StartTimeout: startGuard}, "")
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	noRootsSeen(ctx, t, p, "without a workspace")
}

// noRootsSeen checks that server-everything in p saw no roots
// capability: p reports no root (why says when), the server lists no
// get-roots-list and never asked for the roots.
func noRootsSeen(ctx context.Context, t *testing.T, p *Provider, why string) {
	t.Helper()
	if _, ok := p.Root(); ok {
		t.Errorf("Root() reports a root %s", why)
	}
	tools, err := p.ListTools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range tools {
		if rt.Name == "get-roots-list" {
			t.Error("server-everything offers get-roots-list: it saw a roots capability")
		}
	}
	if n, _ := p.RootsAsked(); n != 0 {
		t.Errorf("RootsAsked = %d, want 0", n)
	}
}

// TestRootsNoRootForDefaultWorkspace: a provider started for a workspace
// with Use.NoRoot (the app's default workspace) declares no roots:
// server-everything does not list get-roots-list and never asks; the same
// workspace without NoRoot runs as another process, which offers it; a
// server with DefaultRoot is offered it even with NoRoot.
func TestRootsNoRootForDefaultWorkspace(t *testing.T) {
	ws := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	m := NewManager(&Options{StartTimeout: startGuard})
	defer m.Close()
	srv := everythingServer(t)
	p, err := m.ProviderUse(ctx, srv, Use{Workspace: ws, NoRoot: true})
	if err != nil {
		t.Fatal(err)
	}
	noRootsSeen(ctx, t, p, "for a NoRoot workspace")
	q, err := m.ProviderUse(ctx, srv, Use{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	if q == p {
		t.Fatal("the workspace as a root shares the NoRoot process")
	}
	if r, ok := q.Root(); !ok || r.URI != FileURI(ws) {
		t.Errorf("Root() = %+v, %v; want %s", r, ok, FileURI(ws))
	}
	// A provider that takes the default root (the built-in files one) is
	// offered it all the same.
	srv.DefaultRoot = true
	d, err := m.ProviderUse(ctx, srv, Use{Workspace: ws, NoRoot: true})
	if err != nil {
		t.Fatal(err)
	}
	if r, ok := d.Root(); !ok || r.URI != FileURI(ws) {
		t.Errorf("DefaultRoot: Root() = %+v, %v; want %s", r, ok, FileURI(ws))
	}
}

// TestRootsEverythingServer: server-everything's get-roots-list tool asks
// for the roots and shows the workspace root (URI and name).
func TestRootsEverythingServer(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "Quarterly Report")
	os.Mkdir(ws, 0o755)
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	p, err := ConnectIn(ctx, everythingServer(t), &Options{StartTimeout: startGuard}, ws)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out, err := p.CallTool(ctx, "get-roots-list", json.RawMessage(`{}`), nil)
	if err != nil || !strings.Contains(out.Text, "URI: "+FileURI(ws)) || !strings.Contains(out.Text, "1. Quarterly Report") {
		t.Errorf("get-roots-list = %q, %v; want %s named Quarterly Report", out.Text, err, FileURI(ws))
	}
	if n, _ := p.RootsAsked(); n < 1 {
		t.Errorf("RootsAsked = %d, want at least 1", n)
	}
}
