package model_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// rawSSE starts a server that writes the given SSE body for any request.
func rawSSE(t *testing.T, body string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

func chunk(delta string, finish string) string {
	f := "null"
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}` + "\n\n"
}

// Real servers differ: interleaved argument pieces of parallel calls, and
// servers that give every call index 0 with distinct ids.
func TestOpenAIToolCallIndexing(t *testing.T) {
	tests := []struct {
		name   string
		chunks []string
		want   []model.ToolCall
	}{
		{
			name: "interleaved by index",
			chunks: []string{
				chunk(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"t__one","arguments":""}}]}`, ""),
				chunk(`{"tool_calls":[{"index":1,"id":"b","type":"function","function":{"name":"t__two","arguments":"{\"y\""}}]}`, ""),
				chunk(`{"tool_calls":[{"index":0,"function":{"arguments":"{\"x\":"}}]}`, ""),
				chunk(`{"tool_calls":[{"index":1,"function":{"arguments":":2}"}},{"index":0,"function":{"arguments":"1}"}}]}`, ""),
				chunk(`{}`, "tool_calls"),
			},
			want: []model.ToolCall{{ID: "a", Name: "t__one", Arguments: `{"x":1}`}, {ID: "b", Name: "t__two", Arguments: `{"y":2}`}},
		},
		{
			name: "same index, distinct ids, whole calls",
			chunks: []string{
				chunk(`{"tool_calls":[{"index":0,"id":"a","type":"function","function":{"name":"t__one","arguments":"{\"x\":1}"}}]}`, ""),
				chunk(`{"tool_calls":[{"index":0,"id":"b","type":"function","function":{"name":"t__two","arguments":"{}"}}]}`, ""),
				chunk(`{}`, "tool_calls"),
			},
			want: []model.ToolCall{{ID: "a", Name: "t__one", Arguments: `{"x":1}`}, {ID: "b", Name: "t__two", Arguments: `{}`}},
		},
		{
			name: "no id, empty arguments, sparse index",
			chunks: []string{
				chunk(`{"tool_calls":[{"index":1000000000,"type":"function","function":{"name":"t__one"}}]}`, ""),
				chunk(`{}`, "tool_calls"),
			},
			want: []model.ToolCall{{ID: "call_0", Name: "t__one", Arguments: `{}`}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url := rawSSE(t, strings.Join(tt.chunks, "")+"data: [DONE]\n\n")
			resp, err := newProvider(t, "openai", url).Stream(context.Background(), userRequest("x"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, resp.ToolCalls); diff != "" {
				t.Errorf("ToolCalls (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTruncatedStream(t *testing.T) {
	openai := rawSSE(t, chunk(`{"content":"partial"}`, ""))
	anthropic := rawSSE(t, "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"m\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"m\",\"usage\":{\"input_tokens\":1,\"output_tokens\":1}}}\n\n"+
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n"+
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"partial\"}}\n\n")
	for kind, url := range map[string]string{"openai": openai, "anthropic": anthropic} {
		var got string
		_, err := newProvider(t, kind, url).Stream(context.Background(), userRequest("x"), func(d string) { got += d })
		if err == nil || !strings.Contains(err.Error(), "stream ended before") {
			t.Errorf("%s: truncated stream = %v, want an error saying it ended early", kind, err)
		}
		if got != "partial" {
			t.Errorf("%s: deltas before the break = %q, want \"partial\"", kind, got)
		}
	}
}

func TestStreamErrorEvent(t *testing.T) {
	openai := rawSSE(t, chunk(`{"content":"a"}`, "")+`data: {"error":{"message":"model overloaded"}}`+"\n\n")
	anthropic := rawSSE(t, "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"model overloaded\"}}\n\n")
	for kind, url := range map[string]string{"openai": openai, "anthropic": anthropic} {
		_, err := newProvider(t, kind, url).Stream(context.Background(), userRequest("x"), nil)
		if err == nil || !strings.Contains(err.Error(), "model overloaded") || !strings.Contains(err.Error(), url) {
			t.Errorf("%s: error event = %v, want an error with the server message and base URL", kind, err)
		}
	}
}

// TestToolCallFlood: 10,000 tool calls in one reply are all returned (the
// harness refuses those over its budget); memory stays proportional.
func TestToolCallFlood(t *testing.T) {
	const n = 10000
	calls := make([]model.ToolCall, n)
	for i := range calls {
		calls[i] = model.ToolCall{Name: "device__battery_status_get", Arguments: fmt.Sprintf(`{"i":%d}`, i)}
	}
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		_, p := start(modeltest.Reply{ToolCalls: calls, Chunk: 64})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		began := time.Now()
		resp, err := p.Stream(context.Background(), userRequest("flood"), nil)
		elapsed := time.Since(began)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.ToolCalls) != n {
			t.Fatalf("got %d tool calls, want %d", len(resp.ToolCalls), n)
		}
		seen := make(map[string]bool, n)
		for i, c := range resp.ToolCalls {
			if want := fmt.Sprintf(`{"i":%d}`, i); c.Arguments != want || seen[c.ID] {
				t.Fatalf("call %d = %+v, want arguments %s and a unique id", i, c, want)
			}
			seen[c.ID] = true
		}
		// TotalAlloc counts garbage too (SDK chunk decoding and the test's
		// own server); what the response keeps alive must stay small.
		total := after.TotalAlloc - before.TotalAlloc
		runtime.GC()
		var kept runtime.MemStats
		runtime.ReadMemStats(&kept)
		retained := int64(kept.HeapAlloc) - int64(before.HeapAlloc)
		runtime.KeepAlive(resp)
		t.Logf("%d tool calls in %v: %.1f MB allocated in total (client and server), %.2f MB retained",
			n, elapsed, float64(total)/(1<<20), float64(retained)/(1<<20))
		if total > 1<<30 {
			t.Errorf("allocated %d bytes for %d small tool calls, want well under 1 GB", total, n)
		}
		if retained > 16<<20 {
			t.Errorf("retained %d bytes for %d small tool calls, want under 16 MB", retained, n)
		}
	})
}

func TestResponseLimits(t *testing.T) {
	t.Run("too many tool calls", func(t *testing.T) {
		var b strings.Builder
		for i := 0; i <= model.MaxToolCalls; i++ {
			b.WriteString(chunk(fmt.Sprintf(`{"tool_calls":[{"index":%d,"id":"c%d","function":{"name":"t","arguments":"{}"}}]}`, i, i), ""))
		}
		b.WriteString(chunk(`{}`, "tool_calls"))
		_, err := newProvider(t, "openai", rawSSE(t, b.String())).Stream(context.Background(), userRequest("x"), nil)
		if !errors.Is(err, model.ErrResponseTooLarge) || !strings.Contains(err.Error(), fmt.Sprintf("more than %d tool calls", model.MaxToolCalls)) {
			t.Errorf("Stream = %v, want ErrResponseTooLarge naming the limit", err)
		}
	})
	t.Run("too much text", func(t *testing.T) {
		piece := strings.Repeat("x", 1<<20)
		var b strings.Builder
		for i := 0; i <= model.MaxResponseBytes>>20; i++ {
			b.WriteString(chunk(`{"content":"`+piece+`"}`, ""))
		}
		_, err := newProvider(t, "openai", rawSSE(t, b.String())).Stream(context.Background(), userRequest("x"), nil)
		if !errors.Is(err, model.ErrResponseTooLarge) {
			t.Errorf("Stream = %v, want ErrResponseTooLarge", err)
		}
	})
}

// Tool results without text and user images map onto the APIs' shapes.
func TestUserImagesAndEmptyMessages(t *testing.T) {
	req := model.Request{Messages: []model.Message{
		{Role: model.User, Text: "what is this?", Images: []model.Image{{MIMEType: "image/jpeg", Data: []byte("jpegdata")}}},
	}}
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		srv, p := start(modeltest.Reply{Text: "a cat"})
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		m := srv.Requests()[0].Messages[0]
		if m.Text != "what is this?" || len(m.Images) != 1 || m.Images[0].MIMEType != "image/jpeg" || string(m.Images[0].Data) != "jpegdata" {
			t.Errorf("user message = %+v, want text and the JPEG", m)
		}
	})
}

