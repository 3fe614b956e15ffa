package mcp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
)

// stdioProcess is a provider's child process: its command, the bounded tail
// of its stderr, the lines of its stdout that were not JSON-RPC, and the
// process tree Close ends.
type stdioProcess struct {
	cmd     *exec.Cmd
	program string // the resolved program (planLaunch)
	stderr  *tailBuffer
	noise   *noiseLog

	exited  chan struct{} // closed once cmd.Wait returned (never if it did not start)
	waitErr error         // cmd.Wait's result; read after exited

	mu   sync.Mutex
	tree *procTree
	conn *stdioConn // once started: the raw side channel (rawcall.go)

	// sandboxTemp is the private temporary folder of a sandboxed
	// provider (${temp}, docs/sandbox.md#variables), removed once the
	// process tree has ended; "" for none.
	sandboxTemp string
	cleanOnce   sync.Once
}

// newStdio builds the command for srv (docs/mcp.md): Program found as
// docs/mcp.md#finding-the-program says (the install folder, then the search
// PATH of o.SearchPath; a .cmd/.bat shim through cmd.exe on Windows), the
// parent's environment with PATH set to the search PATH plus srv.Env,
// srv.Dir, no console window on Windows, its own process group on Unix,
// and stderr drained continuously into a bounded tail buffer. It returns
// the process and a transport that starts it; lines of stdout that are
// not JSON-RPC go to noise. ctx bounds waiting for the login shell's PATH.
// A provider with a Sandbox runs inside it (sandboxed.go) for u's
// workspace, or does not start.
func newStdio(ctx context.Context, srv tool.MCPServer, o Options, u Use, noise *noiseLog, observe func(jsonrpc.Message)) (*stdioProcess, sdk.Transport, error) {
	install := o.InstallDir
	if install == "" {
		if exe, err := os.Executable(); err == nil {
			install = filepath.Dir(exe)
		}
	}
	sp := o.searchPath(ctx)
	plan, err := planLaunch(srv, install, sp, runtime.GOOS, os.Getenv("PATHEXT"))
	if err != nil {
		if vars := srv.Vars["command"]; vars != "" { // never the value (docs/servers.md#substitution)
			return nil, nil, fmt.Errorf("the program (from %s in \"command\") cannot be found: %s", vars, startRedactor(srv, "").text(err.Error()))
		}
		return nil, nil, err
	}
	cmd := exec.Command(plan.path, plan.args...)
	cmd.Env = mergeEnv(withPath(processEnviron(), sp.Path, runtime.GOOS), srv.Env) // docs/mcp.md#environment
	if srv.Dir != "" {
		cmd.Dir = srv.Dir
		if !filepath.IsAbs(srv.Dir) && install != "" {
			cmd.Dir = filepath.Join(install, srv.Dir)
		}
		// os/exec reports a missing folder as a missing program: say which.
		if st, err := os.Stat(cmd.Dir); err != nil || !st.IsDir() {
			where := "its \"cwd\""
			if srv.Source != "" {
				where += " at " + srv.Source
			}
			folder := cmd.Dir
			if vars := srv.Vars["cwd"]; vars != "" { // never the value (docs/servers.md#substitution)
				folder = "(from " + vars + ")"
			}
			return nil, nil, fmt.Errorf("the working folder %s does not exist or is not a folder; fix %s", folder, where)
		}
	}
	s := &stdioProcess{cmd: cmd, program: plan.program, stderr: newTailBuffer(o.StderrLimit), noise: noise, exited: make(chan struct{})}
	// os/exec copies stderr into the buffer from its own goroutine for the
	// life of the process; Wait ends that copy. WaitDelay stops a
	// grandchild that holds stderr open from blocking Wait.
	cmd.Stderr = s.stderr
	cmd.WaitDelay = time.Second
	setupCommand(cmd, plan.cmdLine)
	if srv.Sandbox != nil {
		if s.sandboxTemp, err = sandboxCommand(cmd, srv, plan.program, u.Workspace, o.Protected); err != nil {
			return nil, nil, err
		}
	}
	return s, &stdioTransport{proc: s, observe: observe}, nil
}

// mergeEnv returns parent plus extra (extra wins), extra in sorted order.
func mergeEnv(parent []string, extra map[string]string) []string {
	env := append([]string(nil), parent...)
	keys := make([]string, 0, len(extra))
	for k := range extra {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+extra[k]) // os/exec keeps the last duplicate
	}
	return env
}

// programPath is the program the provider resolved its command to, "" for
// none (nil s: not a stdio provider).
func (s *stdioProcess) programPath() string {
	if s == nil {
		return ""
	}
	return s.program
}

func (s *stdioProcess) pid() int {
	if s == nil || s.cmd.Process == nil {
		return 0
	}
	return s.cmd.Process.Pid
}

func (s *stdioProcess) started() bool { return s.cmd.Process != nil }

// reaped reports whether cmd.Wait has returned; only then may ProcessState
// be read.
func (s *stdioProcess) reaped() bool {
	select {
	case <-s.exited:
		return true
	default:
		return false
	}
}

// exitedByItself reports whether the reaped process exited with a status
// of its own, rather than being ended by a signal.
func (s *stdioProcess) exitedByItself() bool {
	if !s.reaped() {
		return false
	}
	ps := s.cmd.ProcessState
	return ps != nil && ps.Exited()
}

// connection is the process's connection once started, or nil.
func (s *stdioProcess) connection() *stdioConn {
	if s == nil {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn
}

func (s *stdioProcess) procTree() *procTree {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tree
}

// stop cleans up after a failed start, when the SDK has already closed the
// session (and so waited for the process): it kills what is left of the
// tree, reaps the process and returns its exit status, or nil when it
// never ran.
func (s *stdioProcess) stop() error {
	if t := s.procTree(); t != nil {
		t.kill()
		t.release()
	}
	defer s.removeTemp()
	if !s.started() {
		return nil
	}
	<-s.exited // killed above; WaitDelay bounds the wait for stderr
	if ps := s.cmd.ProcessState; ps != nil {
		return errors.New(ps.String())
	}
	return nil
}

// shutdown closes the session, whose connection closes the child's stdin,
// lets it exit for up to closeGrace, then kills the whole tree and reaps it
// (stdioConn.Close), then kills what is left of the tree. A child killed
// here is not an error.
func (s *stdioProcess) shutdown(cs *sdk.ClientSession) error {
	err := cs.Close()
	tree := s.procTree()
	kerr := tree.kill() // grandchildren outliving the provider
	tree.release()
	s.removeTemp()
	var exit *exec.ExitError
	if errors.As(err, &exit) || errors.Is(err, os.ErrProcessDone) {
		err = nil // the exit is logged, not returned
	}
	return errors.Join(err, kerr)
}

// exitString describes how the process ended ("exit status 1", "signal:
// killed"), or "" while it runs.
func (s *stdioProcess) exitString() string {
	if !s.reaped() {
		return ""
	}
	if ps := s.cmd.ProcessState; ps != nil {
		return ps.String()
	}
	return ""
}

// stdioKind starts the server as a child process and speaks over its
// stdin and stdout (stdio.go).
type stdioKind struct{}

func (stdioKind) open(ctx context.Context, p *Provider, u Use, _ *oauth.Handler) (sdk.Transport, *staleMark, error) {
	proc, t, err := newStdio(ctx, p.srv, p.opts, u, newNoiseLog(p.opts.Logger, p.srv.Namespace, p.secrets.text), p.observeMessage)
	p.stdio = proc
	return t, nil, err
}
