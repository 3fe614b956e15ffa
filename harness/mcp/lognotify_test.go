package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness/tool"
)

// logFloodServer serves one tool, "flood", that writes 5,000
// notifications/message lines on stdout (as a hostile server may, without
// being asked for logs) and then waits until its call is cancelled.
func logFloodServer() {
	out := &noisyStdout{}
	s := sdk.NewServer(&sdk.Implementation{Name: "logflood", Version: "1.0.0"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "flood", Description: "floods the client with log notifications"},
		func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			for i := range 5000 {
				out.line(fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"log %d"}}`, i))
			}
			<-ctx.Done()
			return nil, nil, ctx.Err()
		})
	if err := s.Run(context.Background(), &sdk.IOTransport{Reader: os.Stdin, Writer: out}); err != nil {
		fmt.Fprintln(os.Stderr, "logflood server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// TestLogNotificationFloodEndsTheCall: a call whose server sends more
// than MaxLogNotifications log notifications is cancelled with a limit
// error naming the server and the bound (issue 40: 100k of them took 23 s
// of a call, with no bound).
func TestLogNotificationFloodEndsTheCall(t *testing.T) {
	srv := selfServer(t, "logflood", "logflood")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute) // a hang guard only
	defer cancel()
	p, err := Connect(ctx, srv, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	_, err = p.CallTool(ctx, "flood", nil, func(string, json.RawMessage) error { return nil })
	if !errors.Is(err, tool.ErrLimit) || !strings.Contains(err.Error(), "the server logflood sent more than 1000 log notifications") {
		t.Fatalf("flood = %v; want a limit error naming the server and the bound", err)
	}
	if ctx.Err() != nil {
		t.Fatal("the call ended only at the hang guard")
	}
}