func TestAnthropicDefaults(t *testing.T) {
	srv := modeltest.NewAnthropic(t, modeltest.Reply{Text: "hi"})
	p := newProvider(t, "anthropic", srv.URL)
	req := model.Request{Messages: []model.Message{
		{Role: model.User, Text: "a"},
		{Role: model.Assistant, Text: ""}, // dropped: the API rejects empty content
		{Role: model.User, Text: "b"},     // merged with "a"
	}}
	if _, err := p.Stream(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	r := srv.Requests()[0]
	if r.MaxTokens != model.DefaultAnthropicMaxTokens {
		t.Errorf("max_tokens = %d, want %d", r.MaxTokens, model.DefaultAnthropicMaxTokens)
	}
	if len(r.Messages) != 1 || r.Messages[0].Text != "a\nb" {
		t.Errorf("messages = %+v, want one user message with both texts", r.Messages)
	}
	if r.System != "" {
		t.Errorf("system = %q, want none", r.System)
	}
}

func TestUnknownRole(t *testing.T) {
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		_, p := start()
		_, err := p.Stream(context.Background(), model.Request{Messages: []model.Message{{Role: "system", Text: "x"}}}, nil)
		if err == nil || !strings.Contains(err.Error(), `message 0 has unknown role "system"`) {
			t.Errorf("Stream = %v, want an unknown-role error", err)
		}
	})
}

// Local servers (LM Studio, llama.cpp) need no key: an empty one must work.
func TestEmptyAPIKey(t *testing.T) {
	for _, kind := range []string{"openai", "anthropic"} {
		var srv *modeltest.Server
		if kind == "openai" {
			srv = modeltest.NewOpenAI(t, modeltest.Reply{Text: "ok"})
		} else {
			srv = modeltest.NewAnthropic(t, modeltest.Reply{Text: "ok"})
		}
		p, err := model.New(model.Config{Provider: kind, BaseURL: srv.URL, Model: "m"})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := p.Stream(context.Background(), userRequest("hi"), nil)
		if err != nil || resp.Text != "ok" {
			t.Errorf("%s without a key: %+v, %v", kind, resp, err)
			continue
		}
		if key := srv.Requests()[0].APIKey; strings.TrimSpace(key) != "" {
			t.Errorf("%s without a key sent key %q", kind, key)
		}
	}
}
