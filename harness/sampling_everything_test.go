//go:build unix

package harness_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// TestSamplingServerEverything: server-everything's
// trigger-sampling-request (a sampling/createMessage request of its own
// during the call) through a turn with the scripted model, which also
// answers the sampling request; the journal file holds the request as an
// invocation of harness.SamplingTool within the asking call, with the
// approval and the token counts.
func TestSamplingServerEverything(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	srv := tool.MCPServer{Namespace: "everything", Program: node, Args: []string{entry, "stdio"}}
	const ask = `{"prompt":"What is the capital of France?","maxTokens":50}`
	toolCall := modeltest.Reply{ToolCalls: []model.ToolCall{call("c1", "everything__trigger-sampling-request", ask)}}

	t.Run("approved", func(t *testing.T) {
		pr := &samplingPrompter{sampling: consent.AllowSession} // taken as once
		e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"everything.trigger-sampling-request"},
			policy: "sampling: [everything]\n", mode: consent.Ask, prompter: pr,
			replies: []modeltest.Reply{toolCall, {Text: "Paris is the capital of France."}, {Text: "done"}}})
		s, res, err := e.send("Ask the server")
		if err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("Send = %+v, %v", res, err)
		}
		calls, sampled := samplingRows(e.invocations(s.ID()))
		if len(calls) != 1 || calls[0].Status != harness.StatusSucceeded || !strings.Contains(string(calls[0].Result), "Paris is the capital of France.") {
			t.Fatalf("the call = %+v; want the server's result with the model's answer", calls)
		}
		if len(sampled) != 1 {
			t.Fatalf("%d sampling rows, want 1", len(sampled))
		}
		r := sampled[0]
		var result struct {
			Text         string `json:"text"`
			Model        string `json:"model"`
			InputTokens  int64  `json:"input_tokens"`
			OutputTokens int64  `json:"output_tokens"`
		}
		json.Unmarshal(r.Result, &result)
		if r.Status != harness.StatusSucceeded || r.CallID != calls[0].ID || r.Provider != "mcp:everything" || r.TurnID != calls[0].TurnID ||
			!strings.Contains(string(r.Arguments), "What is the capital of France?") || !strings.Contains(string(r.Arguments), `"system_prompt":"You are a helpful test server."`) ||
			result.Text != "Paris is the capital of France." || !strings.Contains(result.Model, "model test") || result.OutputTokens == 0 {
			t.Errorf("sampling row = %+v\nresult %s", r, r.Result)
		}
		a := approvalOf(e.approvals(s.ID()), r.ID)
		if a == nil || a.Decision != string(consent.AllowOnce) || a.Source != consent.SourcePrompt || a.Tool != harness.SamplingTool || a.CallID != calls[0].ID {
			t.Errorf("sampling approval = %+v", a)
		}
		ps := pr.prompts()
		if len(ps) != 1 || ps[0].Sampling.MaxTokens != 50 || ps[0].Sampling.Model == "" || ps[0].Tool != "everything.trigger-sampling-request" ||
			len(ps[0].Sampling.Messages) != 1 || ps[0].Sampling.Messages[0].Role != "user" || ps[0].Sampling.Invocation != calls[0].ID {
			t.Errorf("sampling prompts = %+v", ps)
		}
		reqs := e.model.Requests()
		if len(reqs) != 3 || len(reqs[1].Tools) != 0 || reqs[1].MaxTokens != 50 || reqs[1].System != "You are a helpful test server." ||
			len(reqs[1].Messages) != 1 || !strings.Contains(reqs[1].Messages[0].Text, "What is the capital of France?") {
			t.Errorf("the model's sampling request = %+v", reqs)
		}
	})

	t.Run("denied", func(t *testing.T) {
		pr := &samplingPrompter{sampling: consent.Deny}
		e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"everything.trigger-sampling-request"},
			policy: "sampling: [everything]\n", mode: consent.Ask, prompter: pr, replies: []modeltest.Reply{toolCall, {Text: "done"}}})
		s, res, err := e.send("Ask the server")
		if err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("Send = %+v, %v", res, err)
		}
		calls, sampled := samplingRows(e.invocations(s.ID()))
		if len(calls) != 1 || calls[0].Status == harness.StatusSucceeded || !strings.Contains(calls[0].Error, "you denied the sampling request") {
			t.Errorf("the call = %+v; want the server's error with the refusal", calls)
		}
		if len(sampled) != 1 || sampled[0].Status != harness.StatusRefused || sampled[0].ErrorCode != "denied" {
			t.Fatalf("sampling rows = %+v", sampled)
		}
		if a := approvalOf(e.approvals(s.ID()), sampled[0].ID); a == nil || a.Decision != string(consent.Deny) || a.Source != consent.SourcePrompt {
			t.Errorf("sampling approval = %+v", a)
		}
		if n := len(e.model.Requests()); n != 2 {
			t.Errorf("the model got %d requests, want 2 (no sampling request)", n)
		}
	})

	t.Run("bypass", func(t *testing.T) {
		e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"everything.trigger-sampling-request"},
			policy: "sampling: [everything]\n", mode: consent.Bypass, replies: []modeltest.Reply{toolCall, {Text: "done"}}})
		s, _, err := e.send("Ask the server")
		if err != nil {
			t.Fatal(err)
		}
		_, sampled := samplingRows(e.invocations(s.ID()))
		if len(sampled) != 1 || sampled[0].Status != harness.StatusRefused || !strings.Contains(sampled[0].Error, "bypass mode does not approve it") {
			t.Errorf("sampling rows = %+v", sampled)
		}
	})

	t.Run("budget", func(t *testing.T) {
		pr := &samplingPrompter{sampling: consent.AllowOnce}
		e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"everything.trigger-sampling-request"},
			policy: "sampling: [everything]\n", mode: consent.Ask, prompter: pr, maxAttempts: 1, replies: []modeltest.Reply{toolCall}})
		s, res, err := e.send("Ask the server")
		if err != nil || res.Status != harness.TurnStopped {
			t.Fatalf("Send = %+v, %v", res, err)
		}
		calls, sampled := samplingRows(e.invocations(s.ID()))
		if len(calls) != 1 || !strings.Contains(calls[0].Error, "budget of 1 provider attempts") {
			t.Errorf("the call = %+v", calls)
		}
		if len(sampled) != 1 || sampled[0].ErrorCode != "over_budget" || len(pr.prompts()) != 0 {
			t.Errorf("sampling rows = %+v; prompts %d", sampled, len(pr.prompts()))
		}
	})

	t.Run("not-allowed", func(t *testing.T) {
		// Without "sampling" in the manifest the capability is not
		// advertised: server-everything does not offer the tool at all.
		e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"everything.trigger-sampling-request"}})
		ctx := context.Background()
		_, err := e.rt.NewSession(ctx, "tester", e.so)
		if err == nil || !strings.Contains(err.Error(), "trigger-sampling-request") {
			t.Errorf("NewSession = %v; want the missing tool named", err)
		}
	})
}

// TestSamplingProcessPerAllowance: a coworker that allows sampling for a
// provider and one that does not get different processes of the same
// configuration (only the first advertises sampling); sessions of the same
// allowance share one.
func TestSamplingProcessPerAllowance(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	srv := tool.MCPServer{Namespace: "everything", Program: node, Args: []string{entry, "stdio"}}
	e := newEnv(t, envOpts{servers: []tool.MCPServer{srv}, selected: []string{"everything.echo", "everything.trigger-sampling-request"},
		policy: "sampling: [everything]\n", mode: consent.Ask})
	writeBundle(t, e.bundles, "plain", []string{"everything.echo"}, "")
	ctx := context.Background()
	for _, id := range []string{"tester", "plain", "tester", "plain"} {
		s, err := e.rt.NewSession(ctx, id, e.so)
		if err != nil {
			t.Fatalf("NewSession(%s): %v", id, err)
		}
		defer s.Close()
	}
	if got := e.rt.RunningProviders(); strings.Join(got, " ") != "everything everything" {
		t.Errorf("RunningProviders = %v; want two processes (sampling and not)", got)
	}
}
