package app

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// Coworkers whose MCP providers are still starting (docs/app.md#starting):
// the list waits Coworkers.quickWait for the check; a check still running then is
// answered with the coworkers as "starting…" (CoworkerInfo.Starting), and
// the resolved list follows as EventCoworkersChanged. Each provider gets
// its own start bound (mcp.StartTimeoutOf); a bundle whose provider failed
// to start is checked once more before it is listed as broken.

// defaultQuickWait is how long Coworkers waits for the check before it
// answers with the coworkers still starting (deps.ListWait overrides it).
const defaultQuickWait = 2 * time.Second

// listGen numbers the lists: a background check sends its list only when
// no newer list was asked for since.
var listGen atomic.Uint64

// resolvedList is checkedList under each provider's own start bound, with
// one more try when a provider did not start: a start that failed on a
// busy computer often succeeds the second time.
func (c *Coworkers) resolvedList(rt *harness.Runtime, dir string, rule model.NameRule) CoworkerList {
	exts := c.extensionAnnotator(rt)
	l := checkedList(c.base, rt, dir, rule, exts)
	if !startFailed(l) {
		return l
	}
	c.log.Info("coworkers: a provider did not start; checking once more", "dir", dir)
	rt.ForgetChecks()
	return checkedList(c.base, rt, dir, rule, exts)
}

// startFailed reports whether a bundle of l is broken because an MCP
// provider did not start (not for a load or selection error).
func startFailed(l CoworkerList) bool {
	for _, b := range l.Broken {
		if b.Provider != "" && (strings.Contains(b.Message, "did not start") || strings.Contains(b.Message, "exited during start")) {
			return true
		}
	}
	return false
}

// listAsync resolves dir in the background: the list when it is done
// within c.quickWait, else the coworkers as starting, and the resolved
// list later as EventCoworkersChanged (unless a newer list was asked for).
func (c *Coworkers) listAsync(rt *harness.Runtime, dir string, rule model.NameRule) CoworkerList {
	gen := listGen.Add(1)
	done := make(chan CoworkerList, 1)
	go func() { done <- c.resolvedList(rt, dir, rule) }()
	select {
	case l := <-done:
		noteCoworkers(l) // e2e builds only (e2e_hook.go)
		return l
	case <-time.After(c.quickWait):
	}
	go func() {
		l := <-done
		if listGen.Load() == gen {
			noteCoworkers(l)
			c.emit.Emit(EventCoworkersChanged, l)
		}
	}()
	l := startingList(c, rt.Registry(), dir)
	noteCoworkers(l)
	return l
}

// startingList is the bundles of dir as loaded, unresolved, each coworker
// marked Starting with the longest start bound of the providers it names.
func startingList(c *Coworkers, reg *tool.Registry, dir string) CoworkerList {
	l := checkedList(c.base, nil, dir, nil, nil)
	if l.Error != "" {
		return l
	}
	set, err := bundle.LoadDir(dir)
	if err != nil {
		return l
	}
	bounds := map[string]time.Duration{}
	for _, b := range set.Bundles {
		bounds[b.ID] = startBound(reg, b, c.paths.ConfigDir)
	}
	for i := range l.Coworkers {
		l.Coworkers[i].Starting = true
		l.Coworkers[i].StartBound = int(bounds[l.Coworkers[i].ID].Round(time.Second) / time.Second)
	}
	return l
}

// startBound is the longest start bound (mcp.StartTimeoutOf) of the MCP
// providers b names; 0 when it names none.
func startBound(reg *tool.Registry, b *bundle.Bundle, configDir string) time.Duration {
	opts := &mcp.Options{StartsFile: filepath.Join(configDir, harness.StartsFileName)}
	namespaces := b.Tools.WholeProviders()
	for _, n := range b.Tools.Explicit() {
		if ns, _, ok := strings.Cut(n, "."); ok {
			namespaces = append(namespaces, ns)
		}
	}
	var bound time.Duration
	for _, ns := range namespaces {
		if srv, ok := reg.Server(ns); ok {
			bound = max(bound, mcp.StartTimeoutOf(srv, opts))
		}
	}
	return bound
}

// startTimeoutRE finds the bound in a start error that ran out of time
// ("no answer to initialize within 30s (the start timeout…").
var startTimeoutRE = regexp.MustCompile(`within (\S+) \(the start timeout`)

// timeoutFix is the fix of a bundle whose provider did not answer within
// its start bound: the configuration may be right, the start only slow.
// It returns "" for any other failure.
func timeoutFix(reg *tool.Registry, provider, message string) string {
	m := startTimeoutRE.FindStringSubmatch(message)
	if provider == "" || m == nil {
		return ""
	}
	within := m[1]
	if d, err := time.ParseDuration(m[1]); err == nil {
		within = fmt.Sprintf("%d s", int(d.Round(time.Second)/time.Second))
	}
	where := "in its servers.json entry"
	if reg != nil {
		if srv, ok := reg.Server(provider); ok && srv.Source != "" {
			where = "in its entry at " + srv.Source
		}
	}
	return fmt.Sprintf(`MCP provider %q did not start within %s. It may only be slow (a busy computer, a first download): press Reload to try again, or give it longer with "startup_timeout" (seconds) %s (docs/mcp.md#start-bound)`, provider, within, where)
}
