package model_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

const testKey = "sk-test-0123456789abcdef"

// hangGuard bounds a wait that only catches a hang (a Stream that ignores
// its cancelled context). It is far longer than a cancelled Stream takes
// on a loaded machine and shorter than the slow scripted replies take in
// full, so it measures no speed.
const hangGuard = 30 * time.Second

// kinds runs f once per provider against a scripted server of that kind.
func kinds(t *testing.T, f func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider))) {
	for _, kind := range []string{"openai", "anthropic"} {
		t.Run(kind, func(t *testing.T) {
			f(t, func(replies ...modeltest.Reply) (*modeltest.Server, model.Provider) {
				var srv *modeltest.Server
				if kind == "openai" {
					srv = modeltest.NewOpenAI(t, replies...)
				} else {
					srv = modeltest.NewAnthropic(t, replies...)
				}
				return srv, newProvider(t, kind, srv.URL)
			})
		})
	}
}

func newProvider(t *testing.T, kind, baseURL string) model.Provider {
	t.Helper()
	p, err := model.New(model.Config{Provider: kind, BaseURL: baseURL, Model: "test-model", APIKey: testKey})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func userRequest(text string) model.Request {
	return model.Request{System: "be brief", Messages: []model.Message{{Role: model.User, Text: text}}}
}

func TestStreamTextDeltas(t *testing.T) {
	const text = "Hello, wörld ☃ — the deltas must arrive in order and whole."
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		srv, p := start(modeltest.Reply{Text: text, Chunk: 4})
		var deltas []string
		resp, err := p.Stream(context.Background(), userRequest("hi"), func(d string) { deltas = append(deltas, d) })
		if err != nil {
			t.Fatal(err)
		}
		if resp.Text != text {
			t.Errorf("Text = %q, want %q", resp.Text, text)
		}
		if got := strings.Join(deltas, ""); got != text {
			t.Errorf("joined deltas = %q, want %q", got, text)
		}
		if len(deltas) < len(text)/8 {
			t.Errorf("got %d deltas, want the text streamed in pieces of about 4 bytes", len(deltas))
		}
		if len(resp.ToolCalls) != 0 {
			t.Errorf("ToolCalls = %v, want none", resp.ToolCalls)
		}
		if want := map[string]string{"openai": "stop", "anthropic": "end_turn"}[p.Name()]; resp.StopReason != want {
			t.Errorf("StopReason = %q, want %q", resp.StopReason, want)
		}
		if resp.InputTokens <= 0 || resp.OutputTokens <= 0 {
			t.Errorf("usage = %d/%d, want both reported", resp.InputTokens, resp.OutputTokens)
		}
		reqs := srv.Requests()
		if len(reqs) != 1 {
			t.Fatalf("server saw %d requests, want exactly 1 (no retries)", len(reqs))
		}
		r := reqs[0]
		if !r.Stream || r.Model != "test-model" || r.System != "be brief" || r.APIKey != testKey {
			t.Errorf("recorded stream=%v model=%q system=%q key=%q", r.Stream, r.Model, r.System, r.APIKey)
		}
		if len(r.Messages) != 1 || r.Messages[0].Role != "user" || r.Messages[0].Text != "hi" {
			t.Errorf("recorded messages = %+v, want one user message \"hi\"", r.Messages)
		}
	})
}

