// Package a2atest runs a test A2A agent on 127.0.0.1, built with the
// official SDK's server package (github.com/a2aproject/a2a-go/a2asrv), for
// tests of harness/a2a and of the harness (docs/a2a.md#testing).
//
// Its card lists four skills, chosen by the message's metadata "skill"
// (harness/a2a.MetaSkill):
//
//   - echo: completes at once with an artifact "echo: TEXT" and, when the
//     message has a data part, a data part {"echo": DATA};
//   - slow: reports "working" (Started receives the task ID), then waits
//     until Release; completes with "slow done: TEXT". tasks/cancel
//     cancels it (Canceled receives the task ID);
//   - ask: ends in input-required asking "Which city do you mean?"; the
//     next message of the task completes it with "answer: TEXT";
//   - fail: ends in failed with "the fail skill always fails".
package a2atest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/eventqueue"
)

// Question is what the ask skill asks.
const Question = "Which city do you mean?"

// FailMessage is the status message of the fail skill.
const FailMessage = "the fail skill always fails"

// Options shape the test agent.
type Options struct {
	// Streaming sets the card's capabilities.streaming: callers then use
	// message/stream. The server answers both either way.
	Streaming bool
	// Version is the card's version; "" means "1.0.0".
	Version string
	// Skills replaces the card's skill list when not nil (the behaviour
	// still follows the ids echo, slow, ask and fail).
	Skills []a2a.AgentSkill
	// V1 serves A2A 1.0 instead of 0.3: a 1.0 card (supportedInterfaces,
	// protocolVersion "1.0") and a2a-go v2's JSON-RPC server, running the
	// same executor through the SDK's a2av0.NewAgentExecutor.
	V1 bool
}

// Agent is a running test agent. Close stops it.
type Agent struct {
	// URL is the base URL, http://127.0.0.1:PORT; CardURL its card's URL.
	URL     string
	CardURL string

	srv      *http.Server
	ln       net.Listener
	exec     *executor
	mu       sync.Mutex
	card     a2a.AgentCard
	requests map[string]int
}

// DefaultSkills is the card's skill list.
func DefaultSkills() []a2a.AgentSkill {
	return []a2a.AgentSkill{
		{ID: "echo", Name: "Echo", Description: "Echoes the message back as an artifact.", Tags: []string{"test"}, Examples: []string{"hello"}},
		{ID: "slow", Name: "Slow", Description: "Works until released, then echoes the message.", Tags: []string{"test"}},
		{ID: "ask", Name: "Ask", Description: "Asks a question back (input-required).", Tags: []string{"test"}},
		{ID: "fail", Name: "Fail", Description: "Always fails.", Tags: []string{"test"}},
	}
}

// New starts a test agent (Start) for t and stops it when t ends; a
// start that fails fails t.
func New(t testing.TB, opts Options) *Agent {
	t.Helper()
	ag, err := Start(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ag.Close() })
	return ag
}

// Start starts a test agent on a free port of 127.0.0.1.
func Start(opts Options) (*Agent, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	base := "http://" + ln.Addr().String()
	a := &Agent{URL: base, CardURL: base + a2asrv.WellKnownAgentCardPath, ln: ln, requests: map[string]int{},
		exec: &executor{started: make(chan string, 16), canceled: make(chan string, 16), release: make(chan struct{})}}
	version := opts.Version
	if version == "" {
		version = "1.0.0"
	}
	skills := opts.Skills
	if skills == nil {
		skills = DefaultSkills()
	}
	a.card = a2a.AgentCard{
		Name:               "Test agent",
		Description:        "A test agent of OpenWorker (harness/a2a/a2atest).",
		URL:                base + "/a2a",
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		ProtocolVersion:    "0.3.0",
		Version:            version,
		DefaultInputModes:  []string{"text/plain", "application/json"},
		DefaultOutputModes: []string{"text/plain", "application/json"},
		Capabilities:       a2a.AgentCapabilities{Streaming: opts.Streaming},
		Skills:             skills,
	}
	mux := http.NewServeMux()
	if opts.V1 {
		a.serveV1(mux)
	} else {
		handler := a2asrv.NewHandler(a.exec)
		rpc := a2asrv.NewJSONRPCHandler(handler)
		mux.Handle("/a2a", a.count(rpc))
		mux.Handle(a2asrv.WellKnownAgentCardPath, a.count(a2asrv.NewAgentCardHandler(a2asrv.AgentCardProducerFn(func(context.Context) (*a2a.AgentCard, error) {
			a.mu.Lock()
			defer a.mu.Unlock()
			c := a.card
			return &c, nil
		}))))
	}
	a.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go a.srv.Serve(ln)
	return a, nil
}

