// Package modeltest serves scripted language models on 127.0.0.1 for tests:
// an OpenAI-compatible Chat Completions endpoint and an Anthropic Messages
// endpoint, both streaming (SSE) like the real services, and both recording
// every request so a test can assert what the model was shown.
//
//	srv := modeltest.NewOpenAI(t,
//		modeltest.Reply{ToolCalls: []model.ToolCall{{Name: "device__battery_status_get", Arguments: `{}`}}},
//		modeltest.Reply{Text: "The battery is at 80%."},
//	)
//	p, _ := model.New(model.Config{BaseURL: srv.URL, Model: "test"})
//	... run a turn against p ...
//	req := srv.Requests()[1]
//	res := req.ToolResults()[0] // what the model saw of the tool result
//
// Replies are served in order, one per request. When they run out the
// server answers HTTP 500 with an error whose message says
// "modeltest: no scripted reply left" and how many were scripted, so the
// provider's error names the cause; the request is still recorded.
//
// The program cmd/scriptmodel serves a script file the same way for tests
// that run the app or the CLI as a separate process.
package modeltest

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/model"
)

// Kind is the API a Handler speaks.
type Kind string

const (
	// OpenAI is Chat Completions: POST {base}/chat/completions with base
	// "http://127.0.0.1:PORT/v1"; GET {base}/models lists the models
	// (SetModels, FailModels).
	OpenAI Kind = "openai"
	// Anthropic is Messages: POST {base}/v1/messages with base
	// "http://127.0.0.1:PORT" (no /v1, as the Anthropic SDK expects);
	// GET {base}/v1/models lists the models.
	Anthropic Kind = "anthropic"
)

// Reply is one scripted model answer.
type Reply struct {
	// Text is streamed as text deltas.
	Text string
	// ToolCalls are streamed after the text, in order. An empty ID becomes
	// "call_R_I" (OpenAI) or "toolu_R_I" (Anthropic), R the request number
	// and I the call's position. Arguments are sent exactly as given, even
	// when they are not valid JSON (Anthropic streams them as input_json
	// deltas too).
	ToolCalls []model.ToolCall
	// Err, when non-zero, is the HTTP status to fail the request with
	// (for example 401 or 500); nothing is streamed.
	Err int
	// ErrMessage is the error message sent with Err (default
	// "modeltest: scripted HTTP <Err>").
	ErrMessage string
	// Delay is slept before every chunk after the first one (and before an
	// error or non-streamed answer), so a client sees the first delta at once
	// and then waits; a cancelled request or a closed server ends the wait.
	Delay time.Duration
	// Chunk splits text and arguments into pieces of this many bytes
	// (never inside a UTF-8 sequence); default 3.
	Chunk int
	// StopReason overrides the reported stop/finish reason. Defaults: OpenAI
	// "stop" or "tool_calls"; Anthropic "end_turn" or "tool_use".
	StopReason string
	// InputTokens and OutputTokens, when non-zero, are the usage reported
	// (OpenAI's prompt and completion tokens, Anthropic's input and output
	// tokens) instead of a count from the request's and reply's length.
	InputTokens, OutputTokens int64
}

func (r Reply) chunk() int {
	if r.Chunk <= 0 {
		return 3
	}
	return r.Chunk
}

// Handler is the http.Handler behind a Server, usable on its own (see
// cmd/scriptmodel). It is safe for concurrent use; replies are handed out
// in arrival order.
type Handler struct {
	kind Kind
	// Logf, when set, is called once per request with a one-line summary.
	Logf func(format string, args ...any)

	mu           sync.Mutex
	models       []string // SetModels; nil: DefaultModels
	modelsErr    int      // FailModels
	modelsErrMsg string
	replies      []Reply
	next         int
	reqs         []RecordedRequest
	done         chan struct{}
	closed       bool
}

// NewHandler returns a handler speaking kind that serves replies in order.
func NewHandler(kind Kind, replies ...Reply) *Handler {
	if kind != OpenAI && kind != Anthropic {
		panic(fmt.Sprintf("modeltest: unknown kind %q", kind))
	}
	return &Handler{kind: kind, replies: append([]Reply(nil), replies...), done: make(chan struct{})}
}

