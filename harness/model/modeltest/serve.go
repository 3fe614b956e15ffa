package modeltest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
	"unicode/utf8"
)

// maxBody bounds a request body read by the handler.
const maxBody = 64 << 20

// ServeHTTP answers model requests with the next scripted reply (see the
// package doc); other paths get 404 with a JSON error naming the route.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.route(w, r) {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		h.writeError(w, http.StatusBadRequest, "modeltest: reading request body: "+err.Error())
		return
	}
	rec, wire, perr := parseRequest(h.kind, r, body)
	if perr != nil {
		h.reject(w, rec, perr)
		return
	}
	reply, n, ok, total := h.take(rec)
	h.logf("modeltest: %s request %d: model=%q stream=%v messages=%d tools=%d -> %s",
		h.kind, n, rec.Model, rec.Stream, len(rec.Messages), len(rec.Tools), summary(reply, ok))
	if !ok {
		h.writeError(w, http.StatusInternalServerError,
			fmt.Sprintf("modeltest: no scripted reply left for request %d (%d replies were scripted)", n, total))
		return
	}
	a := answer{Reply: reply, n: n, model: rec.Model, inTokens: int64(len(body)/4 + 1)}
	if reply.InputTokens != 0 {
		a.inTokens = reply.InputTokens
	}
	h.write(w, r.Context(), a, rec.Stream, wire.StreamOptions.IncludeUsage)
}

// route answers the models list and unknown routes (404) itself, and
// reports whether r is a model request of the handler's API for
// ServeHTTP to answer.
func (h *Handler) route(w http.ResponseWriter, r *http.Request) bool {
	p := r.URL.Path
	switch {
	case r.Method == http.MethodGet && (p == "/v1/models" || h.kind == OpenAI && p == "/models"):
		h.serveModels(w)
		return false
	case h.kind == OpenAI && r.Method == http.MethodPost && (p == "/v1/chat/completions" || p == "/chat/completions"):
		return true
	case h.kind == Anthropic && r.Method == http.MethodPost && p == "/v1/messages":
		return true
	}
	msg := fmt.Sprintf("modeltest: %s server has no route %s %s (OpenAI: POST /v1/chat/completions, GET /v1/models; Anthropic: POST /v1/messages, GET /v1/models)", h.kind, r.Method, p)
	h.logf("%s", msg)
	h.writeError(w, http.StatusNotFound, msg)
	return false
}

// reject records a request whose body did not parse (Reply -1, no
// scripted reply taken) and answers 400.
func (h *Handler) reject(w http.ResponseWriter, rec RecordedRequest, perr error) {
	rec.ParseError, rec.Reply = perr.Error(), -1
	h.mu.Lock()
	h.reqs = append(h.reqs, rec)
	h.mu.Unlock()
	h.logf("modeltest: %s request rejected: %v", h.kind, perr)
	h.writeError(w, http.StatusBadRequest, "modeltest: "+perr.Error())
}

// write sends the scripted reply after its delay: the HTTP error it
// scripts, one message, or (stream) a stream of events, each event
// after the delay but the first.
func (h *Handler) write(w http.ResponseWriter, ctx context.Context, a answer, stream, includeUsage bool) {
	switch {
	case a.Err != 0:
		if !h.sleep(ctx, a.Delay) {
			return
		}
		msg := a.ErrMessage
		if msg == "" {
			msg = fmt.Sprintf("modeltest: scripted HTTP %d", a.Err)
		}
		h.writeError(w, a.Err, msg)
	case !stream:
		if !h.sleep(ctx, a.Delay) {
			return
		}
		if h.kind == OpenAI {
			writeJSON(w, http.StatusOK, a.openAIMessage())
		} else {
			writeJSON(w, http.StatusOK, a.anthropicMessage())
		}
	default:
		s := &sse{w: w, h: h, ctx: ctx, delay: a.Delay, first: true}
		s.f, _ = w.(http.Flusher)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("Cache-Control", "no-cache")
		w.WriteHeader(http.StatusOK)
		if h.kind == OpenAI {
			a.streamOpenAI(s, includeUsage)
		} else {
			a.streamAnthropic(s)
		}
	}
}

// serveModels answers the models list in the handler's API format, or
// the failure FailModels set. It takes no scripted reply.
func (h *Handler) serveModels(w http.ResponseWriter) {
	h.mu.Lock()
	ids, status, msg := h.modelIDs(), h.modelsErr, h.modelsErrMsg
	h.mu.Unlock()
	if status != 0 {
		h.logf("modeltest: %s models list -> HTTP %d", h.kind, status)
		h.writeError(w, status, msg)
		return
	}
	h.logf("modeltest: %s models list -> %v", h.kind, ids)
	data := make([]any, 0, len(ids))
	for _, id := range ids {
		if h.kind == Anthropic {
			data = append(data, map[string]any{"type": "model", "id": id, "display_name": id, "created_at": "2025-01-01T00:00:00Z"})
		} else {
			data = append(data, map[string]any{"id": id, "object": "model", "owned_by": "modeltest"})
		}
	}
	if h.kind == Anthropic {
		writeJSON(w, http.StatusOK, map[string]any{"data": data, "has_more": false})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

func summary(r Reply, ok bool) string {
	switch {
	case !ok:
		return "no reply left: HTTP 500"
	case r.Err != 0:
		return fmt.Sprintf("HTTP %d", r.Err)
	default:
		return fmt.Sprintf("text %d bytes, %d tool calls", len(r.Text), len(r.ToolCalls))
	}
}

// writeError writes an error body in the handler's API format.
func (h *Handler) writeError(w http.ResponseWriter, status int, msg string) {
	if h.kind == Anthropic {
		writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": "api_error", "message": msg}})
		return
	}
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": "modeltest_error", "param": nil, "code": nil}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
}

// sse writes server-sent events, sleeping delay before each but the first.
type sse struct {
	w     http.ResponseWriter
	f     http.Flusher
	h     *Handler
	ctx   context.Context
	delay time.Duration
	first bool
}

// send writes one event (event may be empty) and reports whether the
// client is still there.
func (s *sse) send(event string, v any) bool {
	if !s.first && !s.h.sleep(s.ctx, s.delay) {
		return false
	}
	s.first = false
	var data []byte
	if raw, ok := v.(string); ok {
		data = []byte(raw)
	} else {
		data, _ = json.Marshal(v)
	}
	if event != "" {
		fmt.Fprintf(s.w, "event: %s\n", event)
	}
	fmt.Fprintf(s.w, "data: %s\n\n", data)
	if s.f != nil {
		s.f.Flush()
	}
	return s.ctx.Err() == nil
}

// split cuts s into pieces of at least n bytes, never inside a UTF-8
// sequence. An empty s gives no pieces.
func split(s string, n int) []string {
	var out []string
	for len(s) > 0 {
		end := min(n, len(s))
		for end < len(s) && !utf8.RuneStart(s[end]) {
			end++
		}
		out = append(out, s[:end])
		s = s[end:]
	}
	return out
}

// answer is a reply being written for request number n.
type answer struct {
	Reply
	n        int
	model    string
	inTokens int64
}

func (a answer) callID(prefix string, i int) string {
	if id := a.ToolCalls[i].ID; id != "" {
		return id
	}
	return fmt.Sprintf("%s_%d_%d", prefix, a.n, i)
}

func (a answer) outTokens() int64 {
	if a.OutputTokens != 0 {
		return a.OutputTokens
	}
	n := len(a.Text)
	for _, tc := range a.ToolCalls {
		n += len(tc.Name) + len(tc.Arguments)
	}
	return int64(n/4 + 1)
}