// count notes the requests of each path and header "X-Test" value.
func (a *Agent) count(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a.mu.Lock()
		a.requests[r.URL.Path]++
		if v := r.Header.Get("X-Test"); v != "" {
			a.requests["X-Test: "+v]++
		}
		a.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

// Requests returns how many requests reached path ("/a2a" or the card's
// path), or carried header "X-Test: V" when key is "X-Test: V".
func (a *Agent) Requests(key string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.requests[key]
}

// SetVersion changes the card's version, so its digest changes.
func (a *Agent) SetVersion(v string) {
	a.mu.Lock()
	a.card.Version = v
	a.mu.Unlock()
}

// Started receives the task ID of each slow task once it works.
func (a *Agent) Started() <-chan string { return a.exec.started }

// Canceled receives the task ID of each task the agent was asked to
// cancel with tasks/cancel.
func (a *Agent) Canceled() <-chan string { return a.exec.canceled }

// Release lets every slow task, running or to come, complete.
func (a *Agent) Release() { a.exec.once.Do(func() { close(a.exec.release) }) }

// Close stops the agent (releasing its slow tasks first).
func (a *Agent) Close() error {
	a.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return a.srv.Shutdown(ctx)
}

type executor struct {
	started  chan string
	canceled chan string
	release  chan struct{}
	once     sync.Once
}

func skillOf(rc *a2asrv.RequestContext) string {
	if rc.Message != nil {
		if s, ok := rc.Message.Metadata["skill"].(string); ok {
			return s
		}
	}
	if s, ok := rc.Metadata["skill"].(string); ok {
		return s
	}
	return ""
}

func textOf(m *a2a.Message) (string, map[string]any) {
	text := ""
	var data map[string]any
	if m == nil {
		return "", nil
	}
	for _, p := range m.Parts {
		switch p := p.(type) {
		case a2a.TextPart:
			text += p.Text
		case a2a.DataPart:
			data = p.Data
		}
	}
	return text, data
}

func final(rc *a2asrv.RequestContext, state a2a.TaskState, text string) *a2a.TaskStatusUpdateEvent {
	var msg *a2a.Message
	if text != "" {
		msg = a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: text})
	}
	ev := a2a.NewStatusUpdateEvent(rc, state, msg)
	ev.Final = true
	return ev
}

func (e *executor) Execute(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	text, data := textOf(rc.Message)
	switch skillOf(rc) {
	case "echo":
		parts := []a2a.Part{a2a.TextPart{Text: "echo: " + text}}
		if data != nil {
			parts = append(parts, a2a.DataPart{Data: map[string]any{"echo": data}})
		}
		if err := q.Write(ctx, a2a.NewArtifactEvent(rc, parts...)); err != nil {
			return err
		}
		return q.Write(ctx, final(rc, a2a.TaskStateCompleted, ""))
	case "slow":
		working := a2a.NewStatusUpdateEvent(rc, a2a.TaskStateWorking, a2a.NewMessageForTask(a2a.MessageRoleAgent, rc, a2a.TextPart{Text: "slow task started"}))
		if err := q.Write(ctx, working); err != nil {
			return err
		}
		select {
		case e.started <- string(rc.TaskID):
		default:
		}
		select {
		case <-e.release:
		case <-ctx.Done(): // canceled: the canceler wrote the final event
			return nil
		}
		// The executor's ctx ends when the task is canceled meanwhile.
		if err := q.Write(ctx, a2a.NewArtifactEvent(rc, a2a.TextPart{Text: "slow done: " + text})); err != nil {
			return nil
		}
		return q.Write(ctx, final(rc, a2a.TaskStateCompleted, ""))
	case "ask":
		if rc.StoredTask != nil { // the answer to the question
			if err := q.Write(ctx, a2a.NewArtifactEvent(rc, a2a.TextPart{Text: "answer: " + text})); err != nil {
				return err
			}
			return q.Write(ctx, final(rc, a2a.TaskStateCompleted, ""))
		}
		return q.Write(ctx, final(rc, a2a.TaskStateInputRequired, Question))
	case "fail":
		return q.Write(ctx, final(rc, a2a.TaskStateFailed, FailMessage))
	}
	return q.Write(ctx, final(rc, a2a.TaskStateRejected, fmt.Sprintf("no skill %q", skillOf(rc))))
}

func (e *executor) Cancel(ctx context.Context, rc *a2asrv.RequestContext, q eventqueue.Queue) error {
	select {
	case e.canceled <- string(rc.TaskID):
	default:
	}
	return q.Write(ctx, final(rc, a2a.TaskStateCanceled, "canceled at the caller's request"))
}
