package tool

import (
	"errors"
	"fmt"
	"sort"
	"sync"
	"time"
)

// Transports of an MCP provider (servers.json "transport"; docs/mcp.md).
const (
	TransportStdio          = "stdio"
	TransportStreamableHTTP = "streamable_http"
	// TransportSSE is the legacy HTTP+SSE transport of MCP 2024-11-05,
	// still served by older remote servers.
	TransportSSE = "sse"
)

// MCPServer describes how to reach an MCP provider whose tools appear under
// Namespace.
//
// For Transport "stdio" (the default), Program is started with Args, Env
// (added to the few variables it inherits: docs/mcp.md#environment) and working directory Dir; a relative
// Program resolves against the app's install folder. For "streamable_http"
// and "sse", URL names the service (https:// on any host, http:// only on
// this computer: docs/servers.md) and Headers are sent with every request.
// Source says where the entry came from (a servers.json path, or "" when
// registered from code) and appears in errors.
type MCPServer struct {
	Namespace string
	Transport string
	Program   string
	Args      []string
	Env       map[string]string
	Dir       string
	URL       string
	Headers   map[string]string
	Source    string
	// Name is the server's name as written in its config file when
	// Namespace had to be derived from it (a dotted name such as
	// "awslabs.core-mcp-server"); "" when they are the same.
	Name string
	// Timeout bounds one call of this provider (a config file's
	// "timeout"); 0 means the Limits' CallTimeout. It never exceeds
	// DefaultCallTimeout (docs/limits.md).
	Timeout time.Duration
	// StartTimeout bounds starting this provider and its initialize
	// handshake (servers.json "startup_timeout"); 0 lets the harness
	// choose (docs/mcp.md#start-bound).
	StartTimeout time.Duration `json:",omitempty"`
	// Tasks makes calls of the tools that allow MCP tasks
	// (execution.taskSupport "optional") task-augmented (servers.json
	// "tasks"); tools that require them always are (docs/mcp.md#tasks).
	Tasks bool `json:",omitempty"`
	// Secrets are values that must never appear in errors, logs, results
	// or the journal (docs/limits.md): the harness replaces them with
	// "[redacted]" in everything the provider sends back.
	// servers.ReadConfig adds every value substituted from the environment or
	// an input, every header value and credential-named env values
	// (docs/servers.md).
	Secrets []string
	// Vars names, for each value that had environment variables or
	// inputs substituted into it, those variables as written: "cwd" →
	// "${CWD_SECRET}", "args[1]" → "${env:TOKEN}", "env.API_KEY",
	// "headers.Authorization", "command", "url". Start errors name these
	// instead of the values (docs/servers.md#substitution). Nil when
	// nothing was substituted.
	Vars map[string]string
	// OAuth is the servers.json "oauth" of a streamable HTTP provider: the
	// client id and scopes to sign in with when the authorization server
	// offers no other way to identify OpenWorker (docs/mcp.md#sign-in,
	// docs/servers.md#oauth). Nil when not written.
	OAuth *MCPOAuth `json:",omitempty"`
	// Sandbox is the stdio provider's execution boundary (servers.json
	// "sandbox", docs/sandbox.md): the folders it may read and write and
	// the network it may reach, which package harness/sandbox has the
	// operating system enforce for the provider and every process it
	// starts. Nil runs it with the person's full access.
	Sandbox *Sandbox `json:",omitempty"`
	// DefaultRoot offers the provider the session's workspace as its root
	// even when that is a default the person did not choose (mcp.Use.NoRoot,
	// docs/mcp.md#roots): set from code for the built-in files provider,
	// which has no folders of its own and works in the app's workspace
	// (docs/files.md#roots). A server from a config file never has it: it
	// may name its own folders, which a root would replace.
	DefaultRoot bool `json:",omitempty"`
}

