// Package journalgen writes realistic sessions into a journal through the
// journal's own API, for benchmarks and scale tests (docs/journal.md#scale,
// scripts/bench.sh). It is not part of the product.
package journalgen

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/openworker/desktop/harness/journal"
)

// Shape is what one generated session holds. Generate with the zero Shape
// uses DefaultShape.
type Shape struct {
	Invocations   int // tool calls per session, each with an allow_once approval
	ResultBytes   int // bytes of each call's result text
	UnknownEvery  int // every n-th session ends one call "unknown" (0: none)
	WarningEvery  int // every n-th session gets a catalog_changed warning (0: none)
	KeepOpenEvery int // every n-th session is left open (0: all closed)
}

// DefaultShape is one turn, a user prompt, an assistant reply per call and
// a final one, two calls with about 5 KB of result each and a tool message
// for each, one session in 50 with a call left unknown, one in 20 with a
// warning, one in 100 left open: about 16 KB and 14 commits per session.
var DefaultShape = Shape{Invocations: 2, ResultBytes: 5000, UnknownEvery: 50, WarningEvery: 20, KeepOpenEvery: 100}

// Clock is a fake time source for journal.Options.Now: each reading is one
// step after the one before, so generated sessions spread over time as real
// ones do (created_at differs between sessions).
type Clock struct {
	mu   sync.Mutex
	t    time.Time
	step time.Duration
}

// NewClock starts at start and advances step per reading.
func NewClock(start time.Time, step time.Duration) *Clock { return &Clock{t: start, step: step} }

// Now returns the next time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(c.step)
	return c.t
}

// Generate writes n sessions of shape s into j, one API call per journal
// write (each its own durable commit, as the harness makes them). first
// numbers the sessions (their prompts say "request <first+i>"), so that
// appending to a generated file keeps the numbers going. It returns how
// many invocations it left "unknown".
func Generate(ctx context.Context, j *journal.Journal, first, n int, s Shape) (unknown int, err error) {
	if s == (Shape{}) {
		s = DefaultShape
	}
	result := strings.Repeat("The quick brown fox jumps over the lazy dog. ", s.ResultBytes/45+1)[:s.ResultBytes]
	for i := first; i < first+n; i++ {
		u, err := session(ctx, j, i, s, result)
		if err != nil {
			return unknown, fmt.Errorf("journalgen: session %d: %w", i, err)
		}
		unknown += u
	}
	return unknown, nil
}

func every(i, n int) bool { return n > 0 && i%n == n-1 }

// session writes session number i and returns how many calls it left
// unknown.
func session(ctx context.Context, j *journal.Journal, i int, s Shape, result string) (int, error) {
	w := &sessionWriter{ctx: ctx, j: j, i: i, s: s, result: result,
		sid: journal.NewID("ses_"), tid: journal.NewID("turn_"), identity: fmt.Sprintf("sha256:%064x", i)}
	if err := w.begin(); err != nil {
		return 0, err
	}
	unknown := 0
	for k := range s.Invocations {
		u, err := w.call(k)
		if err != nil {
			return 0, err
		}
		if u {
			unknown++
		}
	}
	if err := w.end(); err != nil {
		return 0, err
	}
	return unknown, nil
}

// sessionWriter writes the parts of session number i: its start, each
// call and its end.
type sessionWriter struct {
	ctx      context.Context
	j        *journal.Journal
	i        int
	s        Shape
	result   string
	sid, tid string
	identity string
}

// begin creates the session, starts its turn with the user's prompt and,
// every WarningEvery sessions, warns.
func (w *sessionWriter) begin() error {
	parts, _ := json.Marshal(map[string]any{
		"bundle": map[string]string{"id": "notes-helper", "version": "1.2.0", "digest": w.identity},
		"tools":  []string{"notes.append", "notes.read", "notification.show"},
		"model":  "openai-compatible http://127.0.0.1:11434/v1 model llama3",
	})
	if err := w.j.CreateSession(w.ctx, journal.Session{ID: w.sid, Coworker: "notes-helper", CoworkerVersion: "1.2.0",
		Identity: w.identity, IdentityParts: parts, Provider: "openai-compatible", Model: "llama3", Approve: "ask"}); err != nil {
		return err
	}
	prompt := fmt.Sprintf("request %d: append today's meeting notes and remind me at five", w.i)
	if err := w.j.StartTurn(w.ctx, journal.Turn{ID: w.tid, SessionID: w.sid, Prompt: prompt, Model: "llama3", Approve: "ask"}); err != nil {
		return err
	}
	if err := w.msg("user", map[string]string{"text": prompt}); err != nil {
		return err
	}
	if every(w.i, w.s.WarningEvery) {
		return w.j.Warn(w.ctx, w.sid, w.tid, "catalog_changed", "notes.append changed its description since the last turn")
	}
	return nil
}

// call writes call number k: the assistant's tool call, the approved
// invocation, its end (the first call of every UnknownEvery-th session
// unknown, which call reports) and the tool message.
func (w *sessionWriter) call(k int) (unknown bool, err error) {
	iid, call := journal.NewID("inv_"), fmt.Sprintf("call_%d", k+1)
	args, _ := json.Marshal(map[string]string{"path": "notes/meeting.md", "text": fmt.Sprintf("line %d of request %d", k, w.i)})
	if err := w.msg("assistant", map[string]any{"tool_calls": []map[string]string{{"id": call, "name": "notes__append", "arguments": string(args)}}}); err != nil {
		return false, err
	}
	inv := journal.Invocation{ID: iid, SessionID: w.sid, TurnID: w.tid, CallID: call, Tool: "notes.append", Alias: "notes__append",
		Provider: "mcp:notes", RemoteName: "append", Placement: "on this computer", Risk: "write",
		DescriptorDigest: "sha256:" + strings.Repeat("d", 64), Arguments: args}
	a := &journal.Approval{SessionID: w.sid, TurnID: w.tid, CallID: call, Tool: "notes.append", Decision: "allow_once",
		Scope: "call", Source: "prompt", Identity: w.identity}
	if err := w.j.BeginInvocation(w.ctx, inv, a); err != nil {
		return false, err
	}
	f := journal.Finish{Status: journal.InvSucceeded, Result: mustJSON(map[string]string{"text": w.result})}
	if k == 0 && every(w.i, w.s.UnknownEvery) {
		f = journal.Finish{Status: journal.InvUnknown, ErrorCode: "timeout", Error: "the call did not answer within 75 s; its effect is unknown"}
		unknown = true
	}
	if err := w.j.FinishInvocation(w.ctx, iid, f); err != nil {
		return false, err
	}
	return unknown, w.msg("tool", map[string]string{"call_id": call, "text": w.result[:min(len(w.result), 400)]})
}

// end writes the final reply, finishes the turn and, but every
// KeepOpenEvery-th session, closes the session.
func (w *sessionWriter) end() error {
	if err := w.msg("assistant", map[string]string{"text": "Done: the notes are appended."}); err != nil {
		return err
	}
	if err := w.j.FinishTurn(w.ctx, w.tid, journal.TurnCompleted, "", w.s.Invocations+1, w.s.Invocations); err != nil {
		return err
	}
	if every(w.i, w.s.KeepOpenEvery) {
		return nil
	}
	return w.j.FinishSession(w.ctx, w.sid, journal.SessionClosed, "")
}

// msg appends a message of role with content as its JSON.
func (w *sessionWriter) msg(role string, content any) error {
	b, _ := json.Marshal(content)
	_, err := w.j.AppendMessage(w.ctx, journal.Message{SessionID: w.sid, TurnID: w.tid, Role: role, Content: b})
	return err
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
