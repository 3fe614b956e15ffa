package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/internal/atomicfile"
	"github.com/openworker/desktop/harness/tool"
)

// The first-start memory (docs/mcp.md#start-bound): DownloadStartTimeout
// is for a command's first start, while npx, uvx or docker may still be
// fetching the server. Once a start of the same command has succeeded,
// Options.StartsFile remembers it, and later starts get the ordinary
// bound (DefaultStartTimeout, or the entry's "startup_timeout").

// maxRememberedStarts bounds the file: the oldest entries go first.
const maxRememberedStarts = 500

var startsMu sync.Mutex // one writer of a starts file per process

// startsFile is the file's content: when each command (by startKey)
// first started.
type startsFile struct {
	Started map[string]time.Time `json:"started"`
}

// startKey names srv's command without its values: a hash of the
// transport, program and arguments (environment and headers, which may
// hold secrets, are not part of it; they do not change what is fetched).
func startKey(srv tool.MCPServer) string {
	b, _ := json.Marshal([]any{srv.Transport, srv.Program, srv.Args})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:16])
}

func readStarts(path string) (startsFile, error) {
	var f startsFile
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return startsFile{Started: map[string]time.Time{}}, nil
	}
	if err != nil {
		return f, err
	}
	if err := json.Unmarshal(b, &f); err != nil {
		return startsFile{Started: map[string]time.Time{}}, fmt.Errorf("%s is not the JSON OpenWorker writes (%v); it is rewritten at the next successful start", path, err)
	}
	if f.Started == nil {
		f.Started = map[string]time.Time{}
	}
	return f, nil
}

// startedBefore reports whether a start of srv's command succeeded before
// (path "" remembers nothing).
func startedBefore(path string, srv tool.MCPServer) bool {
	if path == "" {
		return false
	}
	startsMu.Lock()
	defer startsMu.Unlock()
	f, _ := readStarts(path)
	_, ok := f.Started[startKey(srv)]
	return ok
}

// rememberStart notes that srv's command started, in path, written
// atomically; a command already noted is left as is.
func rememberStart(path string, srv tool.MCPServer) error {
	if path == "" {
		return nil
	}
	startsMu.Lock()
	defer startsMu.Unlock()
	f, _ := readStarts(path) // a broken file is replaced
	key := startKey(srv)
	if _, ok := f.Started[key]; ok {
		return nil
	}
	f.Started[key] = time.Now().UTC()
	for len(f.Started) > maxRememberedStarts {
		oldest := ""
		for k, t := range f.Started {
			if oldest == "" || t.Before(f.Started[oldest]) {
				oldest = k
			}
		}
		delete(f.Started, oldest)
	}
	b, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, append(b, '\n'), 0o600)
}