// MCPOAuth is a provider's configured sign-in client (docs/servers.md#oauth).
type MCPOAuth struct {
	ClientID string `json:"client_id,omitempty"`
	// ClientSecret is a pre-registered confidential client's secret,
	// substituted from the environment variable or input the file
	// references (never written in it); it is one of the server's Secrets
	// and never marshaled.
	ClientSecret string `json:"-"`
	// GrantType is "" (a person signs in: the authorization code grant)
	// or "client_credentials" (the client's own credentials, no person).
	GrantType string   `json:"grant_type,omitempty"`
	Scopes    []string `json:"scopes,omitempty"`
}

func (s MCPServer) where() string {
	switch {
	case s.Source != "":
		return fmt.Sprintf("MCP provider %q from %s", s.Namespace, s.Source)
	case s.URL != "":
		return fmt.Sprintf("MCP provider %q (%s)", s.Namespace, s.URL)
	default:
		return fmt.Sprintf("MCP provider %q (program %s)", s.Namespace, s.Program)
	}
}

// ErrFrozen is returned by the Register methods once the runtime has opened
// the registry.
var ErrFrozen = errors.New("registry is frozen: register every tool and provider before the runtime opens it")

// Registry holds the native tools and MCP providers of one host. It is filled
// at startup and frozen when the runtime opens it (docs/registry.md). Its methods are
// safe for concurrent use. The zero value is not ready; use NewRegistry.
type Registry struct {
	mu      sync.RWMutex
	frozen  bool
	native  map[string]Tool       // qualified name → tool
	descs   map[string]Descriptor // qualified name → descriptor (with defaults)
	nsTool  map[string]string     // native namespace → first tool name in it
	servers map[string]MCPServer  // namespace → provider
	agents  map[string]A2AAgent   // namespace → remote A2A agent (a2a.go)
	broken  []BrokenMCP           // providers whose configuration could not be used
	errs    []error               // every registration error, reported again by Err
}

// BrokenMCP is an MCP provider whose configuration could not be used: a
// bad entry of a servers file, or the whole file (docs/servers.md). It
// disables only that provider: a bundle that uses its namespace fails to
// resolve with Err, every other bundle resolves.
type BrokenMCP struct {
	// Namespace is the provider's namespace (or the name as written when
	// none could be derived); "" when the whole file could not be read,
	// unless Entry is set.
	Namespace string
	Source    string // "PATH:LINE" of the entry, or PATH for the whole file
	Err       error  // names the file, line and column and the fix
	// Name is the server's name as written in its file, when it is not
	// Namespace (a derived namespace, or one that could not be derived).
	Name string
	// Entry marks the record of one entry even when Namespace is "" (a
	// server named ""); without it, Namespace "" is the whole file.
	Entry bool
	// Extension is set when the provider is an installed extension
	// (docs/extensions.md#running), not a servers-file entry: its Err
	// names the extension and the fix.
	Extension bool
}

// WholeFile reports whether the record is of a whole servers file that
// could not be read, rather than of one entry or of an extension.
func (b BrokenMCP) WholeFile() bool { return b.Namespace == "" && !b.Entry && !b.Extension }

// Label names the record for people: `servers entry "a b" (namespace
// a_b)`, `servers entry "x"`, `servers file PATH`, `extension provider
// NS` or `extensions folder DIR`.
func (b BrokenMCP) Label() string {
	switch {
	case b.Extension && b.Namespace != "":
		return fmt.Sprintf("extension provider %s", b.Namespace)
	case b.Extension:
		return "extensions folder " + b.Source
	case b.WholeFile():
		return "servers file " + b.Source
	case b.Name != "" && b.Name != b.Namespace && b.Namespace != "":
		return fmt.Sprintf("servers entry %q (namespace %s)", b.Name, b.Namespace)
	case b.Namespace == "":
		return fmt.Sprintf("servers entry %q", b.Name)
	}
	return fmt.Sprintf("servers entry %q", b.Namespace)
}

// NewRegistry returns an empty, unfrozen registry.
func NewRegistry() *Registry {
	return &Registry{
		native:  map[string]Tool{},
		descs:   map[string]Descriptor{},
		nsTool:  map[string]string{},
		servers: map[string]MCPServer{},
		agents:  map[string]A2AAgent{},
	}
}

