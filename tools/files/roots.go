package files

import (
	"fmt"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file holds the folders a call works in: the --root folders, or the
// roots the client offers (docs/files.md#roots).

// folder is one root: its absolute, clean path and that path with its
// symbolic links resolved (where it exists), so an absolute path written
// either way is found in it.
type folder struct {
	dir, real, name string
}

func newFolder(dir, name string) folder {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		real = dir
	}
	return folder{dir: dir, real: real, name: name}
}

// clientRoots caches each session's roots until the client says they
// changed (notifications/roots/list_changed) or the session ends.
type clientRoots struct {
	mu   sync.Mutex
	byss map[*sdk.ServerSession][]folder
}

func newClientRoots() *clientRoots { return &clientRoots{byss: map[*sdk.ServerSession][]folder{}} }

func (c *clientRoots) forget(ss *sdk.ServerSession) {
	c.mu.Lock()
	delete(c.byss, ss)
	c.mu.Unlock()
}

// noFolder starts every "no folder to work in" message.
const noFolder = "no folder to work in: "

// rootsRequest is the id of the roots/list input request (MCP
// 2026-07-28 multi round-trip) in a tool call's inputRequests.
const rootsRequest = "roots"

// folders returns the roots of a call: the --root folders, else the
// client's, asked for once per session (and again after list_changed).
// The client is asked with a roots/list input request: when folders
// returns a non-nil ask, the tool returns it as its result, and the
// client calls again with the answer in InputResponses (over MCP
// versions before 2026-07-28 the go-sdk sends roots/list itself and calls
// the tool again: the same path).
func (s *server) folders(req *sdk.CallToolRequest) (roots []folder, ask *sdk.CallToolResult, err error) {
	if s.fixed != nil {
		return s.fixed, nil, nil
	}
	ss := req.Session
	if ss == nil {
		return nil, nil, fmt.Errorf(noFolder + "this server was started without --root and has no client session to ask for roots; start it as `openworker mcp serve files --root DIR`")
	}
	if found, ok := s.roots.cached(ss); ok {
		return found, nil, nil
	}
	init := ss.InitializeParams()
	if init == nil || init.Capabilities == nil || init.Capabilities.RootsV2 == nil {
		return nil, nil, fmt.Errorf(noFolder + "the client offers no roots and this server was started without --root; give the chat a workspace folder (openworker run --workspace DIR), or start the server as `openworker mcp serve files --root DIR`")
	}
	answer := rootsAnswer(req)
	if answer == nil {
		return nil, &sdk.CallToolResult{InputRequests: sdk.InputRequestMap{rootsRequest: &sdk.ListRootsParams{}}}, nil
	}
	found, err := s.answeredFolders(answer)
	if err != nil {
		return nil, nil, err
	}
	s.roots.remember(ss, found)
	return found, nil, nil
}

// cached returns the session's roots, if they were asked for already.
func (c *clientRoots) cached(ss *sdk.ServerSession) ([]folder, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	found, ok := c.byss[ss]
	return found, ok
}

// remember keeps the session's roots until it ends, unless a concurrent
// call kept them first.
func (c *clientRoots) remember(ss *sdk.ServerSession, found []folder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.byss[ss]; !ok {
		c.byss[ss] = found
		go func() { ss.Wait(); c.forget(ss) }()
	}
}

// rootsAnswer is the client's answer to the roots input request in the
// call, or nil.
func rootsAnswer(req *sdk.CallToolRequest) *sdk.ListRootsResult {
	if req.Params == nil {
		return nil
	}
	answer, _ := req.Params.InputResponses[rootsRequest].(*sdk.ListRootsResult)
	return answer
}

// answeredFolders turns the client's roots into folders, logging those
// that are not folders on this computer; it fails when none is left.
func (s *server) answeredFolders(answer *sdk.ListRootsResult) ([]folder, error) {
	var found []folder
	var skipped []string
	for _, r := range answer.Roots {
		if r == nil {
			continue
		}
		dir, err := fileURIPath(r.URI, runtime.GOOS == "windows")
		if err != nil {
			skipped = append(skipped, fmt.Sprintf("%q (%v)", clip(r.URI), err))
			continue
		}
		name := r.Name
		if name == "" {
			name = filepath.Base(dir)
		}
		found = append(found, newFolder(dir, name))
	}
	if len(found) == 0 {
		why := "the client offers an empty roots list"
		if len(skipped) > 0 {
			why = "the client's roots are not folders on this computer: " + strings.Join(skipped, ", ")
		}
		return nil, fmt.Errorf(noFolder+"%s; give the chat a workspace folder, or start the server as `openworker mcp serve files --root DIR`", why)
	}
	if len(skipped) > 0 {
		s.logger.Warn("roots ignored", "roots", skipped)
	}
	return found, nil
}

// fileURIPath turns a root's file:// URI (RFC 8089, as harness/mcp's
// FileURI writes it) into an absolute path of this OS: file:///home/me
// → /home/me; on Windows file:///C:/Users/me → C:\Users\me and
// file://server/share/dir → \\server\share\dir.
func fileURIPath(uri string, windows bool) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("not a URI: %v", err)
	}
	if !strings.EqualFold(u.Scheme, "file") {
		return "", fmt.Errorf("not a file:// URI")
	}
	p := u.Path
	host := u.Host
	if strings.EqualFold(host, "localhost") {
		host = ""
	}
	if windows {
		switch {
		case host != "":
			p = `\\` + host + strings.ReplaceAll(p, "/", `\`)
		case len(p) >= 3 && p[0] == '/' && p[2] == ':': // /C:/Users
			p = strings.ReplaceAll(p[1:], "/", `\`)
		default:
			return "", fmt.Errorf("no drive letter or server in the path")
		}
		if len(p) == 2 { // C:
			p += `\`
		}
		return filepath.Clean(p), nil
	}
	if host != "" {
		return "", fmt.Errorf("names the host %q, not this computer", host)
	}
	if !strings.HasPrefix(p, "/") {
		return "", fmt.Errorf("the path is not absolute")
	}
	return filepath.Clean(p), nil
}
