package harness

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/harness/mcp/launch"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
)

// CheckReport is a bundles folder as loaded and resolved: what `openworker
// check` prints and the app's Coworkers screen shows (docs/bundles.md).
type CheckReport struct {
	Dir    string            `json:"coworkers"`
	OK     []CheckedCoworker `json:"ok"`     // bundles that loaded and resolved, in folder order
	Broken []CheckedBundle   `json:"broken"` // load errors first, then resolve errors
	// Skipped are files (not folders) in the bundles folder: each coworker
	// is a folder, so they were passed over.
	Skipped []string `json:"skipped,omitempty"`
	// NameRule says which tool-name rule the aliases were checked against
	// (the model provider's, or the one every provider shares when none is
	// configured), as a sentence for people (docs/bundles.md).
	NameRule string `json:"name_rule"`
	// BrokenServers are the MCP providers whose servers-file entry (or
	// whole file) could not be used (tool.Registry.Broken): a problem of
	// the servers file even when no bundle uses them (docs/servers.md).
	BrokenServers []CheckedServer `json:"broken_servers,omitempty"`
	// Notices are what the host read around the bundles, such as the
	// keys a servers file ignored; Check leaves it empty for the host to
	// fill (`openworker check` puts the servers file's notices here).
	Notices []string `json:"notices,omitempty"`
}

// CheckedServer is one broken MCP provider of the servers file. File, Line
// and Col say where (Line 0 for the whole file); Message is the whole
// error, Reason the same without the position, Fix what to change.
type CheckedServer struct {
	Namespace string `json:"namespace,omitempty"` // "" when the whole file could not be read (or none could be derived)
	// Name is the server's name as written when it is not Namespace.
	Name string `json:"name,omitempty"`
	// Entry is true for an entry, false for the whole file.
	Entry bool `json:"entry"`
	// Label names it for people: `servers entry "a b" (namespace a_b)`,
	// `servers file PATH`.
	Label   string `json:"label"`
	Source  string `json:"source"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	Reason  string `json:"reason,omitempty"`
	Fix     string `json:"fix,omitempty"`
}

// CheckedCoworker is one bundle that loaded and resolved.
type CheckedCoworker struct {
	ID          string         `json:"id"`
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Version     string         `json:"version"`
	Dir         string         `json:"dir"`
	ToolsFormat int            `json:"tools_version"`
	Tools       []ResolvedTool `json:"tools"`
	// LeftOut are the tools of whole providers (tools.json version 1)
	// whose names the rule refuses, each with its warning.
	LeftOut []LeftOut `json:"left_out,omitempty"`
	// Notices are the bundle's notices (bundle.Bundle.Notices,
	// docs/bundles.md#notices): what loads but should be fixed, such as
	// a SKILL.md key the Agent Skills specification does not define.
	Notices []bundle.Notice `json:"notices,omitempty"`
}

// CheckedBundle is one bundle that failed to load (ID empty) or to resolve
// (ID and Name set). File, Line and Col say where (Line 0 when the problem
// is a whole file); Message is the whole error as the CLI prints it,
// Reason the same without the position, Fix what to change.
type CheckedBundle struct {
	Dir     string `json:"dir"`
	ID      string `json:"id,omitempty"`
	Name    string `json:"name,omitempty"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Message string `json:"message"`
	Reason  string `json:"reason,omitempty"`
	Fix     string `json:"fix,omitempty"`
	// Provider is the namespace of the MCP provider that did not start,
	// list its tools or register, when that is why the bundle did not
	// resolve ("" otherwise), so a host can say more about it (the app
	// and `openworker check` name the extension it comes from).
	Provider string `json:"provider,omitempty"`
	// SandboxRequired is set when the coworker's requires_sandbox refused
	// Provider, which runs unsandboxed (docs/bundles.md#requires-sandbox).
	SandboxRequired bool `json:"sandbox_required,omitempty"`
}

// ResolveFix is CheckedBundle.Fix of a bundle that loads but does not
// resolve (the app adds where it imports a provider, app.ResolveFixInApp).
const ResolveFix = "fix the name in tools.json, or add the missing MCP provider to servers.json"