// Register adds a native tool. It fails, naming both sides, on a duplicate
// name, a namespace already used by an MCP provider, a reserved namespace, a
// bad name (docs/registry.md) or an alias collision with another native tool. The
// error is also kept, so the runtime refuses to open a registry whose
// registration failed even if the caller ignored it.
func (r *Registry) Register(t Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keep(r.register(t))
}

func (r *Registry) register(t Tool) error {
	if r.frozen {
		return ErrFrozen
	}
	if t == nil {
		return errors.New("register: tool is nil")
	}
	d := t.Descriptor()
	if err := d.Validate(); err != nil {
		return fmt.Errorf("register %T: %w", t, err)
	}
	if prev, ok := r.native[d.Name]; ok {
		return fmt.Errorf("tool %q is registered twice: first by %T, then by %T", d.Name, prev, t)
	}
	ns, _, _ := SplitName(d.Name)
	if s, ok := r.servers[ns]; ok {
		return fmt.Errorf("namespace %q of native tool %q (%T) is already the namespace of %s; a namespace is either native or MCP", ns, d.Name, t, s.where())
	}
	if a, ok := r.agents[ns]; ok {
		return fmt.Errorf("native tool %q (%T) and the skills of %s share the namespace %q; a namespace belongs to one provider: rename one of them", d.Name, t, a.where(), ns)
	}
	alias := Alias(d.Name)
	for other := range r.native {
		if Alias(other) == alias {
			return fmt.Errorf("tools %q (%T) and %q (%T) have the same model alias %q; rename one of them", other, r.native[other], d.Name, t, alias)
		}
	}
	r.native[d.Name] = t
	r.descs[d.Name] = d.WithDefaults()
	if _, ok := r.nsTool[ns]; !ok {
		r.nsTool[ns] = d.Name
	}
	return nil
}

// RegisterMCP adds an MCP provider. It fails, naming both sides, when the
// namespace is reserved, invalid, already an MCP provider or already native.
func (r *Registry) RegisterMCP(s MCPServer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.keep(r.registerMCP(s))
}

// RegisterMCPEntry is RegisterMCP for an entry of a configuration file
// (package harness/mcp): a failure disables only that provider. The error
// is returned and recorded as broken (RegisterBrokenMCP), not kept as a
// registration error, so the runtime still opens and only the bundles that
// use the namespace fail. ErrFrozen once frozen.
func (r *Registry) RegisterMCPEntry(s MCPServer) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	err := r.registerMCP(s)
	if err != nil && !errors.Is(err, ErrFrozen) {
		r.broken = append(r.broken, BrokenMCP{Namespace: s.Namespace, Source: s.Source, Err: err, Name: s.Name, Entry: true})
	}
	return err
}

func (r *Registry) registerMCP(s MCPServer) error {
	if r.frozen {
		return ErrFrozen
	}
	if s.Transport == TransportA2A { // a servers-file entry of an A2A agent (docs/a2a.md)
		return r.registerA2A(s.A2A())
	}
	if s.Transport == "" {
		s.Transport = TransportStdio
	}
	if err := r.checkMCP(s); err != nil {
		return err
	}
	r.servers[s.Namespace] = s
	return nil
}

// CheckMCP returns the error RegisterMCP would return for s on an
// unfrozen registry (a *NamespaceTakenError when the namespace is taken),
// registering and recording nothing; a frozen registry answers too, so a
// host can check a servers file against the registry it gave the runtime
// (servers.Config.CheckRegistry).
func (r *Registry) CheckMCP(s MCPServer) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if s.Transport == "" {
		s.Transport = TransportStdio
	}
	return r.checkMCP(s)
}

