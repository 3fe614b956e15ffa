package files

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The client's roots (MCP 2026-07-28: asked as a roots/list input request
// of the call) are where the tools work; after roots/list_changed the new
// ones are.
func TestClientRoots(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(a, "in-a.txt"), "from a\n")
	writeFile(t, filepath.Join(b, "in-b.txt"), "from b\n")
	cs, client := connect(t, Options{}, a)
	res := ok(t, cs, "file_read", map[string]any{"path": "in-a.txt"}, nil)
	if body(t, res) != "from a\n" {
		t.Errorf("read in root a = %q", text(res))
	}
	refused(t, cs, "file_read", map[string]any{"path": filepath.Join(b, "in-b.txt")}, "is outside the folders this server works in", a)
	var w WriteResult
	ok(t, cs, "file_write", map[string]any{"path": "new.txt", "content": "made"}, &w)
	if readFile(t, filepath.Join(a, "new.txt")) != "made" {
		t.Error("write did not land in the client's root")
	}

	client.RemoveRoots(fileURI(a))
	client.AddRoots(&sdk.Root{URI: fileURI(b), Name: "b"})
	deadline := time.Now().Add(30 * time.Second) // the notification travels apart from the calls
	for {
		res := call(t, cs, "file_read", map[string]any{"path": "in-b.txt"})
		if !res.IsError {
			if body(t, res) != "from b\n" {
				t.Errorf("read in root b = %q", text(res))
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after roots/list_changed the new root is still not used: %s", text(res))
		}
		time.Sleep(10 * time.Millisecond)
	}
	refused(t, cs, "file_read", map[string]any{"path": filepath.Join(a, "in-a.txt")}, "is outside the folders this server works in")
}

// With several --root folders, relative paths are in the first, absolute
// ones in any; results name the others absolute; a move between two is
// refused.
func TestSeveralRoots(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(a, "x.txt"), "a\n")
	writeFile(t, filepath.Join(b, "y.txt"), "b\n")
	cs, _ := connect(t, Options{Roots: []string{a, b}})
	var l Listing
	ok(t, cs, "files_list", map[string]any{}, &l)
	if len(l.Roots) != 2 || l.Roots[0] != a || l.Roots[1] != b || len(l.Entries) != 1 || l.Entries[0].Path != "x.txt" {
		t.Errorf("listing = %+v", l)
	}
	l = Listing{}
	ok(t, cs, "files_list", map[string]any{"path": b}, &l)
	if len(l.Entries) != 1 || l.Entries[0].Path != filepath.Join(b, "y.txt") || l.Roots != nil {
		t.Errorf("listing of the second root = %+v", l)
	}
	refused(t, cs, "file_read", map[string]any{"path": "y.txt"}, `"y.txt" does not exist in `+a)
	if res := ok(t, cs, "file_read", map[string]any{"path": filepath.Join(b, "y.txt")}, nil); body(t, res) != "b\n" {
		t.Errorf("read in the second root = %q", text(res))
	}
	refused(t, cs, "file_move", map[string]any{"from": "x.txt", "to": filepath.Join(b, "x.txt")}, "two different folders")
}

// An older client (MCP 2025-06-18) is sent roots/list as a request of the
// server's own during the call, and again after roots/list_changed.
func TestRootsOverAnOlderProtocol(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	writeFile(t, filepath.Join(a, "f.txt"), "in a\n")
	writeFile(t, filepath.Join(b, "f.txt"), "in b\n")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := Serve(ctx, toServer, fromServer, Options{})
		fromServer.Close()
		done <- err
	}()
	lines := bufio.NewScanner(clientIn)
	lines.Buffer(make([]byte, 1<<20), 1<<20)
	send := func(v any) {
		b, _ := json.Marshal(v)
		if _, err := clientOut.Write(append(b, '\n')); err != nil {
			t.Fatal(err)
		}
	}
	type msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	// next reads messages until the response to id, answering roots/list
	// with root; it returns the response and how often roots were asked.
	next := func(id int, root string) (msg, int) {
		asked := 0
		for lines.Scan() {
			var m msg
			if err := json.Unmarshal(lines.Bytes(), &m); err != nil {
				t.Fatalf("server sent %q: %v", lines.Text(), err)
			}
			if m.Method == "roots/list" {
				asked++
				send(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": map[string]any{"roots": []any{map[string]any{"uri": fileURI(root), "name": "r"}}}})
				continue
			}
			if m.Method == "" && string(m.ID) == fmt.Sprint(id) {
				return m, asked
			}
		}
		t.Fatalf("the server closed before answering %d: %v", id, lines.Err())
		return msg{}, 0
	}
	send(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{"roots": map[string]any{"listChanged": true}},
		"clientInfo": map[string]any{"name": "old-client", "version": "1"}}})
	if m, _ := next(1, a); !strings.Contains(string(m.Result), `"protocolVersion":"2025-06-18"`) {
		t.Fatalf("initialize = %s %s", m.Result, m.Error)
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	readF := func(id int, root string) (string, int) {
		send(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": map[string]any{"name": "file_read", "arguments": map[string]any{"path": "f.txt"}}})
		m, asked := next(id, root)
		return string(m.Result), asked
	}
	if res, asked := readF(2, a); asked != 1 || !strings.Contains(res, "in a\\n") {
		t.Errorf("first call: roots asked %d times, result %s", asked, res)
	}
	if res, asked := readF(3, b); asked != 0 || !strings.Contains(res, "in a\\n") {
		t.Errorf("second call: roots asked %d times (want 0: kept), result %s", asked, res)
	}
	send(map[string]any{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"})
	deadline := time.Now().Add(30 * time.Second) // the notification is handled apart from the calls
	for id := 4; ; id++ {
		res, asked := readF(id, b)
		if asked == 1 && strings.Contains(res, "in b\\n") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after roots/list_changed the roots were not asked again: %s", res)
		}
		time.Sleep(10 * time.Millisecond)
	}
	clientOut.Close()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve returned %v after the client closed, want nil", err)
		}
	case <-time.After(30 * time.Second): // a hang guard
		t.Fatal("Serve did not return after the client closed")
	}
}

func TestFileURIPath(t *testing.T) {
	for _, c := range []struct {
		uri     string
		windows bool
		want    string
		err     string
	}{
		{"file:///home/me/my%20work", false, "/home/me/my work", ""},
		{"file://localhost/srv/x/", false, "/srv/x", ""},
		{"file:///C:/Users/me/My%20Work", true, `C:\Users\me\My Work`, ""},
		{"file:///c:", true, `c:\`, ""},
		{"file://server/share/dir", true, `\\server\share\dir`, ""},
		{"file://server/share/dir", false, "", `names the host "server"`},
		{"https://example.com/x", false, "", "not a file:// URI"},
		{"file:///no-drive", true, "", "no drive letter"},
	} {
		got, err := fileURIPath(c.uri, c.windows)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("fileURIPath(%q, %v) = %q, %v; want an error saying %q", c.uri, c.windows, got, err, c.err)
			}
			continue
		}
		want := c.want
		if !c.windows {
			want = filepath.FromSlash(want) // as filepath.Clean writes it on this OS
		}
		if err != nil || got != want {
			t.Errorf("fileURIPath(%q, %v) = %q, %v; want %q", c.uri, c.windows, got, err, want)
		}
	}
}
