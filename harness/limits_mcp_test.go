package harness_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// serveMisbehaveEnv makes the test binary serve misbehavingServer on stdio;
// its value is the counter file.
const serveMisbehaveEnv = "OPENWORKER_TEST_SERVE_MISBEHAVE"

func serveMisbehaving() {
	s := misbehavingServer(os.Getenv(serveMisbehaveEnv))
	if err := s.Run(context.Background(), &sdk.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

type countIn struct {
	Count int `json:"count"`
}

// misbehavingServer has, for each behaviour, a write tool NAME and a
// read-only tool NAME_ro (readOnlyHint). Every call appends one line to the
// counter file first, so a test can count executions server-side even when
// the server dies.
func misbehavingServer(counter string) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "misbehave", Version: "1.0.0"}, nil)
	count := func(name string) {
		f, err := os.OpenFile(counter, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintln(f, name)
			f.Close()
		}
	}
	text := func(n int) *sdk.CallToolResult {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("r", n)}}}
	}
	for _, ro := range []bool{false, true} {
		suffix := ""
		if ro {
			suffix = "_ro"
		}
		ann := &sdk.ToolAnnotations{ReadOnlyHint: ro}
		sdk.AddTool(s, &sdk.Tool{Name: "crash" + suffix, Description: "exits mid-call", Annotations: ann},
			func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
				count("crash" + suffix)
				os.Exit(3)
				return nil, nil, nil
			})
		sdk.AddTool(s, &sdk.Tool{Name: "sleep" + suffix, Description: "sleeps 30 s", Annotations: ann},
			func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
				count("sleep" + suffix)
				select {
				case <-ctx.Done():
				case <-time.After(30 * time.Second):
				}
				return text(2), nil, nil
			})
		sdk.AddTool(s, &sdk.Tool{Name: "result" + suffix, Description: "returns count bytes of text", Annotations: ann},
			func(_ context.Context, _ *sdk.CallToolRequest, in countIn) (*sdk.CallToolResult, any, error) {
				count("result" + suffix)
				return text(in.Count), nil, nil
			})
		// rpcfail's handler fails the ordinary way of a raw handler (and of
		// mark3labs/mcp-go's `return nil, err`): a JSON-RPC error answer.
		s.AddTool(&sdk.Tool{Name: "rpcfail" + suffix, Description: "answers with a JSON-RPC error", Annotations: ann,
			InputSchema: map[string]any{"type": "object"}},
			func(context.Context, *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				count("rpcfail" + suffix)
				return nil, errors.New("the backend refused: quota exceeded")
			})
		sdk.AddTool(s, &sdk.Tool{Name: "progress" + suffix, Description: "sends count progress notifications", Annotations: ann},
			func(ctx context.Context, req *sdk.CallToolRequest, in countIn) (*sdk.CallToolResult, any, error) {
				count("progress" + suffix)
				token := req.Params.GetProgressToken()
				for i := 1; i <= in.Count && token != nil; i++ {
					if err := req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: "step", Progress: float64(i)}); err != nil {
						return nil, nil, err
					}
				}
				return text(4), nil, nil
			})
	}
	return s
}

// httpMisbehaving serves misbehavingServer over streamable HTTP on 127.0.0.1.
func httpMisbehaving(t *testing.T, ns, counter string) tool.MCPServer {
	t.Helper()
	s := misbehavingServer(counter)
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return tool.MCPServer{Namespace: ns, Transport: tool.TransportStreamableHTTP, URL: srv.URL}
}

