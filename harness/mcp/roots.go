package mcp

import (
	"context"
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Roots (docs/mcp.md#roots): a provider started for a session with a
// workspace folder offers that folder as its one root, a file:// URI named
// after the folder; a provider started without one does not advertise the
// roots capability at all (a server that asks anyway gets an empty list).
// The root never changes for the life of the provider, so listChanged is
// not advertised: a session with another workspace gets its own provider
// (Manager.ProviderIn).

// Root is the one root a provider offers: URI is a file:// URI
// (FileURI), Name the folder's base name.
type Root struct {
	URI  string
	Name string
}

// WorkspaceRoot returns the root of the workspace folder dir: its absolute,
// cleaned path as a file:// URI and its base name. An empty dir has no root
// (ok false). It fails only when the absolute path cannot be found (the
// current folder is gone).
func WorkspaceRoot(dir string) (r Root, ok bool, err error) {
	if dir == "" {
		return Root{}, false, nil
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return Root{}, false, fmt.Errorf("workspace %q: %w", dir, err)
	}
	return Root{URI: FileURI(abs), Name: filepath.Base(abs)}, true, nil
}

// FileURI returns the file:// URI of the absolute path abs on this OS:
// "/home/me/my work" → "file:///home/me/my%20work"; on Windows
// `C:\Users\me` → "file:///C:/Users/me" and `\\server\share\dir` →
// "file://server/share/dir" (RFC 8089). Characters that are not allowed
// in a URI path are percent-encoded.
func FileURI(abs string) string { return fileURI(abs, runtime.GOOS == "windows") }

// fileURI is FileURI for a Windows path (windows) or a Unix one, on any OS.
func fileURI(abs string, windows bool) string {
	p := abs
	host := ""
	if windows {
		p = strings.ReplaceAll(p, `\`, "/")
		if rest, ok := strings.CutPrefix(p, "//"); ok { // UNC: //server/share/dir
			host, p, _ = strings.Cut(rest, "/")
			p = "/" + p
		} else if !strings.HasPrefix(p, "/") { // C:/Users → /C:/Users
			p = "/" + p
		}
	}
	u := url.URL{Scheme: "file", Host: host, Path: p}
	if host == "" {
		return "file://" + u.EscapedPath() // url.URL would drop the empty authority
	}
	return u.String()
}

// rootsCapability is what the client advertises: the roots capability,
// without listChanged, only when it offers a root.
func rootsCapability(root *Root) *sdk.ClientCapabilities {
	if root == nil {
		return &sdk.ClientCapabilities{} // no roots capability (see ClientOptions.Capabilities)
	}
	return &sdk.ClientCapabilities{RootsV2: &sdk.RootCapabilities{}}
}

// offerRoot adds root to the client and counts the server's roots/list
// requests (RootsAsked).
func (p *Provider) offerRoot(root *Root) {
	p.rootsAsk = &rootsAsked{first: make(chan struct{})}
	p.client.AddReceivingMiddleware(func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
			if method == "roots/list" {
				defer p.rootsAsk.mark()
			}
			return next(ctx, method, req)
		}
	})
	if root != nil {
		p.root = *root
		p.client.AddRoots(&sdk.Root{URI: root.URI, Name: root.Name})
	}
}

// rootsAsked counts the server's roots/list requests.
type rootsAsked struct {
	mu    sync.Mutex
	n     int
	first chan struct{} // closed after the first one was answered
}

func (a *rootsAsked) mark() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.n == 0 {
		close(a.first)
	}
	a.n++
}

// Root returns the root the provider offers (ok false: none; it was
// started without a workspace).
func (p *Provider) Root() (Root, bool) { return p.root, p.root.URI != "" }

// RootsAsked returns how many times the server asked for the roots
// (roots/list) so far, and a channel closed once the first ask was
// answered.
func (p *Provider) RootsAsked() (int, <-chan struct{}) {
	p.rootsAsk.mu.Lock()
	defer p.rootsAsk.mu.Unlock()
	return p.rootsAsk.n, p.rootsAsk.first
}

// rootIf is &r when ok, else nil.
func rootIf(r Root, ok bool) *Root {
	if !ok {
		return nil
	}
	return &r
}
