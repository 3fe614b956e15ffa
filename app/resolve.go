package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
)

// resolveTimeout bounds resolving one bundle for the Coworkers list: the
// MCP providers it names must start and list their tools within it. A
// bundle that takes longer is listed as broken with the timeout, and is
// tried again at the next listing (timeouts are not cached).
var resolveTimeout = 8 * time.Second

// resolveWorkers bounds how many bundles resolve at once.
const resolveWorkers = 4

// ResolvedToolInfo is one tool a coworker's tools.json selects, as resolved:
// its qualified name and where it runs.
type ResolvedToolInfo struct {
	Name     string `json:"name"`     // qualified name, e.g. device.system_info_get
	Provider string `json:"provider"` // "native" or "mcp:<namespace>"
}

// resolution is the cached outcome of resolving one bundle.
type resolution struct {
	tools []ResolvedToolInfo
	err   error
}

// resolveCache keeps resolutions by bundle Digest (docs/identity.md: the digest
// covers every file of the bundle, so an edit gives a new key). The
// registry is frozen, so a digest resolves the same way until an MCP
// provider changes its catalog; the cache is dropped when the bundles
// folder changes, the folder is switched or the settings reopen the runtime.
type resolveCache struct {
	mu sync.Mutex
	m  map[string]resolution
}

func (c *resolveCache) get(digest string) (resolution, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[digest]
	return r, ok
}

func (c *resolveCache) put(digest string, r resolution) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]resolution{}
	}
	c.m[digest] = r
}

// reset drops every entry.
func (c *resolveCache) reset() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}

// resolveBundles resolves every bundle against rt the way `openworker
// check` does (harness.Runtime.Resolve), using and filling the cache, with
// at most resolveWorkers at once and resolveTimeout each. It runs on the
// caller's goroutine (a Wails binding or the folder watcher), never the UI
// thread. The result has one entry per bundle, in order.
func resolveBundles(ctx context.Context, rt *harness.Runtime, cache *resolveCache, bundles []*bundle.Bundle) []resolution {
	out := make([]resolution, len(bundles))
	sem := make(chan struct{}, resolveWorkers)
	var wg sync.WaitGroup
	for i, b := range bundles {
		if r, ok := cache.get(b.Digest); ok {
			out[i] = r
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			rctx, cancel := context.WithTimeout(ctx, resolveTimeout)
			defer cancel()
			res, err := rt.Resolve(rctx, b)
			r := resolution{err: err}
			if err == nil {
				r.tools = make([]ResolvedToolInfo, len(res.Tools))
				for j, t := range res.Tools {
					r.tools[j] = ResolvedToolInfo{Name: t.Name, Provider: t.Provider}
				}
			}
			out[i] = r
			if rctx.Err() == nil { // a timeout or a cancel is tried again next time

				cache.put(b.Digest, r)
			}
		}()
	}
	wg.Wait()
	return out
}

// resolvedList turns the loaded bundles into the list the UI shows: bundles
// that resolve are coworkers with their tools; bundles that do not are
// broken, with the resolver's error, like load errors. rt nil (the harness
// did not start) lists the bundles unresolved: opening a chat then says why.
func resolvedList(ctx context.Context, rt *harness.Runtime, cache *resolveCache, l *CoworkerList, bundles []*bundle.Bundle) {
	if rt == nil {
		for _, b := range bundles {
			l.Coworkers = append(l.Coworkers, coworkerInfo(b, nil))
		}
		return
	}
	for i, r := range resolveBundles(ctx, rt, cache, bundles) {
		b := bundles[i]
		if r.err != nil {
			l.Broken = append(l.Broken, resolveBroken(b, r.err))
			continue
		}
		l.Coworkers = append(l.Coworkers, coworkerInfo(b, r.tools))
	}
}

func coworkerInfo(b *bundle.Bundle, tools []ResolvedToolInfo) CoworkerInfo {
	if tools == nil {
		tools = []ResolvedToolInfo{}
	}
	return CoworkerInfo{ID: b.ID, Name: b.Name, Description: b.Description, Version: b.Version, Dir: b.Dir, Tools: tools}
}

// resolveBroken is the broken-bundle entry of a resolve error: where in
// tools.json the name stands (when the resolver knows) and its message.
func resolveBroken(b *bundle.Bundle, err error) BrokenBundle {
	bb := BrokenBundle{ID: b.ID, Name: b.Name, Dir: b.Dir, File: filepath.Join(b.Dir, "coworker", "tools.json"), Message: err.Error(),
		Fix: "fix the name in tools.json, or add the missing MCP provider to servers.json (`openworker check` reports the same)"}
	var re *harness.ResolveError
	if errors.As(err, &re) && re.File != "" && re.Line > 0 {
		bb.File, bb.Line, bb.Col = re.File, re.Line, re.Col
		bb.Message = strings.TrimPrefix(bb.Message, fmt.Sprintf("%s:%d:%d: ", re.File, re.Line, re.Col))
	}
	return bb
}
