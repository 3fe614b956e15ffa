package mcp

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/iotest"
)

// The SSE observer counts progress notifications however the body is split
// into reads, and passes the bytes through unchanged.
func TestSSEObserver(t *testing.T) {
	body := "id: 1\r\nevent: message\r\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"ns-1\",\"progress\":1}}\r\n\r\n" +
		"data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"ns-2\",\"progress\":1}}\n\n" +
		"data: {\"method\": \"notifications/progress\", \"params\": {\"progressToken\": \"ns-1\"}}\n\n" +
		"data: {\"method\":\"notifications/message\",\"params\":{\"data\":\"notifications/progress\"}}\n\n" +
		"data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"
	for _, split := range []bool{false, true} {
		counts := map[string]int{}
		var r io.Reader = strings.NewReader(body)
		if split {
			r = iotest.OneByteReader(r)
		}
		resp := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(r)}
		observeSSE(resp, func(tok string) { counts[tok]++ })
		got, err := io.ReadAll(resp.Body)
		if err != nil || string(got) != body {
			t.Fatalf("body changed or failed: %v", err)
		}
		if counts["ns-1"] != 2 || counts["ns-2"] != 1 || len(counts) != 2 {
			t.Errorf("split %v: counts = %v, want ns-1:2 ns-2:1", split, counts)
		}
	}
}

func TestSSEObserverLongLine(t *testing.T) {
	body := "data: " + strings.Repeat("x", maxSSELine+10) + "\n\n" +
		"data: {\"method\":\"notifications/progress\",\"params\":{\"progressToken\":\"a\"}}\n\n"
	n := 0
	resp := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream; charset=utf-8"}}, Body: io.NopCloser(strings.NewReader(body))}
	observeSSE(resp, func(string) { n++ })
	io.Copy(io.Discard, resp.Body)
	if n != 1 {
		t.Errorf("counted %d notifications after an over-long line, want 1", n)
	}
}
