package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// Options configure how providers are started. A nil *Options means the
// defaults.
type Options struct {
	// InstallDir is the app's install folder: a relative stdio Program or Dir
	// resolves against it (docs/mcp.md). Empty means the folder of the running
	// executable.
	InstallDir string
	// StderrLimit is how many bytes of a stdio provider's stderr are kept
	// (the most recent ones); 0 means DefaultStderrLimit (64 KB).
	StderrLimit int
	// StartTimeout bounds starting a provider and the MCP initialize
	// handshake when the server's own StartTimeout is 0; 0 means
	// DownloadStartTimeout (120 s) for a command that may download the
	// server first (npx, uvx, docker run) and DefaultStartTimeout (30 s)
	// for any other (docs/mcp.md#start-bound). The caller's ctx may end it
	// sooner.
	StartTimeout time.Duration
	// Logger receives the provider lifecycle (start, exit, close). nil
	// discards it. Provider stderr is never logged line by line: it is kept
	// in the tail buffer.
	Logger *slog.Logger
	// ClientName and ClientVersion are announced to servers in the
	// initialize handshake; empty means "openworker" and "dev".
	ClientName, ClientVersion string
	// RememberFailedStarts makes a Manager return a namespace's failed start
	// again instead of retrying it, for one-shot commands such as `check`,
	// where a provider that hangs until StartTimeout would otherwise cost
	// that timeout once per bundle. A long-lived app leaves it false so that
	// a fixed provider starts on the next use.
	RememberFailedStarts bool
	// SearchPath returns the search PATH a stdio provider's bare program
	// name ("npx", "uvx") is looked up in when it is not in InstallDir,
	// and the PATH the provider's process gets unless its entry's "env"
	// sets one (docs/mcp.md#finding-the-program). It is called once per
	// start with the start's context and should return when that ends.
	// nil is launch.Default: the login shell's PATH on macOS, the
	// process's PATH elsewhere.
	SearchPath func(context.Context) launch.SearchPath
	// Elicitation, when set, advertises form elicitation and sends a
	// server's questions to the Asker of the call (elicit.go,
	// docs/mcp.md#elicitation); nil advertises none.
	Elicitation *ElicitationOptions
	// Sampling, when set, lets providers started with Use.Sampling
	// advertise sampling and send its requests to the Sampler of the call
	// (sampling.go, docs/mcp.md#sampling); nil advertises it nowhere.
	Sampling *SamplingOptions
	// SignIn, when set, lets streamable HTTP providers that answer 401
	// sign in (OAuth 2.1, docs/mcp.md#sign-in); nil sends no token.
	SignIn *oauth.SignIn
	// StartsFile remembers the commands that started once, so that the
	// longer first-start bound of npx, uvx and docker run applies only
	// until a start succeeded (start_memory.go, docs/mcp.md#start-bound);
	// "" remembers nothing.
	StartsFile string
	// Protected are files no sandboxed provider may write nor have in its
	// workspace, besides OpenWorker's own folders and the servers file its
	// entry comes from: the journal (docs/sandbox.md#variables).
	Protected []string
}

// DefaultStartTimeout bounds a provider start when Options.StartTimeout is 0.
const DefaultStartTimeout = 30 * time.Second

// closeGrace is how long Close lets a stdio provider exit on its own after
// its stdin is closed before the whole process tree is killed.
const closeGrace = 2 * time.Second

func (o *Options) fill() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.StderrLimit <= 0 {
		out.StderrLimit = DefaultStderrLimit
	}
	if out.StartTimeout <= 0 {
		out.StartTimeout = DefaultStartTimeout
	}
	if out.Logger == nil {
		out.Logger = slog.New(slog.DiscardHandler)
	}
	if out.ClientName == "" {
		out.ClientName = "openworker"
	}
	if out.ClientVersion == "" {
		out.ClientVersion = "dev"
	}
	return out
}

// closeDoneWait bounds how long Close waits for the session's Wait to
// return after closing it.
const closeDoneWait = 2 * time.Second

// ErrClosed is returned by the methods of a Provider or Manager that was
// closed, or whose provider process has exited.
var ErrClosed = errors.New("mcp provider is closed")

