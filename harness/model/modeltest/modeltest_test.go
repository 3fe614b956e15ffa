package modeltest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/openworker/desktop/harness/model"
)

func TestParseScript(t *testing.T) {
	script := `{"replies": [
		{"text": "hi", "delay": "250ms", "chunk": 5, "input_tokens": 1200, "output_tokens": 300},
		{"tool_calls": [
			{"name": "a__b", "arguments": {"x": [1, 2]}},
			{"id": "c2", "name": "a__c", "arguments": "{\"broken\":"}
		], "stop_reason": "tool_calls"},
		{"err": 503, "err_message": "busy", "delay": 20}
	]}`
	got, err := ParseScript([]byte(script))
	if err != nil {
		t.Fatal(err)
	}
	want := []Reply{
		{Text: "hi", Delay: 250 * time.Millisecond, Chunk: 5, InputTokens: 1200, OutputTokens: 300},
		{ToolCalls: []model.ToolCall{{Name: "a__b", Arguments: `{"x": [1, 2]}`}, {ID: "c2", Name: "a__c", Arguments: `{"broken":`}}, StopReason: "tool_calls"},
		{Err: 503, ErrMessage: "busy", Delay: 20 * time.Millisecond},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ParseScript (-want +got):\n%s", diff)
	}
	arr, err := ParseScript([]byte(`[{"text":"a"},{"text":"b"}]`))
	if err != nil || len(arr) != 2 || arr[1].Text != "b" {
		t.Errorf("ParseScript(array) = %+v, %v", arr, err)
	}
}

func TestParseScriptErrors(t *testing.T) {
	tests := []struct{ script, want string }{
		{`[{"text":"a"},{"txt":"b"}]`, `replies[1]: json: unknown field "txt"`},
		{`[{"err":200}]`, "replies[0]: err 200 is not an HTTP error status"},
		{`[{"delay":"soon"}]`, `replies[0]: delay: time: invalid duration "soon"`},
		{`[{"tool_calls":[{"arguments":{}}]}]`, "replies[0]: tool_calls[0]: no name"},
		{`{"reply":[]}`, `unknown field "reply"`},
		{`nope`, "want an array of replies"},
		{`[{"input_tokens":-1}]`, "replies[0]: input_tokens -1, output_tokens 0: a count is never negative"},
	}
	for _, tt := range tests {
		_, err := ParseScript([]byte(tt.script))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseScript(%s) = %v, want an error containing %q", tt.script, err, tt.want)
		}
	}
	path := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(path, []byte(`[{"err":1}]`), 0o600)
	if _, err := LoadScript(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("LoadScript(bad) = %v, want an error naming the file", err)
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want []string
	}{
		{"", 3, nil},
		{"abcdefg", 3, []string{"abc", "def", "g"}},
		{"a☃b", 1, []string{"a", "☃", "b"}},
		{"☃☃", 2, []string{"☃", "☃"}},
		{"ab", 10, []string{"ab"}},
	}
	for _, tt := range tests {
		if got := split(tt.s, tt.n); !cmp.Equal(got, tt.want) {
			t.Errorf("split(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// client is the tests' HTTP client: its requests to the test's own server
// are bounded by hangGuard, not by the test binary's timeout.
var client = &http.Client{Timeout: hangGuard}

func post(t *testing.T, url, body string) (int, map[string]any) {
	t.Helper()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out map[string]any
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatalf("POST %s: body %q is not JSON: %v", url, b, err)
	}
	return resp.StatusCode, out
}

func TestNonStreamed(t *testing.T) {
	reply := Reply{Text: "hello", ToolCalls: []model.ToolCall{{Name: "a__b", Arguments: `{"k":1}`}}}
	o := NewOpenAI(t, reply)
	status, body := post(t, o.URL+"/chat/completions", `{"model":"m","messages":[{"role":"user","content":"hi"}]}`)
	msg := body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)
	call := msg["tool_calls"].([]any)[0].(map[string]any)
	if status != 200 || msg["content"] != "hello" || call["id"] != "call_0_0" || call["function"].(map[string]any)["arguments"] != `{"k":1}` {
		t.Errorf("openai non-stream = %d %v", status, body)
	}
	a := NewAnthropic(t, reply)
	status, body = post(t, a.URL+"/v1/messages", `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi"}]}`)
	content := body["content"].([]any)
	if status != 200 || body["stop_reason"] != "tool_use" || len(content) != 2 ||
		content[1].(map[string]any)["input"].(map[string]any)["k"] != 1.0 {
		t.Errorf("anthropic non-stream = %d %v", status, body)
	}
	if r := a.Requests()[0]; r.Stream || r.MaxTokens != 5 || r.Messages[0].Text != "hi" {
		t.Errorf("recorded %+v", r)
	}
}

func TestRoutesAndBadBodies(t *testing.T) {
	o := NewOpenAI(t, Reply{Text: "unused"})
	status, body := post(t, o.URL+"/messages", `{}`)
	if status != 404 || !strings.Contains(fmt.Sprint(body), "has no route POST /v1/messages") {
		t.Errorf("wrong route = %d %v", status, body)
	}
	status, body = post(t, o.URL+"/chat/completions", `{"messages":[{"role":"user","content":17}]}`)
	if status != 400 || !strings.Contains(fmt.Sprint(body), "messages[0]: content is neither") {
		t.Errorf("bad content = %d %v", status, body)
	}
	if r := o.Requests(); len(r) != 1 || r[0].ParseError == "" || r[0].Reply != -1 {
		t.Errorf("recorded %+v, want one request with a parse error", r)
	}
	if o.Remaining() != 1 {
		t.Errorf("Remaining() = %d, want 1: a rejected request does not use a reply", o.Remaining())
	}
	resp, err := client.Get(o.URL + "/models")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("GET /v1/models = %v, %v", resp, err)
	}
}

