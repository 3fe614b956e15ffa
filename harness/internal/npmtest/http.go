package npmtest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// hangGuard bounds a wait for the server's output: far longer than node
// takes to start on a loaded machine, so it only catches a hang.
const hangGuard = 60 * time.Second

// HTTPServer is server-everything run in one of its HTTP modes
// ("streamableHttp": MCP at URL("/mcp"); "sse": the legacy HTTP+SSE
// transport at URL("/sse")) on 127.0.0.1 and a fixed port. The preload
// loopback.cjs (beside package.json) makes its listen(PORT) listen on
// 127.0.0.1 only, so a test opens no port beyond this computer. Its
// methods are for the test's goroutine; they fail t on errors.
type HTTPServer struct {
	t     testing.TB
	node  string
	mode  string
	args  []string
	port  int
	cmd   *exec.Cmd
	lines chan string // its stdout and stderr, line by line
}

// StartEverything starts server-everything in mode on a free port of
// 127.0.0.1 and returns once it says it listens; the test's cleanup stops
// it. It skips as Server does.
func StartEverything(t testing.TB, mode string) *HTTPServer {
	t.Helper()
	node, entry := Server(t, "server-everything")
	preload := filepath.Join(Dir(t), "loopback.cjs")
	s := &HTTPServer{t: t, node: node, mode: mode, port: FreePort(t),
		args: []string{"--require", preload, entry, mode}}
	s.start()
	t.Cleanup(s.Stop)
	return s
}

// URL returns http://127.0.0.1:PORT followed by path ("/mcp", "/sse").
func (s *HTTPServer) URL(path string) string {
	return fmt.Sprintf("http://127.0.0.1:%d%s", s.port, path)
}

// start runs the server and returns once it says it listens.
func (s *HTTPServer) start() {
	s.t.Helper()
	cmd := exec.Command(s.node, s.args...)
	cmd.Env = append(os.Environ(), "PORT="+strconv.Itoa(s.port))
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		s.t.Fatal(err)
	}
	lines := make(chan string, 1024)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default: // nobody waits for this one
			}
		}
		close(lines)
	}()
	go func() { cmd.Wait(); pw.Close() }()
	s.cmd, s.lines = cmd, lines
	s.WaitLine("unning on port", "istening on port")
}

// WaitLine waits, at most hangGuard (60 s), for a line of the server's output holding
// one of subs; lines before it are passed over. It fails t when the server
// exits first or prints no such line in time.
func (s *HTTPServer) WaitLine(subs ...string) {
	s.t.Helper()
	timeout := time.After(hangGuard)
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.t.Fatalf("server-everything %s exited before printing %q", s.mode, subs)
			}
			for _, sub := range subs {
				if strings.Contains(l, sub) {
					return
				}
			}
		case <-timeout:
			s.t.Fatalf("server-everything %s did not print %q within %v", s.mode, subs, hangGuard)
		}
	}
}

// Stop kills the server and waits until it exited; stopping a stopped
// server does nothing.
func (s *HTTPServer) Stop() {
	if s.cmd != nil && s.cmd.Process != nil {
		s.cmd.Process.Kill()
		for range s.lines { // until its output closes: it exited
		}
		s.cmd = nil
	}
}

// Restart kills the server (every session it knew is gone) and starts a
// new one on the same port, returning once it listens.
func (s *HTTPServer) Restart() {
	s.t.Helper()
	s.Stop()
	s.start()
}

// FreePort returns a port of 127.0.0.1 that was free a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