func TestStreamToolCallsSplit(t *testing.T) {
	calls := []model.ToolCall{
		{ID: "call_a", Name: "files__read", Arguments: `{"path":"/tmp/a b.txt","n":42,"nested":{"x":[1,2,3],"s":"é☃"}}`},
		{ID: "call_b", Name: "device__battery_status_get", Arguments: `{}`},
	}
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		_, p := start(modeltest.Reply{Text: "Let me check.", ToolCalls: calls, Chunk: 2})
		req := userRequest("read it")
		req.Tools = []model.ToolSpec{
			{Name: "files__read", Description: "Read a file", InputSchema: []byte(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`)},
			{Name: "device__battery_status_get", Description: "Battery"},
		}
		resp, err := p.Stream(context.Background(), req, nil)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(calls, resp.ToolCalls); diff != "" {
			t.Errorf("ToolCalls mismatch (-want +got):\n%s", diff)
		}
		if resp.Text != "Let me check." {
			t.Errorf("Text = %q", resp.Text)
		}
		if want := map[string]string{"openai": "tool_calls", "anthropic": "tool_use"}[p.Name()]; resp.StopReason != want {
			t.Errorf("StopReason = %q, want %q", resp.StopReason, want)
		}
	})
}

func TestToolResultsRoundTrip(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake-image-bytes")
	history := []model.Message{
		{Role: model.User, Text: "check the battery and the file"},
		{Role: model.Assistant, Text: "Checking.", ToolCalls: []model.ToolCall{
			{ID: "call_1", Name: "device__battery_status_get", Arguments: `{}`},
			{ID: "call_2", Name: "files__read", Arguments: `{"path":"/x"}`},
		}},
		{Role: model.ToolRole, ToolCallID: "call_1", ToolName: "device__battery_status_get", Text: `{"percent":80}`},
		{Role: model.ToolRole, ToolCallID: "call_2", ToolName: "files__read", Text: "permission denied", IsError: true,
			Images: []model.Image{{MIMEType: "image/png", Data: png}}},
	}
	req := model.Request{System: "sys", Messages: history, MaxTokens: 123, Tools: []model.ToolSpec{
		{Name: "device__battery_status_get", Description: "Battery"},
		{Name: "files__read", Description: "Read", InputSchema: []byte(`{"type":"object","properties":{"path":{"type":"string"}},"additionalProperties":false}`)},
	}}
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		srv, p := start(modeltest.Reply{Text: "done"})
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		r := srv.Requests()[0]
		if diff := cmp.Diff([]string{"device__battery_status_get", "files__read"}, r.ToolNames()); diff != "" {
			t.Errorf("tool names (-want +got):\n%s", diff)
		}
		if !strings.Contains(string(r.Tools[1].Schema), `"additionalProperties":false`) {
			t.Errorf("files__read schema = %s, want additionalProperties kept", r.Tools[1].Schema)
		}
		if r.MaxTokens != 123 {
			t.Errorf("max tokens = %d, want 123", r.MaxTokens)
		}
		if r.System != "sys" {
			t.Errorf("system = %q", r.System)
		}
		asst := r.Messages[1]
		if asst.Role != "assistant" || asst.Text != "Checking." {
			t.Errorf("assistant message = %+v", asst)
		}
		if diff := cmp.Diff(history[1].ToolCalls, asst.ToolCalls); diff != "" {
			t.Errorf("assistant tool calls (-want +got):\n%s", diff)
		}
		results := r.ToolResults()
		if len(results) != 2 || results[0].ToolCallID != "call_1" || results[1].ToolCallID != "call_2" {
			t.Fatalf("tool results = %+v, want call_1 then call_2", results)
		}
		if results[0].Text != `{"percent":80}` || results[0].IsError {
			t.Errorf("first result = %+v", results[0])
		}
		images := results[1].Images
		switch p.Name() {
		case "openai":
			// No error flag in Chat Completions: the text says it.
			if results[1].Text != "error: permission denied" {
				t.Errorf("error result text = %q, want the error: prefix", results[1].Text)
			}
			// Tool messages cannot carry images: they follow in a user message.
			if len(r.Messages) != 5 || r.Messages[2].Role != "tool" || r.Messages[3].Role != "tool" || r.Messages[4].Role != "user" {
				t.Fatalf("roles = %v, want user assistant tool tool user", roles(r))
			}
			if !strings.Contains(r.Messages[4].Text, "call_2") {
				t.Errorf("image message text = %q, want it to name the call", r.Messages[4].Text)
			}
			images = r.Messages[4].Images
		case "anthropic":
			if !results[1].IsError || results[1].Text != "permission denied" {
				t.Errorf("error result = %+v, want is_error and the text", results[1])
			}
			// Both results merged into one user message.
			if len(r.Messages) != 3 || r.Messages[2].Role != "user" || len(r.Messages[2].ToolResults) != 2 {
				t.Fatalf("messages = %v, want user assistant user(2 tool_results)", roles(r))
			}
		}
		if len(images) != 1 || images[0].MIMEType != "image/png" || string(images[0].Data) != string(png) {
			t.Errorf("images = %+v, want the PNG", images)
		}
	})
}

func roles(r modeltest.RecordedRequest) []string {
	var out []string
	for _, m := range r.Messages {
		out = append(out, m.Role)
	}
	return out
}

func TestMalformedArguments(t *testing.T) {
	bad := `{"path": "/tmp/x", "n": `
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		srv, p := start(
			modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "files__read", Arguments: bad}}},
			modeltest.Reply{Text: "ok"},
		)
		resp, err := p.Stream(context.Background(), userRequest("go"), nil)
		if err != nil {
			t.Fatal(err)
		}
		want := []model.ToolCall{{ID: "c1", Name: "files__read", Arguments: bad}}
		if diff := cmp.Diff(want, resp.ToolCalls); diff != "" {
			t.Fatalf("ToolCalls (-want +got):\n%s", diff)
		}
		// Sending the malformed call back in the history must work too.
		req := userRequest("go")
		req.Messages = append(req.Messages,
			model.Message{Role: model.Assistant, ToolCalls: resp.ToolCalls},
			model.Message{Role: model.ToolRole, ToolCallID: "c1", ToolName: "files__read", Text: "arguments are not valid JSON", IsError: true})
		if _, err := p.Stream(context.Background(), req, nil); err != nil {
			t.Fatal(err)
		}
		sent := srv.Requests()[1].Messages[1].ToolCalls[0].Arguments
		want1 := map[string]string{"openai": bad, "anthropic": "{}"}[p.Name()]
		if sent != want1 {
			t.Errorf("arguments sent back = %q, want %q", sent, want1)
		}
	})
}

func TestUnreachableBaseURL(t *testing.T) {
	for _, tt := range []struct{ kind, url string }{
		{"openai", "http://127.0.0.1:1/v1"},
		{"anthropic", "http://127.0.0.1:1"},
	} {
		// Count the attempts instead of timing them: the SDKs retry a
		// refused connection with backoff unless retries are off.
		rt := &countingTransport{base: http.DefaultTransport}
		p, err := model.New(model.Config{Provider: tt.kind, BaseURL: tt.url, Model: "test-model", APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = p.Stream(context.Background(), userRequest("hi"), nil)
		if err == nil {
			t.Fatalf("%s: Stream to a closed port succeeded", tt.kind)
		}
		msg := err.Error()
		t.Logf("error: %s", msg)
		want := "model request to " + tt.url + " (" + tt.kind + " model test-model) failed:"
		if !strings.HasPrefix(msg, want) || !strings.Contains(strings.ToLower(msg), "refused") { // Windows: "… actively refused it."
			t.Errorf("%s: error = %q, want prefix %q and \"connection refused\"", tt.kind, msg, want)
		}
		if strings.Contains(msg, testKey) {
			t.Errorf("%s: error %q contains the API key", tt.kind, msg)
		}
		var re *model.RequestError
		if !errors.As(err, &re) || re.StatusCode != 0 {
			t.Errorf("%s: error is not a RequestError without status: %#v", tt.kind, err)
		}
		if n := rt.n.Load(); n != 1 {
			t.Errorf("%s: %d attempts; a single attempt (no retries) was expected", tt.kind, n)
		}
	}
}

// countingTransport counts the requests it carries.
type countingTransport struct {
	base http.RoundTripper
	n    atomic.Int32
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return c.base.RoundTrip(r)
}

func TestHTTPErrors(t *testing.T) {
	for _, status := range []int{401, 500} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
				// Like OpenAI's 401, the server echoes the key; it must not reach the error.
				srv, p := start(modeltest.Reply{Err: status, ErrMessage: "Incorrect API key provided: " + testKey + "."})
				_, err := p.Stream(context.Background(), userRequest("hi"), nil)
				if err == nil {
					t.Fatal("Stream succeeded on an HTTP error")
				}
				msg := err.Error()
				t.Logf("error: %s", msg)
				if strings.Contains(msg, testKey) {
					t.Errorf("error %q contains the API key", msg)
				}
				for _, want := range []string{fmt.Sprintf("HTTP %d", status), "Incorrect API key provided: [redacted].", srv.URL, "test-model"} {
					if !strings.Contains(msg, want) {
						t.Errorf("error %q does not mention %q", msg, want)
					}
				}
				var re *model.RequestError
				if !errors.As(err, &re) || re.StatusCode != status {
					t.Errorf("error status = %+v, want a RequestError with %d", re, status)
				}
				if n := len(srv.Requests()); n != 1 {
					t.Errorf("server saw %d requests, want 1 (no retries)", n)
				}
			})
		})
	}
}

// Cancelling mid-stream ends Stream: the reply would take 200 s (1000
// chunks 200 ms apart), so a Stream that returns within hangGuard did not
// wait for it.
func TestCancelMidStream(t *testing.T) {
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		_, p := start(modeltest.Reply{Text: strings.Repeat("slow text ", 300), Delay: 200 * time.Millisecond})
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		var deltas int
		done := make(chan error, 1)
		go func() {
			_, err := p.Stream(ctx, userRequest("hi"), func(string) {
				deltas++
				if deltas == 2 {
					cancel()
				}
			})
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("Stream after cancel = %v, want context.Canceled", err)
			}
		case <-time.After(hangGuard):
			t.Fatalf("Stream did not return within %v of its start; cancel was not honoured", hangGuard)
		}
	})
}

func TestScriptExhausted(t *testing.T) {
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		srv, p := start()
		_, err := p.Stream(context.Background(), userRequest("hi"), nil)
		if err == nil || !strings.Contains(err.Error(), "no scripted reply left for request 0 (0 replies were scripted)") {
			t.Fatalf("Stream = %v, want the exhausted-script error", err)
		}
		if r := srv.Requests(); len(r) != 1 || r[0].Reply != -1 {
			t.Errorf("recorded %+v, want one request with Reply -1", r)
		}
	})
}

func TestInvalidToolNameRejectedBeforeRequest(t *testing.T) {
	kinds(t, func(t *testing.T, start func(...modeltest.Reply) (*modeltest.Server, model.Provider)) {
		srv, p := start(modeltest.Reply{Text: "unused"})
		req := userRequest("hi")
		req.Tools = []model.ToolSpec{{Name: "device.battery"}}
		_, err := p.Stream(context.Background(), req, nil)
		if err == nil || !strings.Contains(err.Error(), `"device.battery"`) {
			t.Fatalf("Stream = %v, want an error naming the alias", err)
		}
		if n := len(srv.Requests()); n != 0 {
			t.Errorf("server saw %d requests, want 0", n)
		}
	})
}
