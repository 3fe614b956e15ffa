package mcp

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestFileURI: the file:// URI of a Unix and of a Windows path, on every
// OS (RFC 8089: file:///C:/..., a UNC path's server as the host).
func TestFileURI(t *testing.T) {
	for _, c := range []struct {
		path    string
		windows bool
		want    string
	}{
		{"/home/me/work", false, "file:///home/me/work"},
		{"/home/me/my work/#1?", false, "file:///home/me/my%20work/%231%3F"},
		{"/", false, "file:///"},
		{`C:\Users\me\My Work`, true, "file:///C:/Users/me/My%20Work"},
		{`D:\`, true, "file:///D:/"},
		{`\\server\share\dir`, true, "file://server/share/dir"},
		{"/Users/me/é", false, "file:///Users/me/%C3%A9"},
	} {
		if got := fileURI(c.path, c.windows); got != c.want {
			t.Errorf("fileURI(%q, windows=%v) = %q, want %q", c.path, c.windows, got, c.want)
		}
	}
	dir := t.TempDir()
	r, ok, err := WorkspaceRoot(dir)
	if err != nil || !ok || r.Name != filepath.Base(dir) || r.URI != FileURI(dir) || !strings.HasPrefix(r.URI, "file:///") {
		t.Errorf("WorkspaceRoot(%q) = %+v, %v, %v", dir, r, ok, err)
	}
	if _, ok, err := WorkspaceRoot(""); ok || err != nil {
		t.Errorf("WorkspaceRoot(\"\") = %v, %v; want no root", ok, err)
	}
}
