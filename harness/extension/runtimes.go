package extension

import (
	"context"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/mcp/launch"
)

// runtimeProbeTimeout bounds one `PROGRAM --version`.
const runtimeProbeTimeout = 5 * time.Second

// runtimePrograms are the programs tried for each runtime, in order.
var runtimePrograms = map[string][]string{
	"node":   {"node"},
	"python": {"python3", "python"},
	"uv":     {"uv"},
}

// FindRuntimes looks for Node.js, Python and uv on search (the login
// shell's PATH on macOS: launch.Default) and returns the first line of
// each one's `--version` by runtime name ("node": "v20.11.0"); a runtime
// not found, or whose --version fails within 5 s, is left out. The
// programs run in parallel.
func FindRuntimes(ctx context.Context, search launch.Search) map[string]string {
	out := map[string]string{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, progs := range runtimePrograms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, prog := range progs {
				path, err := search.Find(prog)
				if err != nil {
					continue
				}
				if v := version(ctx, path); v != "" {
					mu.Lock()
					out[name] = v
					mu.Unlock()
					return
				}
			}
		}()
	}
	wg.Wait()
	return out
}

func version(ctx context.Context, path string) string {
	ctx, cancel := context.WithTimeout(ctx, runtimeProbeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	cmd.WaitDelay = time.Second
	b, err := cmd.Output()
	if err != nil {
		return ""
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(b)), "\n")
	return strings.TrimSpace(line)
}
