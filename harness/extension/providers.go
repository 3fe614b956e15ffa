package extension

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/tool"
)

// Provider is an installed, enabled extension as the MCP provider of its
// namespace, as `openworker check` and the app's Coworkers screen show it
// (docs/extensions.md#running).
type Provider struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Version     string `json:"version"`
	Namespace   string `json:"namespace"`
	// Label names it where a servers-file provider has its entry:
	// "extension memory 0.6.3".
	Label string `json:"label"`
	// Source is its manifest.json (the provider's tool.MCPServer.Source).
	Source string `json:"source"`
	// UsedBy are the ids of the coworkers that resolved with one of its
	// tools, in report order; filled by Annotate.
	UsedBy []string `json:"used_by"`
	// Broken is the message of its provider when it could not be
	// registered (a damaged folder, a namespace clash); "" otherwise.
	Broken string `json:"broken,omitempty"`
	// Problems say why it cannot run on this computer (a runtime missing
	// or too old, an entry point missing), each with what to install; set
	// only when a coworker that uses it did not resolve.
	Problems []string `json:"problems,omitempty"`

	dir     string
	serving bool // reg's provider of Namespace, registered or broken, is this extension (Annotate)
}

// Providers lists the installed, enabled extensions of s (its records; one
// that cannot be read is no provider and is reported by Store.Servers). A
// missing folder lists none.
func (s *Store) Providers() []Provider {
	recs, _ := s.List()
	var out []Provider
	for _, r := range recs {
		if r.Disabled {
			continue
		}
		display := r.DisplayName
		if display == "" {
			display = r.Name
		}
		out = append(out, Provider{Name: r.Name, DisplayName: display, Version: r.Version, Namespace: r.Namespace,
			Label: fmt.Sprintf("extension %s %s", r.Name, r.Version), Source: filepath.Join(r.Dir, archive.ManifestName), UsedBy: []string{}, dir: r.Dir})
	}
	return out
}

// Describe names the extension for people: `"Memory" 0.6.3 (namespace memory)`.
func (e Provider) Describe() string {
	return fmt.Sprintf("%q %s (namespace %s)", e.DisplayName, e.Version, e.Namespace)
}

// ProvidersOf returns the extensions of exts, as Annotate returned them,
// that tools resolved to (a tool whose provider is "mcp:<its namespace>"
// and that namespace's provider the extension, not broken), each once, in
// tools order.
func ProvidersOf(exts []Provider, tools []harness.ResolvedTool) []Provider {
	var out []Provider
	seen := map[string]bool{}
	for _, t := range tools {
		ns, ok := strings.CutPrefix(t.Provider, "mcp:")
		if !ok || seen[ns] {
			continue
		}
		for _, e := range exts {
			if e.Namespace == ns && e.serving && e.Broken == "" {
				seen[ns] = true
				out = append(out, e)
			}
		}
	}
	return out
}

// Annotate relates rep, a check of the coworker bundles, to the extension
// providers exts, in place, and returns exts with UsedBy, Broken and
// Problems filled:
//   - a broken servers record of an extension (its provider could not be
//     registered) is labelled as the extension ("extension memory 0.6.3",
//     "extensions folder DIR") instead of as a servers-file entry;
//   - a bundle that did not resolve because an extension's provider is
//     broken or did not start gets a Fix that names the extension and
//     what to do (reg says whose the namespace is: a clash the extension
//     lost leaves the bundle's fix as it was): when manifest Problems explain it (Node.js not found on
//     search, the PATH stdio programs are found on), what to install,
//     followed by then ("restart OpenWorker", "run check again").
//
// The runtimes are looked up (FindRuntimes, up to 5 s) only when such a
// bundle is there.
func Annotate(ctx context.Context, rep *harness.CheckReport, reg *tool.Registry, exts []Provider, extDir string, search launch.Search, then string) []Provider {
	byNS := map[string]int{}
	for i, e := range exts {
		byNS[e.Namespace] = i
		exts[i].serving = e.provides(reg)
	}
	labelServers(rep.BrokenServers, exts, byNS, extDir)
	for _, cw := range rep.OK {
		for _, e := range ProvidersOf(exts, cw.Tools) {
			exts[byNS[e.Namespace]].UsedBy = append(exts[byNS[e.Namespace]].UsedBy, cw.ID)
		}
	}
	rc := &runtimeCache{ctx: ctx, search: search}
	for i, b := range rep.Broken {
		j, ok := byNS[b.Provider]
		if !ok || b.Provider == "" {
			continue
		}
		if !exts[j].serving { // the namespace is another provider's (a clash the extension lost, or installed after reg was built)
			continue
		}
		rep.Broken[i].Fix = exts[j].fix(b.SandboxRequired, rc, then)
	}
	return exts
}