func (r *Registry) checkMCP(s MCPServer) error {
	if s.Transport == TransportA2A {
		return r.checkA2A(s.A2A())
	}
	if err := CheckNamespace(s.Namespace); err != nil {
		return fmt.Errorf("%s: %w", s.where(), err)
	}
	switch s.Transport {
	case TransportStdio:
		if s.Program == "" {
			return fmt.Errorf("%s: the stdio transport needs a program (\"command\")", s.where())
		}
	case TransportStreamableHTTP, TransportSSE:
		if s.URL == "" {
			return fmt.Errorf("%s: the %s transport needs a \"url\"", s.where(), s.Transport)
		}
	default:
		return fmt.Errorf("%s: unknown transport %q; use \"stdio\", \"streamable_http\" or \"sse\"", s.where(), s.Transport)
	}
	if s.Timeout < 0 || s.Timeout > DefaultCallTimeout {
		return fmt.Errorf("%s: timeout %s is outside 0 to %s (docs/limits.md)", s.where(), s.Timeout, DefaultCallTimeout)
	}
	if prev, ok := r.servers[s.Namespace]; ok {
		return &NamespaceTakenError{Namespace: s.Namespace, Server: s, Provider: &prev}
	}
	if name, ok := r.nsTool[s.Namespace]; ok {
		return &NamespaceTakenError{Namespace: s.Namespace, Server: s, NativeTool: name}
	}
	if a, ok := r.agents[s.Namespace]; ok {
		return fmt.Errorf("namespace %q of %s is already the namespace of %s; a namespace belongs to one provider: rename one of them", s.Namespace, s.where(), a.where())
	}
	return nil
}

// NamespaceTakenError is the error of registering an MCP provider under a
// namespace that already has one (Provider) or holds native tools
// (NativeTool). Its message names both sides; harness/mcp turns it into an
// error at the servers-file entry (docs/servers.md#namespaces).
type NamespaceTakenError struct {
	Namespace string
	Server    MCPServer  // the provider that was refused
	Provider  *MCPServer // the provider that has the namespace, or nil
	// NativeTool is the first native tool registered in the namespace,
	// or "" when Provider has it.
	NativeTool string
}

func (e *NamespaceTakenError) Error() string {
	fix := ""
	if e.Server.Source != "" {
		fix = "; rename the one from " + e.Server.Source
	}
	if e.Provider != nil {
		return fmt.Sprintf("namespace %q has two MCP providers: %s and %s; a namespace has one provider%s", e.Namespace, e.Provider.where(), e.Server.where(), fix)
	}
	return fmt.Sprintf("namespace %q of %s is already the namespace of native tool %q; a namespace is either native or MCP%s", e.Namespace, e.Server.where(), e.NativeTool, fix)
}

// BuiltIn reports whether the namespace is taken by something registered
// in code (native tools, or a provider without a Source) rather than by
// another configuration file.
func (e *NamespaceTakenError) BuiltIn() bool {
	return e.Provider == nil || e.Provider.Source == ""
}

// RegisterBrokenMCP records an MCP provider whose configuration could not
// be used (a bad servers-file entry, or with namespace "" the whole file):
// unlike Fail it does not stop the runtime from opening. Resolving a
// bundle that uses namespace fails with err (docs/servers.md); Broken lists
// every record, for `openworker check`. A namespace that is also native or
// a working MCP provider keeps working; the record is only listed. It
// returns ErrFrozen (keeping nothing) once the registry is frozen; a nil
// err is ignored.
func (r *Registry) RegisterBrokenMCP(namespace, source string, err error) error {
	return r.RegisterBroken(BrokenMCP{Namespace: namespace, Source: source, Err: err})
}

// RegisterBroken is RegisterBrokenMCP with the whole record: an entry's
// name as written and whether it is an entry (BrokenMCP.Entry).
func (r *Registry) RegisterBroken(b BrokenMCP) error {
	if b.Err == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frozen {
		return ErrFrozen
	}
	r.broken = append(r.broken, b)
	return nil
}