// Provider is one connected MCP server: the tools of one namespace. It is
// safe for concurrent use; calls run concurrently over one session.
type Provider struct {
	srv    tool.MCPServer
	opts   Options
	client *sdk.Client
	conn   atomic.Pointer[conn] // the current MCP session

	stdio *stdioProcess // nil unless stdio
	http  *httpDialer   // nil unless streamable HTTP: opens new sessions (stale.go)

	secrets redactor // the server's secrets, replaced in all it sends back

	outputs  outputSchemas // of the latest catalog listing (outputschema.go)
	tasks    taskTools     // the tools' execution.taskSupport (tasks.go)
	taskCaps taskCaps      // the server's tasks capability (tasks.go)

	use      Use         // what the process is for: its root, sampling (sampling.go)
	root     Root        // the one root offered; zero when none (roots.go)
	rootsAsk *rootsAsked // the server's roots/list requests (roots.go)

	seq atomic.Uint64
	// catalog counts notifications/tools/list_changed from the server, and
	// the new sessions opened after a stale one.
	catalog atomic.Uint64
	mu      sync.Mutex
	calls   map[string]*callState // progress token → in-flight call
	running running               // in-flight calls, for elicitation (elicit.go)
	urlQs   urlWaits              // open URL questions (elicit_url.go)

	reopenMu sync.Mutex // held while a new session is opened (stale.go)
	stateMu  sync.Mutex // guards closed and the swap of conn
	closed   bool

	done      chan struct{} // closed when the provider is over: closed, or its session ended for good
	doneOnce  sync.Once
	closeOnce sync.Once
	closeErr  error // the provider's exit (stdio: cmd.Wait) once closed
}

// conn is one MCP session of a provider.
type conn struct {
	cs      *sdk.ClientSession
	info    ServerInfo    // from its handshake, redacted
	version string        // info.Version, or "" when the server sent no serverInfo
	stale   *staleMark    // streamable HTTP only: the server forgot the session
	ended   chan struct{} // closed when cs ended
}

// gone reports whether the session ended after the server said it no
// longer knows it; the provider then opens a new one on the next request.
func (c *conn) gone() bool {
	if c.stale == nil || c.stale.get() == 0 {
		return false
	}
	select {
	case <-c.ended:
		return true
	default:
		return false
	}
}

// CatalogVersion counts the tools/list_changed notifications the server
// has sent (MCP spec: a server that declares tools.listChanged sends one
// whenever its tool list changes), and the new sessions a streamable HTTP
// provider opened after the server restarted (docs/mcp.md#stale-sessions).
// A caller that remembers the count at discovery knows the catalog may
// have changed when it differs.
func (p *Provider) CatalogVersion() uint64 { return p.catalog.Load() }

// Connect starts (stdio) or reaches (streamable HTTP, SSE) the provider srv
// and completes the MCP initialize handshake, within opts.StartTimeout and
// ctx; ctx bounds only the start, not the provider's life. For a stdio
// provider that fails to start or exits during the handshake, the error
// holds its exit status, stderr tail and the last lines of stdout that were
// not JSON-RPC (docs/mcp.md#noise-on-stdout), e.g.
//
//	mcp provider "device" exited during start: exit status 1; stderr: ...
//
// The caller must Close the Provider. It offers no roots; ConnectIn does.
func Connect(ctx context.Context, srv tool.MCPServer, opts *Options) (*Provider, error) {
	return ConnectIn(ctx, srv, opts, "")
}

// ConnectIn is Connect for a session whose workspace folder is workspace:
// the provider offers it as its one root (WorkspaceRoot,
// docs/mcp.md#roots); "" offers none.
func ConnectIn(ctx context.Context, srv tool.MCPServer, opts *Options, workspace string) (*Provider, error) {
	return ConnectUse(ctx, srv, opts, Use{Workspace: workspace})
}