// Check loads the bundles folder dir afresh and resolves every bundle
// against the newest registry generation and rule, the tool-name rule of
// the model provider sessions would use (a model.Provider, or
// model.ToolNames of its name; nil means model.SharedToolNames, and the
// report says so), so that Check and NewSession agree: a name Check
// reports is one a session refuses. At most Options.Parallel bundles
// resolve at once (their providers start in parallel too), each within
// Options.CheckTimeout. Outcomes are cached by generation, rule, folder
// and bundle digest (an edited bundle has a new digest), except those cut
// short by a timeout or ctx; ForgetChecks drops the cache. The error is
// only for a folder that cannot be read.
func (rt *Runtime) Check(ctx context.Context, dir string, rule model.NameRule) (*CheckReport, error) {
	if rule == nil {
		rule = model.SharedToolNames
	}
	set, err := bundles(dir)
	if err != nil {
		return nil, err
	}
	g, err := rt.acquire()
	if err != nil {
		return nil, err
	}
	defer rt.release(g)
	rep := &CheckReport{Dir: dir, OK: []CheckedCoworker{}, Broken: []CheckedBundle{}, Skipped: set.Skipped, NameRule: describeRule(rule)}
	for _, le := range set.Errors {
		rep.Broken = append(rep.Broken, CheckedBundle{Dir: le.Dir, File: le.File, Line: le.Line, Col: le.Col,
			Message: le.Error(), Reason: le.Msg, Fix: le.Fix})
	}
	results := make([]checked, len(set.Bundles))
	forEach(len(set.Bundles), rt.opts.Parallel, func(i int) {
		b := set.Bundles[i]
		key := checkKey{gen: g.id, rule: rule.Name(), dir: b.Dir, digest: b.Digest}
		if r, ok := rt.checks.get(key); ok {
			results[i] = r
			return
		}
		bctx, cancel := oauth.NoAsk(ctx), context.CancelFunc(func() {}) // a check never asks for a sign-in (docs/mcp.md#sign-in)
		if rt.opts.CheckTimeout > 0 {
			bctx, cancel = context.WithTimeout(ctx, rt.opts.CheckTimeout)
		}
		defer cancel()
		res, err := rt.resolve(bctx, g, b, rule, rt.opts.Workspace, rt.opts.DefaultWorkspace)
		r := checked{err: err}
		if err == nil {
			r.tools, r.leftOut = res.Tools, res.LeftOut
		}
		results[i] = r
		if bctx.Err() == nil && !folderMissing(err) { // a timeout, a cancel or a missing folder is tried again next time
			rt.checks.put(key, r)
		}
	})
	for _, b := range g.reg.Broken() {
		cs := CheckedServer{Namespace: b.Namespace, Name: b.Name, Entry: !b.WholeFile(), Label: b.Label(), Source: b.Source, Message: b.Err.Error(), Reason: b.Err.Error()}
		if e, ok := jsonfile.AsError(b.Err); ok {
			cs.File, cs.Line, cs.Col, cs.Reason, cs.Fix = e.File, e.Line, e.Col, e.Msg, e.Fix
		}
		rep.BrokenServers = append(rep.BrokenServers, cs)
	}
	for i, b := range set.Bundles {
		r := results[i]
		if r.err != nil {
			rep.Broken = append(rep.Broken, brokenBundle(g.reg, b, r.err))
			continue
		}
		rep.OK = append(rep.OK, CheckedCoworker{ID: b.ID, Name: b.Name, Description: b.Description, Version: b.Version, Dir: b.Dir,
			ToolsFormat: b.Tools.Version, Tools: append([]ResolvedTool{}, r.tools...), LeftOut: append([]LeftOut(nil), r.leftOut...),
			Notices: append([]bundle.Notice(nil), b.Notices...)})
	}
	return rep, nil
}

// ForgetChecks drops every cached Check outcome, so the next Check
// resolves every bundle again (for example after a provider was fixed).
func (rt *Runtime) ForgetChecks() { rt.checks.reset() }

