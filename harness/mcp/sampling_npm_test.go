//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// testSampler answers with fixed text, or refuses with err; it keeps what
// it was asked.
type testSampler struct {
	mu      sync.Mutex
	err     error
	asked   []Sampled
	refused []error
}

func (s *testSampler) Sample(_ context.Context, q Sampled) (Sampling, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, q)
	if s.err != nil {
		return Sampling{}, s.err
	}
	return Sampling{Text: "the answer is 42", Model: "test-model"}, nil
}

func (s *testSampler) Refused(q Sampled, why error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.asked = append(s.asked, q)
	s.refused = append(s.refused, why)
}

func hasTool(t *testing.T, p *Provider, name string) bool {
	t.Helper()
	tools, err := p.ListTools(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, rt := range tools {
		if rt.Name == name {
			return true
		}
	}
	return false
}

// TestSamplingEverythingServer: server-everything registers
// trigger-sampling-request only for a client that advertised sampling;
// its request reaches the call's Sampler (the message, the system prompt,
// maxTokens) and the answer comes back in the tool's result; a Sampler's
// error reaches the server as the request's error.
func TestSamplingEverythingServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*startGuard)
	defer cancel()
	srv := everythingServer(t)
	opts := &Options{StartTimeout: startGuard, Sampling: &SamplingOptions{}}

	off, err := ConnectUse(ctx, srv, opts, Use{})
	if err != nil {
		t.Fatal(err)
	}
	defer off.Close()
	if off.Sampling() || hasTool(t, off, "trigger-sampling-request") {
		t.Error("without Use.Sampling server-everything saw the sampling capability")
	}

	p, err := ConnectUse(ctx, srv, opts, Use{Sampling: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !p.Sampling() || !hasTool(t, p, "trigger-sampling-request") {
		t.Fatal("with Use.Sampling server-everything does not offer trigger-sampling-request")
	}
	s := &testSampler{}
	args := json.RawMessage(`{"prompt":"what is six times seven?","maxTokens":50}`)
	out, err := p.CallTool(WithSampler(ctx, s), "trigger-sampling-request", args, nil)
	if err != nil || !strings.Contains(out.Text, "the answer is 42") || !strings.Contains(out.Text, "test-model") {
		t.Fatalf("trigger-sampling-request = %q, %v; want the sampler's answer", out.Text, err)
	}
	if len(s.asked) != 1 {
		t.Fatalf("the sampler was asked %d times, want 1", len(s.asked))
	}
	q := s.asked[0]
	if q.Namespace != "everything" || q.MaxTokens != 50 || q.SystemPrompt != "You are a helpful test server." || len(q.Messages) != 1 ||
		q.Messages[0].Role != "user" || !strings.Contains(q.Messages[0].Text, "what is six times seven?") {
		t.Errorf("asked %+v", q)
	}

	s.err = errors.New("you denied the sampling request")
	out, err = p.CallTool(WithSampler(ctx, s), "trigger-sampling-request", args, nil)
	var te *tool.ToolError
	if !errors.As(err, &te) || !strings.Contains(te.Message, "you denied the sampling request") {
		t.Errorf("denied: %q, %v; want the server to report the refusal", out.Text, err)
	}

	// No Sampler in the call (a call from outside a session): refused.
	out, err = p.CallTool(ctx, "trigger-sampling-request", args, nil)
	if !errors.As(err, &te) || !strings.Contains(te.Message, "no one to answer sampling requests") {
		t.Errorf("no sampler: %q, %v", out.Text, err)
	}
}