// ConnectUse is ConnectIn for the process u says: its workspace, offered
// as its root unless u.NoRoot, and whether it advertises sampling
// (docs/mcp.md#sampling).
func ConnectUse(ctx context.Context, srv tool.MCPServer, opts *Options, u Use) (*Provider, error) {
	root, hasRoot, err := WorkspaceRoot(u.Workspace)
	if err != nil {
		return nil, fmt.Errorf("mcp provider %q: %w", srv.Namespace, err)
	}
	hasRoot = hasRoot && (!u.NoRoot || srv.DefaultRoot) // a default workspace is no root (docs/mcp.md#roots)
	o := opts.fill()
	o.StartTimeout = startTimeout(srv, opts)
	kind, reach, err := transportFor(srv)
	if err != nil {
		return nil, startRedactor(srv, "").err(fmt.Errorf("mcp provider %q: %w", srv.Namespace, err))
	}
	srv.Transport = kind
	p := &Provider{srv: srv, opts: o, use: u, calls: map[string]*callState{}, done: make(chan struct{}), secrets: newRedactor(srv.Secrets)}
	p.client = sdk.NewClient(&sdk.Implementation{Name: o.ClientName, Version: o.ClientVersion}, &sdk.ClientOptions{
		ProgressNotificationHandler:   p.onProgress,
		LoggingMessageHandler:         p.onLog, // counted per call (lognotify.go)
		ToolListChangedHandler:        func(context.Context, *sdk.ToolListChangedRequest) { p.catalog.Add(1) },
		ElicitationHandler:            p.elicitationHandler(), // form and URL elicitation when opts.Elicitation is set
		ElicitationCompleteHandler:    p.onElicitComplete,     // URL mode (elicit_url.go)
		CreateMessageWithToolsHandler: p.samplingHandler(u),   // only with u.Sampling (sampling.go)
		// roots only with a workspace (roots.go); sampling without tools only
		// with u.Sampling; form and URL elicitation (elicit_url.go)
		// and the MCP Apps extension on every client (uiresource.go)
		Capabilities: uiCapability(p.elicitCapabilities(samplingCapability(rootsCapability(rootIf(root, hasRoot)), u, o))),
	})
	p.client.AddReceivingMiddleware(p.elicitGate)
	p.offerRoot(rootIf(root, hasRoot))
	signIn := signInHandler(srv, o)
	var cancel context.CancelFunc
	if signIn == nil {
		ctx, cancel = context.WithTimeout(ctx, o.StartTimeout)
	} else {
		var bound *startBound
		ctx, cancel, bound = withStartBound(oauth.WithAskOnce(ctx), o.StartTimeout)
		signIn.SetHold(bound.hold)
		defer signIn.SetHold(nil)
	}
	defer cancel()

	t, stale, err := reach.open(ctx, p, u, signIn)
	if err != nil {
		return nil, startRedactor(srv, "").err(fmt.Errorf("mcp provider %q: %w", srv.Namespace, err))
	}
	start := time.Now()
	// A start that runs out of time or is cancelled ends the process at
	// once: it never answered initialize, so it gets no closing grace (the
	// SDK would wait closeGrace for it before giving up).
	killed := make(chan struct{})
	stopKill := context.AfterFunc(ctx, func() {
		defer close(killed)
		if p.stdio != nil {
			if tree := p.stdio.procTree(); tree != nil {
				_ = tree.kill()
			}
		}
	})
	cs, err := p.client.Connect(ctx, t, nil)
	if !stopKill() && err == nil { // the deadline came just as the handshake ended
		<-killed
		cs.Close()
		err = fmt.Errorf("start cancelled at the end of the handshake: %w", context.Cause(ctx))
	}
	if err != nil {
		return nil, startRedactor(srv, p.stdio.programPath()).err(p.startError(ctx, err, time.Since(start)))
	}
	c, _ := p.adopt(cs, stale) // not closed yet: no one else has p
	if downloader(srv) != "" {
		if err := rememberStart(o.StartsFile, srv); err != nil {
			o.Logger.Warn("remember the provider's first start", "namespace", srv.Namespace, "file", o.StartsFile, "err", err)
		}
	}
	o.Logger.Info("mcp provider started", "namespace", srv.Namespace, "transport", srv.Transport,
		"server_version", c.version, "pid", p.stdio.pid(), "duration", time.Since(start))
	return p, nil
}

// adopt makes cs the provider's session, unless the provider was closed
// (false). When the session ends, the provider is over (Alive reports
// false), unless it was a streamable HTTP session the server forgot (the
// next request opens a new one) or a new session already replaced it.
func (p *Provider) adopt(cs *sdk.ClientSession, stale *staleMark) (*conn, bool) {
	c := &conn{cs: cs, stale: stale, ended: make(chan struct{})}
	c.info = p.secrets.serverInfo(cs.InitializeResult())
	c.version = c.info.Version
	p.stateMu.Lock()
	open := !p.closed
	if open {
		p.conn.Store(c)
	}
	p.stateMu.Unlock()
	if !open {
		return nil, false
	}
	go func() {
		cs.Wait()
		close(c.ended)
		p.stateMu.Lock()
		over := p.conn.Load() == c && (p.closed || !c.gone())
		p.stateMu.Unlock()
		if over {
			p.end()
		}
	}()
	return c, true
}

func (p *Provider) end() { p.doneOnce.Do(func() { close(p.done) }) }

// startError describes a failed start. The SDK has already closed the
// session, which for stdio waited for the process, so its exit status and
// complete stderr are known when it exited.
func (p *Provider) startError(ctx context.Context, err error, waited time.Duration) error {
	ns := p.srv.Namespace
	if p.stdio == nil {
		return scrubURL(fmt.Errorf("mcp provider %q%s at %s did not start: %w", ns, p.definedAt(), redactURL(p.srv.URL), err), p.srv.URL)
	}
	exit := p.stdio.stop()
	what := "did not start"
	var cause error = err
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		cause = fmt.Errorf("no answer to initialize within %s: %w", startLimit(waited, p.opts.StartTimeout, p.srv), err)
	case ctx.Err() != nil:
		cause = fmt.Errorf("start cancelled: %w", context.Cause(ctx))
	case exit != nil && p.stdio.started() && p.stdio.exitedByItself():
		what, cause = "exited during start", exit
	case exit != nil && p.stdio.started():
		// Ended by a signal, most often the SDK's own after the handshake
		// failed (output that is not JSON-RPC, a closed pipe): the SDK's
		// error is the cause.
		cause = fmt.Errorf("%w (the process was then ended: %v)", err, exit)
	}
	return fmt.Errorf("mcp provider %q%s %s: %w%s%s", ns, p.definedAt(), what, cause, stderrSuffix(p.stdio.stderr.String()), p.stdio.noise.suffix())
}