// DefaultModels is what GET /v1/models lists until SetModels is called.
var DefaultModels = []string{"modeltest"}

// SetModels sets the model IDs GET /v1/models lists (none: an empty list).
// The chat endpoints accept any model name whatever the list says.
func (h *Handler) SetModels(ids ...string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.models = append([]string{}, ids...)
}

// FailModels makes GET /v1/models answer HTTP status with msg in the
// API's error format (for example 401 "invalid api key"); status 0 serves
// the list again. Chat requests are not affected.
func (h *Handler) FailModels(status int, msg string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.modelsErr, h.modelsErrMsg = status, msg
	if msg == "" && status != 0 {
		h.modelsErrMsg = fmt.Sprintf("modeltest: scripted HTTP %d", status)
	}
}

// modelIDs is the list served; h.mu must be held.
func (h *Handler) modelIDs() []string {
	if h.models == nil {
		return DefaultModels
	}
	return h.models
}

// Kind reports the API the handler speaks.
func (h *Handler) Kind() Kind { return h.kind }

// BasePath is what to append to "http://HOST:PORT" to get the base URL a
// client is configured with: "/v1" for OpenAI, "" for Anthropic.
func (h *Handler) BasePath() string {
	if h.kind == OpenAI {
		return "/v1"
	}
	return ""
}

// Requests returns a copy of every model request received so far, in order.
func (h *Handler) Requests() []RecordedRequest {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]RecordedRequest(nil), h.reqs...)
}

// Remaining reports how many scripted replies have not been served.
func (h *Handler) Remaining() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.replies) - h.next
}

// Close ends every pending Delay so handlers return at once. Later
// requests still get answers, without delays.
func (h *Handler) Close() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.closed = true
		close(h.done)
	}
}

// take records req and returns the reply to serve and its number, or
// ok=false when the script is exhausted.
func (h *Handler) take(req RecordedRequest) (reply Reply, n int, ok bool, total int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n = len(h.reqs)
	total = len(h.replies)
	req.Reply = -1
	if h.next < len(h.replies) {
		reply, ok = h.replies[h.next], true
		req.Reply = h.next
		h.next++
	}
	h.reqs = append(h.reqs, req)
	return reply, n, ok, total
}

// sleep waits d unless ctx ends or the handler is closed; it reports
// whether the wait ran to the end.
func (h *Handler) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-h.done:
		return ctx.Err() == nil
	case <-ctx.Done():
		return false
	}
}

func (h *Handler) logf(format string, args ...any) {
	if h.Logf != nil {
		h.Logf(format, args...)
	}
}

// Server is a Handler listening on 127.0.0.1, closed by the test's cleanup.
type Server struct {
	*Handler
	// URL is the base URL to configure a client with (model.Config.BaseURL,
	// --base-url): "http://127.0.0.1:PORT/v1" for OpenAI,
	// "http://127.0.0.1:PORT" for Anthropic.
	URL string
	srv *httptest.Server
}

// NewOpenAI starts an OpenAI-compatible scripted model on 127.0.0.1.
func NewOpenAI(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	return start(t, NewHandler(OpenAI, replies...))
}

// NewAnthropic starts an Anthropic Messages scripted model on 127.0.0.1.
func NewAnthropic(t testing.TB, replies ...Reply) *Server {
	t.Helper()
	return start(t, NewHandler(Anthropic, replies...))
}

func start(t testing.TB, h *Handler) *Server {
	h.Logf = t.Logf
	srv := httptest.NewServer(h) // httptest listens on 127.0.0.1
	s := &Server{Handler: h, URL: srv.URL + h.BasePath(), srv: srv}
	t.Cleanup(s.Close)
	return s
}

// Close ends pending delays and shuts the server down. It is called by the
// test's cleanup; calling it earlier is allowed (later requests then fail
// to connect).
func (s *Server) Close() {
	s.Handler.Close()
	s.srv.Close()
}
