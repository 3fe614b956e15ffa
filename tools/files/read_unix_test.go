//go:build unix

package files

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A named pipe is refused at once: opening it to read would wait for a
// writer that never comes.
func TestReadPipeRefused(t *testing.T) {
	cs, root := serveRoot(t)
	if err := syscall.Mkfifo(filepath.Join(root, "pipe"), 0o600); err != nil {
		t.Fatal(err)
	}
	refused(t, cs, "file_read", map[string]any{"path": "pipe"}, `"pipe" is not a regular file (other)`)
	refused(t, cs, "file_edit", map[string]any{"path": "pipe", "old_text": "a", "new_text": "b"}, `"pipe" is not a regular file`)
	refused(t, cs, "file_write", map[string]any{"path": "pipe", "content": "x", "overwrite": true}, `"pipe" is not a regular file`)
	var info Info
	ok(t, cs, "file_info", map[string]any{"path": "pipe"}, &info)
	if info.Type != "other" {
		t.Errorf("file_info(pipe) = %+v", info)
	}
	var sr SearchResult
	ok(t, cs, "files_search", map[string]any{"text": "x"}, &sr)
	if sr.Unreadable != 1 {
		t.Errorf("search = %+v, want the pipe counted unreadable", sr)
	}
}
