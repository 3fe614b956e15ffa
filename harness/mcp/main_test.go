package mcp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/tools/device"
)

// serverEnv makes the test binary re-execute itself as an MCP server (the
// TestMain trick): its value names the server to run.
const serverEnv = "OW_MCP_TEST_SERVER"

// startsEnv names a file the exit-at-start server appends a line to on each
// start.
const startsEnv = "OW_MCP_TEST_STARTS"

func TestMain(m *testing.M) {
	RunWatchdogIfAsked() // the copy of the test binary EnableProcessTree starts (watchdog_linux.go)
	switch os.Getenv(serverEnv) {
	case "":
		os.Exit(m.Run())
	case "treeparent": // starts a provider whose grandchild calls setsid (proc_tree_linux_test.go) and waits to be killed
		EnableProcessTree()
		p, err := Connect(context.Background(), setsidProvider(os.Getenv("OW_ORPHAN_PIDFILE")), &Options{StartTimeout: 10 * time.Minute})
		if err != nil {
			fmt.Fprintln(os.Stderr, "treeparent:", err)
			os.Exit(1)
		}
		_ = p
		select {}
	case "parent": // starts a provider (pdeathsig_linux_test.go) and waits to be killed
		srv := tool.MCPServer{Namespace: "orphan", Program: "sh", Args: []string{"-c", `echo $$ > "$OW_ORPHAN_PIDFILE"; exec sleep 600`},
			Env: map[string]string{"OW_ORPHAN_PIDFILE": os.Getenv("OW_ORPHAN_PIDFILE")}}
		Connect(context.Background(), srv, &Options{StartTimeout: 10 * time.Minute})
		os.Exit(0)
	case "sandboxparent": // starts a sandboxed provider (pdeathsig_linux_test.go) and waits to be killed
		pidFile := os.Getenv("OW_ORPHAN_PIDFILE")
		srv := tool.MCPServer{Namespace: "orphan", Program: "sh", Args: []string{"-c", `echo $$ > "$OW_ORPHAN_PIDFILE"; exec sleep 600`},
			Env: map[string]string{"OW_ORPHAN_PIDFILE": pidFile}, Sandbox: tool.DefaultSandbox()}
		if _, err := ConnectIn(context.Background(), srv, &Options{StartTimeout: 10 * time.Minute}, filepath.Dir(pidFile)); err != nil {
			fmt.Fprintln(os.Stderr, "sandboxed provider:", err)
		}
		os.Exit(0)
	case "device":
		if err := device.ServeStdio(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "device server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "tasks": // speaks MCP tasks over stdio (tasks_test.go)
		if err := mcptest.ServeTasksStdio(os.Stdin, os.Stdout); err != nil {
			fmt.Fprintln(os.Stderr, "tasks server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "helper":
		fmt.Fprintln(os.Stderr, "helper server starting")
		if err := helperServer().Run(context.Background(), &sdk.StdioTransport{}); err != nil {
			fmt.Fprintln(os.Stderr, "helper server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "noisy":
		noisyServer()
	case "logflood": // lognotify_test.go
		logFloodServer()
	case "results":
		if err := mcptest.Serve(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "results server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "secret": // mcptest.SecretServer, its secret from mcptest.SecretEnv
		if err := mcptest.ServeSecret(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "secret server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "exit-at-start":
		if f := os.Getenv(startsEnv); f != "" { // count the starts
			if fh, err := os.OpenFile(f, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600); err == nil {
				fh.WriteString("start\n")
				fh.Close()
			}
		}
		fmt.Fprintln(os.Stderr, "fatal: cannot open config /nonexistent/acer.toml: no such file or directory")
		os.Exit(1)
	case "elicit-raw": // elicit_test.go
		rawElicitServer()
	case "elicit-url": // elicit_url_test.go
		rawURLServer()
	case "url-required": // elicit_required_test.go: mcptest.URLRequiredServer
		if err := mcptest.ServeURLRequired(context.Background()); err != nil {
			fmt.Fprintln(os.Stderr, "url-required server:", err)
			os.Exit(1)
		}
		os.Exit(0)
	case "hang":
		// Never answers initialize; exits when stdin closes.
		fmt.Fprintln(os.Stderr, "hanging before initialize")
		if f := os.Getenv(readyEnv); f != "" { // say so to the test (a FIFO)
			if fh, err := os.OpenFile(f, os.O_WRONLY, 0); err == nil {
				fh.WriteString("ready\n")
				fh.Close()
			}
		}
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "sleep":
		time.Sleep(time.Minute)
		os.Exit(0)
	default:
		fmt.Fprintln(os.Stderr, "unknown", serverEnv, os.Getenv(serverEnv))
		os.Exit(2)
	}
}

type crashIn struct {
	StderrBytes int    `json:"stderr_bytes"`
	Marker      string `json:"marker"`
	Code        int    `json:"code"`
}

type envOut struct {
	Value string `json:"value"`
	Dir   string `json:"dir"`
}

type spawnOut struct {
	PID int `json:"pid"`
}

// helperServer is a stdio server with tools that misbehave on purpose.
func helperServer() *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "helper", Version: "0.3.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "writes to stderr, then exits"},
		func(_ context.Context, _ *sdk.CallToolRequest, in crashIn) (*sdk.CallToolResult, any, error) {
			line := bytes.Repeat([]byte("x"), 99)
			line = append(line, '\n')
			for n := 0; n < in.StderrBytes; n += len(line) {
				os.Stderr.Write(line)
			}
			fmt.Fprintln(os.Stderr, in.Marker)
			os.Exit(in.Code)
			return nil, nil, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "env", Description: "reports OW_TEST_VAR and the working folder"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, envOut, error) {
			wd, _ := os.Getwd()
			return nil, envOut{Value: os.Getenv("OW_TEST_VAR"), Dir: wd}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "spawn", Description: "starts a grandchild process"},
		func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, spawnOut, error) {
			exe, _ := os.Executable()
			cmd := exec.Command(exe)
			cmd.Env = append(os.Environ(), serverEnv+"=sleep")
			if err := cmd.Start(); err != nil {
				return nil, spawnOut{}, err
			}
			return nil, spawnOut{PID: cmd.Process.Pid}, nil
		})
	sdk.AddTool(s, &sdk.Tool{Name: "wait", Description: "blocks until cancelled"},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			fmt.Fprintln(os.Stderr, "wait: handler started")
			if token := req.Params.GetProgressToken(); token != nil { // so a caller can act once it runs
				_ = req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: "handler started"})
			}
			select {
			case <-ctx.Done():
				fmt.Fprintln(os.Stderr, "wait: handler saw cancellation")
			case <-time.After(time.Minute):
			}
			return nil, nil, ctx.Err()
		})
	return s
}

// selfServer describes this test binary serving kind over stdio.
// readyEnv names a FIFO the "hang" server writes a line to once its
// stderr line is out.
const readyEnv = "OW_MCP_TEST_READY_FIFO"

func selfServer(t *testing.T, ns, kind string) tool.MCPServer {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// GORACE: a -race child otherwise sleeps 1 s at exit.
	return tool.MCPServer{Namespace: ns, Transport: tool.TransportStdio, Program: exe,
		Env: map[string]string{serverEnv: kind, "GORACE": "atexit_sleep_ms=0"}}
}

// hangGuard bounds a wait that only catches a hang (a call or a Close that
// never returns). It is far longer than any of them takes on a loaded
// machine, and shorter than what the code under test would wait for on its
// own when broken (a minute in the "wait" handlers), so it measures no
// speed.
const hangGuard = 30 * time.Second

// startGuard bounds the start of a real server process (node, or a
// sandboxed program): far longer than it takes on a loaded machine.
// Contexts that cover a start and the calls after it get twice as long.
const startGuard = 60 * time.Second

// within fails the test if f does not return within d.
func within(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() { f(); close(done) }()
	select {
	case <-done:
		t.Logf("%s took %v", what, time.Since(start).Round(time.Millisecond))
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func mustContain(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s = %q, want it to contain %q", what, s, sub)
		}
	}
}

// setsidProvider is the device server started through a shell that
// first double-forks a process which calls setsid (leaving the provider's
// process group and session), writes its pid to pidFile and sleeps: the
// grandchild a daemonizing server leaves behind.
func setsidProvider(pidFile string) tool.MCPServer {
	exe, _ := os.Executable()
	return tool.MCPServer{Namespace: "tree", Program: "sh", Args: []string{"-c",
		`(setsid sh -c 'echo $$ > "$OW_ORPHAN_PIDFILE"; exec sleep 600' &); exec "$OW_TREE_EXE"`},
		Env: map[string]string{"OW_ORPHAN_PIDFILE": pidFile, "OW_TREE_EXE": exe, serverEnv: "device"}}
}