func TestConcurrentRequestsGetDistinctReplies(t *testing.T) {
	const n = 8
	replies := make([]Reply, n)
	for i := range replies {
		replies[i] = Reply{Text: fmt.Sprint(i)}
	}
	s := NewOpenAI(t, replies...)
	var wg sync.WaitGroup
	got := make(chan string, n)
	for range n {
		wg.Go(func() {
			_, body := post(t, s.URL+"/chat/completions", `{"messages":[]}`)
			got <- body["choices"].([]any)[0].(map[string]any)["message"].(map[string]any)["content"].(string)
		})
	}
	wg.Wait()
	close(got)
	seen := map[string]bool{}
	for g := range got {
		seen[g] = true
	}
	if len(seen) != n || s.Remaining() != 0 || len(s.Requests()) != n {
		t.Errorf("served %v, remaining %d, recorded %d; want %d distinct replies", seen, s.Remaining(), len(s.Requests()), n)
	}
}

// hangGuard bounds a wait that only catches a hang. It is far longer than
// anything here takes on a loaded machine and far shorter than the
// one-hour delays it guards, so it measures no speed.
const hangGuard = 30 * time.Second

// Server.Close returns, and the pending request ends, with a one-hour
// delay outstanding (httptest's Close waits for every request in flight).
func TestCloseEndsDelays(t *testing.T) {
	s := NewOpenAI(t, Reply{Text: "x", Delay: time.Hour})
	// Cancelled when the test ends, so a failing test does not wait out
	// the hour in its cleanup.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() {
		defer close(done)
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL+"/chat/completions", strings.NewReader(`{"messages":[]}`))
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
	}()
	for deadline := time.Now().Add(hangGuard); len(s.Requests()) == 0; {
		if time.Now().After(deadline) {
			t.Fatalf("the request did not reach the server within %v", hangGuard)
		}
		time.Sleep(5 * time.Millisecond)
	}
	closed := make(chan struct{})
	go func() { s.Close(); <-done; close(closed) }()
	select {
	case <-closed:
	case <-time.After(hangGuard):
		t.Fatalf("Close and the pending request did not return within %v of a one-hour delay", hangGuard)
	}
}

// Handler.Close ends a pending delay at once, and the rest of the reply is
// sent without delays. On synctest's clock "at once" is exact: no time
// passes between Close and the end of the reply.
func TestHandlerCloseEndsDelaysAtOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := NewHandler(OpenAI, Reply{Text: "abcdef", Delay: time.Hour})
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/v1/chat/completions", strings.NewReader(`{"messages":[],"stream":true}`)))
		}()
		synctest.Wait() // the handler waits in its first delay
		start := time.Now()
		h.Close()
		<-done
		if took := time.Since(start); took != 0 {
			t.Errorf("the reply ended %v after Close, want at once", took)
		}
		if body := rec.Body.String(); !strings.Contains(body, `"abc"`) || !strings.Contains(body, `"def"`) || !strings.Contains(body, "[DONE]") {
			t.Errorf("body = %q, want the whole reply", body)
		}
	})
}