// definedAt names where the provider's entry was read, " (from
// servers.json:7)", or "" when it was registered in code.
func (p *Provider) definedAt() string {
	if p.srv.Source == "" {
		return ""
	}
	return " (from " + p.srv.Source + ")"
}

// startLimit names the bound that ended a start which waited so long: the
// start timeout, with the likely cause and the setting that raises it,
// or the caller's shorter deadline (a check of one bundle).
func startLimit(waited, startTimeout time.Duration, srv tool.MCPServer) string {
	if waited >= startTimeout-100*time.Millisecond {
		return fmt.Sprintf("%v (the start timeout%s)", startTimeout, startTimeoutHint(srv))
	}
	unit := 100 * time.Millisecond
	if waited < time.Second {
		unit = time.Millisecond
	}
	return fmt.Sprintf("%v (the caller's deadline)", waited.Round(unit))
}

// maxStderrInError bounds the stderr tail quoted in an error message;
// StderrTail keeps more.
const maxStderrInError = 4 << 10

// stderrSuffix formats a stderr tail for an error message.
func stderrSuffix(tail string) string {
	tail = strings.TrimSpace(tail)
	if tail == "" {
		return "; no stderr output"
	}
	if len(tail) > maxStderrInError {
		cut := len(tail) - maxStderrInError
		for cut < len(tail) && !utf8.RuneStart(tail[cut]) {
			cut++
		}
		tail = "…" + tail[cut:]
	}
	return "; stderr: " + tail
}

// Namespace returns the provider's namespace.
func (p *Provider) Namespace() string { return p.srv.Namespace }

// ServerVersion returns the version the server announced in the handshake
// of the current session (possibly empty), with the server's secrets
// redacted.
func (p *Provider) ServerVersion() string { return p.conn.Load().version }

// ServerInfo returns what the server said about itself in the handshake of
// the current session, with the server's secrets redacted
// (docs/mcp.md#secrets).
func (p *Provider) ServerInfo() ServerInfo { return p.conn.Load().info }

// StderrTail returns the most recent stderr output of a stdio provider, at
// most Options.StderrLimit bytes (plus a leading "…" when older output was
// dropped); "" for streamable HTTP.
func (p *Provider) StderrTail() string {
	if p.stdio == nil {
		return ""
	}
	return p.secrets.tail(p.stdio.stderr.String())
}

// Alive reports whether the session is still open: false once the provider
// exited, the connection broke, or Close was called. A streamable HTTP
// provider whose server forgot its session is alive: its next request
// opens a new session (docs/mcp.md#stale-sessions).
func (p *Provider) Alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// Close ends the session. For a stdio provider it closes its stdin, gives it
// up to 2 s to exit, then kills its whole process tree (the process group on
// Unix, the Job object on Windows) and reaps it. Close is idempotent and
// returns the first result; a provider killed at close is not an error.
func (p *Provider) Close() error {
	p.closeOnce.Do(func() {
		p.stateMu.Lock()
		p.closed = true
		c := p.conn.Load()
		p.stateMu.Unlock()
		if p.stdio == nil {
			p.closeErr = c.cs.Close()
		} else {
			start := time.Now()
			p.closeErr = p.stdio.shutdown(c.cs)
			p.opts.Logger.Info("mcp provider closed", "namespace", p.srv.Namespace, "pid", p.stdio.pid(),
				"exit", p.stdio.exitString(), "duration", time.Since(start))
		}
		// The session is closed, so its Wait returns at once.
		select {
		case <-c.ended:
		case <-time.After(closeDoneWait):
		}
		p.end() // Alive is false as soon as Close returns
	})
	if p.closeErr != nil {
		return fmt.Errorf("close mcp provider %q: %w", p.srv.Namespace, p.closeErr)
	}
	return nil
}

// ProgramPath is the program a stdio provider runs, as resolved
// (docs/mcp.md#finding-the-program): "/opt/homebrew/bin/npx",
// `C:\Program Files\nodejs\npx.cmd`; "" for HTTP and SSE providers.
func (p *Provider) ProgramPath() string {
	if p.stdio == nil {
		return ""
	}
	return p.stdio.program
}