// labelServers labels the broken servers records of extensions as the
// extension (recording the message in it) and those of the extensions
// folder as the folder.
func labelServers(servers []harness.CheckedServer, exts []Provider, byNS map[string]int, extDir string) {
	for i, s := range servers {
		if j, ok := byNS[s.Namespace]; ok && s.Source == exts[j].Source {
			exts[j].Broken = s.Message
			servers[i].Label = exts[j].Label
			continue
		}
		if extDir != "" && s.Source == extDir && !s.Entry {
			servers[i].Label = "extensions folder " + extDir
		}
	}
}

// runtimeCache looks the runtimes up once, when first needed.
type runtimeCache struct {
	ctx    context.Context
	search launch.Search
	found  map[string]string
}

// get is the runtimes found on search.
func (c *runtimeCache) get() map[string]string {
	if c.found == nil {
		c.found = FindRuntimes(c.ctx, c.search)
	}
	return c.found
}

// fix is the Fix of a bundle that did not resolve because e's provider is
// broken or did not start; it sets e.Problems when first needed.
func (e *Provider) fix(sandboxRequired bool, rc *runtimeCache, then string) string {
	if sandboxRequired {
		return fmt.Sprintf("give extension %s a sandbox (set its sandbox to default; in the app, its switch in Settings → Extensions), or remove requires_sandbox from manifest.md", e.Describe())
	}
	if e.Broken != "" {
		return fmt.Sprintf("extension %s cannot be used: %s; or remove %s.* from tools.json", e.Describe(), e.Broken, e.Namespace)
	}
	if e.Problems == nil {
		e.Problems = e.problems(rc.get())
	}
	if len(e.Problems) > 0 {
		return fmt.Sprintf("extension %s cannot run on this computer: %s; then %s", e.Describe(), strings.Join(e.Problems, "; "), then)
	}
	return fmt.Sprintf("extension %s did not start or list its tools (the message says why): check its settings, reinstall it, or remove %s.* from tools.json", e.Describe(), e.Namespace)
}

// provides reports whether reg's provider of e's namespace, registered or
// broken, is e.
func (e Provider) provides(reg *tool.Registry) bool {
	if srv, ok := reg.Server(e.Namespace); ok {
		return srv.Source == e.Source
	}
	b, ok := reg.BrokenMCP(e.Namespace)
	return ok && b.Source == e.Source
}

// problems are manifest.Problems of the installed folder with runtimes,
// or why its manifest cannot be read; never nil.
func (e Provider) problems(runtimes map[string]string) []string {
	raw, err := os.ReadFile(e.Source)
	if err != nil {
		return []string{fmt.Sprintf("its manifest cannot be read (%v); reinstall it", err)}
	}
	m, err := manifest.Parse(raw, e.Source)
	if err != nil {
		return []string{fmt.Sprintf("%v; reinstall it", err)}
	}
	if ps := m.Problems(manifest.Env{Dir: e.dir, Runtimes: runtimes}); len(ps) > 0 {
		return ps
	}
	return []string{}
}