// MCP calls get the same result, progress and time bounds as native calls
// (docs/limits.md), over stdio and streamable HTTP; a provider crash mid-call stops
// the turn. A write ends unknown, a read-only call failed, and the server
// counts exactly one execution: nothing is replayed.
func TestMCPLimitsAndCrash(t *testing.T) {
	type tc struct {
		tool, args string
		ok         bool
		wantErr    string
		transports []string
	}
	both := []string{"stdio", "http"}
	cases := []tc{
		{"result", `{"count":262144}`, true, "", both},
		{"result", `{"count":262145}`, false, "262145 bytes, over the limit of 262144", both},
		{"progress", `{"count":64}`, true, "", both},
		{"progress", `{"count":65}`, false, "progress event 65 over the limit of 64", both},
		{"sleep", `{}`, false, "longer than 300ms", both},
		{"crash", `{}`, false, "exited", []string{"stdio"}},
	}
	for _, c := range cases {
		for _, transport := range c.transports {
			for _, ro := range []bool{false, true} {
				name := c.tool
				if ro {
					name += "_ro"
				}
				t.Run(fmt.Sprintf("%s/%s%s", transport, name, c.args), func(t *testing.T) {
					counter := filepath.Join(t.TempDir(), "calls.txt")
					srv := selfMCP(t, "bad", counter)
					if transport == "http" {
						srv = httpMisbehaving(t, "bad", counter)
					}
					// Only the sleep case is about the call bound; the others
					// get room, so a loaded machine cannot make them time out.
					bound := 30 * time.Second
					if c.tool == "sleep" {
						bound = 300 * time.Millisecond
					}
					e := newEnv(t, envOpts{
						servers: []tool.MCPServer{srv}, selected: []string{"bad." + name},
						limits:  tool.Limits{CallTimeout: bound},
						replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "bad__"+name, c.args)}}, {Text: "finished"}},
					})
					s, res, err := e.send("go")
					if err != nil {
						t.Fatal(err)
					}
					invs := e.invocations(s.ID())
					if len(invs) != 1 {
						t.Fatalf("got %d invocations, want 1", len(invs))
					}
					if n := countLines(t, counter); n != 1 {
						t.Fatalf("the server ran the tool %d times, want exactly 1", n)
					}
					if c.ok {
						if res.Status != harness.TurnCompleted || invs[0].Status != "succeeded" {
							t.Fatalf("result %+v, invocation %s %s; want completed, succeeded", res, invs[0].Status, invs[0].Error)
						}
						return
					}
					want := harness.StatusUnknown
					if ro {
						want = harness.StatusFailed
					}
					if res.Status != harness.TurnStopped || invs[0].Status != want {
						t.Fatalf("result %+v, invocation %s (%s: %s); want stopped and %s", res, invs[0].Status, invs[0].ErrorCode, invs[0].Error, want)
					}
					if !strings.Contains(invs[0].Error, c.wantErr) {
						t.Fatalf("journaled error %q; want it to say %q", invs[0].Error, c.wantErr)
					}
					if n := len(e.model.Requests()); n != 1 {
						t.Fatalf("model got %d requests, want 1: the turn stops", n)
					}
				})
			}
		}
	}
}

// TestToolErrorAnswerIsAResult: a JSON-RPC error answer to tools/call is a
// definite answer from the server, for a write tool too: the invocation is
// failed with the server's message, the model gets it as an error result,
// the other calls of the same reply run and the turn goes on.
func TestToolErrorAnswerIsAResult(t *testing.T) {
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			counter := filepath.Join(t.TempDir(), "calls.txt")
			srv := selfMCP(t, "bad", counter)
			if transport == "http" {
				srv = httpMisbehaving(t, "bad", counter)
			}
			e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"bad.rpcfail", "bad.result"},
				replies: []modeltest.Reply{
					{ToolCalls: []model.ToolCall{call("c1", "bad__rpcfail", `{}`), call("c2", "bad__result", `{"count":3}`)}},
					{Text: "the first call failed, the second worked"},
				}})
			s, res, err := e.send("go")
			if err != nil || res.Status != harness.TurnCompleted {
				t.Fatalf("turn = %+v, %v; want completed", res, err)
			}
			invs := e.invocations(s.ID())
			if len(invs) != 2 || invs[0].Status != harness.StatusFailed || invs[1].Status != harness.StatusSucceeded {
				t.Fatalf("invocations = %+v; want failed then succeeded", invs)
			}
			if invs[0].ErrorCode != "mcp_error" || !strings.Contains(invs[0].Error, "the backend refused: quota exceeded") {
				t.Errorf("failed invocation = %s: %s; want the server's message", invs[0].ErrorCode, invs[0].Error)
			}
			tr := e.model.Requests()[1].ToolResults()
			// Chat Completions has no error flag: the provider prefixes "error: ", once.
			if len(tr) != 2 || tr[0].Text != "error: mcp_error: the backend refused: quota exceeded" || tr[1].Text != "rrr" {
				t.Errorf("tool results sent to the model = %+v", tr)
			}
		})
	}
}
