package mcp

import (
	"context"
	"log/slog"
	"strings"
	"sync"
)

// logRecorder is a slog handler keeping every record, for asserting what
// was logged.
type logRecorder struct {
	mu   sync.Mutex
	recs []map[string]string
}

func (h *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *logRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *logRecorder) WithGroup(string) slog.Handler            { return h }
func (h *logRecorder) Handle(_ context.Context, r slog.Record) error {
	m := map[string]string{"msg": r.Message, "level": r.Level.String()}
	r.Attrs(func(a slog.Attr) bool { m[a.Key] = a.Value.String(); return true })
	h.mu.Lock()
	h.recs = append(h.recs, m)
	h.mu.Unlock()
	return nil
}

// noise returns the records about skipped stdout lines.
func (h *logRecorder) noise() []map[string]string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []map[string]string
	for _, r := range h.recs {
		if strings.Contains(r["msg"], "not JSON-RPC") {
			out = append(out, r)
		}
	}
	return out
}

// countRecords counts the log records whose message holds msg.
func (h *logRecorder) count(msg string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, r := range h.recs {
		if strings.Contains(r["msg"], msg) {
			n++
		}
	}
	return n
}
