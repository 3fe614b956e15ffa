package mcp

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Environment of the "noisy" test server.
const (
	noiseBannerEnv = "OW_NOISE_BANNER_BYTES" // a banner of this many bytes, no newline inside, first
	noiseLinesEnv  = "OW_NOISE_LINES"        // this many "boot step N" lines before the handshake
)

// noisyServer is helperServer over stdio with noise on stdout, as servers
// in the wild print it: an optional huge banner, banner lines (plain text,
// a JSON log line, "[INFO] ...", a blank line) before the handshake, a log
// line after every message it sends, and a "chatter" tool that prints one
// while it runs.
func noisyServer() {
	out := &noisyStdout{}
	if n, _ := strconv.Atoi(os.Getenv(noiseBannerEnv)); n > 0 {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for left := n; left > 0; left -= len(chunk) {
			os.Stdout.Write(chunk[:min(left, len(chunk))])
		}
		os.Stdout.WriteString("\n")
	}
	for _, l := range []string{"Starting server...", `{"level":"info","msg":"booting"}`, "[INFO] listening on stdio", "", "token=noisy-s3cret-value"} {
		out.line(l)
	}
	n, _ := strconv.Atoi(os.Getenv(noiseLinesEnv))
	for i := 1; i <= n; i++ {
		out.line(fmt.Sprintf("boot step %d", i))
	}
	s := helperServer()
	sdk.AddTool(s, &sdk.Tool{Name: "chatter", Description: "prints a log line on stdout while it runs"},
		func(ctx context.Context, req *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
			out.line("chatter: working on it")
			if token := req.Params.GetProgressToken(); token != nil {
				req.Session.NotifyProgress(ctx, &sdk.ProgressNotificationParams{ProgressToken: token, Message: "half way", Progress: 1, Total: 2})
			}
			out.line("chatter: almost done")
			return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "chatted"}}}, nil, nil
		})
	if err := s.Run(context.Background(), &sdk.IOTransport{Reader: os.Stdin, Writer: out}); err != nil {
		fmt.Fprintln(os.Stderr, "noisy server:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// noisyStdout writes the server's messages to stdout, each followed by a
// log line, and interleaves the tool's lines between whole messages.
type noisyStdout struct{ mu sync.Mutex }

func (w *noisyStdout) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := os.Stdout.Write(p)
	if err == nil {
		_, err = os.Stdout.WriteString("debug: sent one message\n")
	}
	return n, err
}

func (w *noisyStdout) line(s string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	os.Stdout.WriteString(s + "\n")
}

func (w *noisyStdout) Close() error { return nil }