func brokenBundle(reg *tool.Registry, b *bundle.Bundle, err error) CheckedBundle {
	cb := CheckedBundle{Dir: b.Dir, ID: b.ID, Name: b.Name, File: b.Tools.File, Message: err.Error(), Reason: err.Error(), Fix: ResolveFix}
	var re *ResolveError
	if errors.As(err, &re) {
		if re.Provider != "" {
			cb.Provider = re.Provider
			cb.Fix = providerFix(reg, re.Provider)
		}
		var nf *launch.NotFoundError
		if re.Provider != "" && errors.As(err, &nf) {
			cb.Fix = programFix(reg, re.Provider, nf)
		}
		var se *mcp.SandboxError
		if re.Provider != "" && errors.As(err, &se) {
			cb.Fix = sandboxFix(re.Provider, se)
		}
		if re.Fix != "" {
			cb.Fix = re.Fix
		}
		cb.SandboxRequired = re.SandboxRequired
		if re.File != "" {
			cb.File = re.File
		}
		cb.Line, cb.Col = re.Line, re.Col
		if re.File != "" && re.Line > 0 {
			cb.Reason = strings.TrimPrefix(cb.Reason, fmt.Sprintf("%s:%d:%d: ", re.File, re.Line, re.Col))
		}
	}
	return cb
}

// sandboxFix is the advice for a provider whose sandbox cannot be
// enforced here (docs/sandbox.md).
func sandboxFix(ns string, se *mcp.SandboxError) string {
	where := "where it is registered"
	if se.Source != "" {
		where = se.Source
	}
	return fmt.Sprintf("change the \"sandbox\" of MCP provider %q at %s as the message says (docs/sandbox.md says what each system enforces)", ns, where)
}

// providerFix is the advice for a bundle whose MCP provider ns did not
// start or list its tools: the selection may well be right.
func providerFix(reg *tool.Registry, ns string) string {
	if a, ok := reg.Agent(ns); ok {
		return agentFix(a)
	}
	if b, ok := reg.BrokenMCP(ns); ok {
		return fmt.Sprintf("fix the entry of MCP provider %q at %s (the message says what to change), or remove it from tools.json", ns, b.Source)
	}
	for _, b := range reg.Broken() {
		if b.WholeFile() {
			return fmt.Sprintf("fix the servers file %s (the message says where), or remove %q from tools.json", b.Source, ns)
		}
	}
	where := "where it is registered"
	srv, ok := reg.Server(ns)
	if ok && srv.Source != "" {
		where = srv.Source
	}
	if ok && srv.URL != "" {
		return fmt.Sprintf("MCP provider %q did not answer: check that the server at its URL is running and reachable from this computer, and its URL and headers at %s", ns, where)
	}
	return fmt.Sprintf("MCP provider %q did not start or list its tools: check its command, arguments and environment at %s, or run that command by hand to see why", ns, where)
}

// programFix is the advice for a stdio provider whose program was found
// nowhere (docs/mcp.md#finding-the-program): running it by hand would show
// nothing more.
func programFix(reg *tool.Registry, ns string, nf *launch.NotFoundError) string {
	where := "in its \"command\""
	if srv, ok := reg.Server(ns); ok && srv.Source != "" {
		where = "in \"command\" at " + srv.Source
	}
	return fmt.Sprintf("install %s (so that it is on the PATH named above), or give its absolute path %s", nf.Program, where)
}

// describeRule says which tool-name rule a Check applied.
func describeRule(rule model.NameRule) string {
	if rule.Name() == model.AnyProvider {
		return fmt.Sprintf("tool aliases must match %s, the rule both model providers (openai, anthropic) share; no model provider is configured", model.ToolNamePattern)
	}
	return fmt.Sprintf("tool aliases must match %s, the rule of the %s model provider", model.ToolNamePattern, rule.Name())
}

// checked is the cached outcome of resolving one bundle.
type checked struct {
	tools   []ResolvedTool
	leftOut []LeftOut
	err     error
}

type checkKey struct {
	gen               uint64
	rule, dir, digest string
}

// checkCache keeps Check outcomes; safe for concurrent use.
type checkCache struct {
	mu sync.Mutex
	m  map[checkKey]checked
}

func (c *checkCache) get(k checkKey) (checked, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[k]
	return r, ok
}

func (c *checkCache) put(k checkKey, r checked) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[checkKey]checked{}
	}
	c.m[k] = r
}

func (c *checkCache) reset() {
	c.mu.Lock()
	c.m = nil
	c.mu.Unlock()
}