// BrokenMCP returns the broken record of namespace when the namespace is
// neither native nor a working MCP provider; the first one when there are
// several.
func (r *Registry) BrokenMCP(namespace string) (BrokenMCP, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if _, ok := r.servers[namespace]; ok || namespace == "" {
		return BrokenMCP{}, false
	}
	if _, ok := r.agents[namespace]; ok {
		return BrokenMCP{}, false
	}
	if _, ok := r.nsTool[namespace]; ok {
		return BrokenMCP{}, false
	}
	for _, b := range r.broken {
		if b.Namespace == namespace {
			return b, true
		}
	}
	return BrokenMCP{}, false
}

// Broken returns every broken provider record, in the order recorded.
func (r *Registry) Broken() []BrokenMCP {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]BrokenMCP(nil), r.broken...)
}

// Fail records a registration error that did not come from Register or
// RegisterMCP, such as a bad entry of a servers.json file (package
// harness/mcp), so that Freeze reports it and the runtime refuses to open
// the registry. It returns err, or ErrFrozen (keeping nothing) once the
// registry is frozen. A nil err is ignored.
func (r *Registry) Fail(err error) error {
	if err == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frozen {
		return ErrFrozen
	}
	return r.keep(err)
}

func (r *Registry) keep(err error) error {
	if err != nil && !errors.Is(err, ErrFrozen) {
		r.errs = append(r.errs, err)
	}
	return err
}

// Freeze stops further registration and returns every registration error
// seen so far, joined. Freezing twice is harmless.
func (r *Registry) Freeze() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.frozen = true
	return errors.Join(r.errs...)
}

// Frozen reports whether the registry has been frozen.
func (r *Registry) Frozen() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.frozen
}

// Tool returns the native tool with the qualified name.
func (r *Registry) Tool(name string) (Tool, Descriptor, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	t, ok := r.native[name]
	return t, r.descs[name], ok
}

// Server returns the MCP provider of a namespace.
func (r *Registry) Server(namespace string) (MCPServer, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	s, ok := r.servers[namespace]
	return s, ok
}

// IsNative reports whether namespace holds native tools.
func (r *Registry) IsNative(namespace string) bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	_, ok := r.nsTool[namespace]
	return ok
}

// Descriptors returns the native descriptors sorted by name.
func (r *Registry) Descriptors() []Descriptor {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Descriptor, 0, len(r.descs))
	for _, d := range r.descs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Servers returns the MCP providers sorted by namespace.
func (r *Registry) Servers() []MCPServer {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]MCPServer, 0, len(r.servers))
	for _, s := range r.servers {
		out = append(out, s)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Namespace < out[j].Namespace })
	return out
}

// WithServers returns a new frozen registry with r's native tools and MCP
// providers plus servers: a registry generation (docs/registry.md). r is
// not changed, and may be frozen already. Each entry goes through the
// rules of RegisterMCP (a namespace already native, already an MCP
// provider of r, or repeated in servers is an error naming both sides);
// the entries that pass are in the new registry, and every error is
// returned, joined, beside it; an entry that fails is also recorded as
// broken (RegisterBrokenMCP), so only the bundles that use it fail. The
// broken records of r and broken are carried into the new registry.
// Errors kept by r (Err) are not carried over.
func (r *Registry) WithServers(servers []MCPServer, broken ...BrokenMCP) (*Registry, error) {
	r.mu.RLock()
	out := NewRegistry()
	for k, v := range r.native {
		out.native[k] = v
	}
	for k, v := range r.descs {
		out.descs[k] = v
	}
	for k, v := range r.nsTool {
		out.nsTool[k] = v
	}
	for k, v := range r.servers {
		out.servers[k] = v
	}
	for k, v := range r.agents {
		out.agents[k] = v
	}
	out.broken = append(append(out.broken, r.broken...), broken...)
	r.mu.RUnlock()
	var errs []error
	for _, s := range servers {
		if err := out.registerMCP(s); err != nil {
			errs = append(errs, err)
			out.broken = append(out.broken, BrokenMCP{Namespace: s.Namespace, Source: s.Source, Err: err, Name: s.Name, Entry: true})
		}
	}
	out.frozen = true
	return out, errors.Join(errs...)
}
