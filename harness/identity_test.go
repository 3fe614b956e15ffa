package harness_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// versioned is a testTool whose descriptor has another version.
type versioned struct {
	*testTool
	version string
}

func (v versioned) Descriptor() tool.Descriptor {
	d := v.testTool.Descriptor()
	d.Version = v.version
	return d
}

// reopen opens a second runtime over the env's journal and bundles with the
// given tools, a fresh scripted model, and an optional executable to hash.
func (e *env) reopen(tools []tool.Tool, exe string, replies ...modeltest.Reply) (*harness.Runtime, *modeltest.Server) {
	e.t.Helper()
	reg := tool.NewRegistry()
	for _, tl := range tools {
		if err := reg.Register(tl); err != nil {
			e.t.Fatal(err)
		}
	}
	srv := modeltest.NewOpenAI(e.t, replies...)
	provider, err := model.New(model.Config{Provider: "openai", BaseURL: srv.URL, Model: "test", APIKey: "k"})
	if err != nil {
		e.t.Fatal(err)
	}
	rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: e.bundles, Journal: e.rt.Journal(), Executable: exe})
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Cleanup(func() { rt.Close() })
	e.reso = harness.SessionOptions{Model: provider, Approve: "bypass"}
	return rt, srv
}

// docs/identity.md: resuming a session whose execution identity changed is refused
// with a message that says which part changed; with nothing changed it
// resumes with its history.
func TestResumeRefusedWhenIdentityChanges(t *testing.T) {
	newTurn := func(t *testing.T) (*env, *testTool, string) {
		echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
		e := newEnv(t, envOpts{
			tools: []tool.Tool{echo}, selected: []string{"test.echo"}, policy: "policy:\n  test.echo: ask\n",
			replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "test__echo", `{"text":"first"}`)}}, {Text: "first answer"}},
		})
		s, res, err := e.send("first question")
		if err != nil || res.Status != harness.TurnCompleted {
			t.Fatalf("Send = %+v, %v", res, err)
		}
		// The session stays open in the journal, as after a crash.
		return e, echo, s.ID()
	}
	manifest := func(e *env) string { return filepath.Join(e.bundles, "tester", "coworker", "manifest.md") }
	edit := func(t *testing.T, path, old, new string) {
		b, err := os.ReadFile(path)
		if err != nil || !strings.Contains(string(b), old) {
			t.Fatalf("read %s: %v (or no %q in it)", path, err, old)
		}
		if err := os.WriteFile(path, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(t *testing.T, e *env, rt *harness.Runtime, id string, want ...string) {
		t.Helper()
		_, err := rt.ResumeSession(context.Background(), id, e.reso)
		var ice *harness.IdentityChangedError
		if !errors.As(err, &ice) {
			t.Fatalf("ResumeSession = %v; want an IdentityChangedError", err)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("message %q does not say %q", err, w)
			}
		}
	}

	t.Run("manifest body", func(t *testing.T) {
		e, echo, id := newTurn(t)
		edit(t, manifest(e), "Use your tools.", "Use your tools carefully.")
		rt, _ := e.reopen([]tool.Tool{echo}, "")
		refused(t, e, rt, id, `coworker "tester"`, "the coworker bundle (manifest.md, tools.json or skills)")
	})
	t.Run("policy", func(t *testing.T) {
		e, echo, id := newTurn(t)
		edit(t, manifest(e), "test.echo: ask", "test.echo: allow")
		rt, _ := e.reopen([]tool.Tool{echo}, "")
		refused(t, e, rt, id, "the coworker's policies")
	})
	t.Run("native descriptor version", func(t *testing.T) {
		e, echo, id := newTurn(t)
		rt, _ := e.reopen([]tool.Tool{versioned{echo, "1.1.0"}}, "")
		refused(t, e, rt, id, "the descriptor of test.echo (version 1.0.0 → 1.1.0)")
	})
	t.Run("executable", func(t *testing.T) {
		e, echo, id := newTurn(t)
		other := filepath.Join(t.TempDir(), "openworker")
		if err := os.WriteFile(other, []byte("another build"), 0o755); err != nil {
			t.Fatal(err)
		}
		rt, _ := e.reopen([]tool.Tool{echo}, other)
		refused(t, e, rt, id, "the OpenWorker executable")
	})
	t.Run("closed session", func(t *testing.T) {
		e, echo, id := newTurn(t)
		if err := e.rt.Close(); err != nil { // closes the session and the journal
			t.Fatal(err)
		}
		reg := tool.NewRegistry()
		reg.Register(echo)
		srv := modeltest.NewOpenAI(t, modeltest.Reply{Text: "second answer"})
		provider, err := model.New(model.Config{Provider: "openai", BaseURL: srv.URL, Model: "test", APIKey: "k"})
		if err != nil {
			t.Fatal(err)
		}
		rt, err := harness.Open(context.Background(), reg, harness.Options{Coworkers: e.bundles, DBPath: e.db})
		e.reso = harness.SessionOptions{Model: provider, Approve: "bypass"}
		if err != nil {
			t.Fatal(err)
		}
		defer rt.Close()
		if js, _ := rt.Journal().Session(context.Background(), id); js.Status != journal.SessionClosed {
			t.Fatalf("session status before resume = %q, want closed", js.Status)
		}
		s, err := rt.ResumeSession(context.Background(), id, e.reso)
		if err != nil {
			t.Fatalf("ResumeSession of a closed session = %v; a person may continue an old chat", err)
		}
		if js, _ := rt.Journal().Session(context.Background(), id); js.Status != journal.SessionOpen {
			t.Errorf("session status after resume = %q, want open", js.Status)
		}
		if again, err := rt.ResumeSession(context.Background(), id, e.reso); err != nil || again != s {
			t.Errorf("resuming a session the runtime holds = %p, %v; want the same session %p", again, err, s)
		}
		if res, err := s.Send(context.Background(), "second question", nil); err != nil || res.Text != "second answer" {
			t.Fatalf("Send after reopening = %+v, %v", res, err)
		}
		if n := len(srv.Requests()[0].Messages); n != 5 {
			t.Errorf("the reopened session sent %d messages, want 5 (its whole history)", n)
		}
		// Each turn records the model it ran with; the session row the latest.
		turns, _ := rt.Journal().Turns(context.Background(), id)
		if len(turns) != 2 || !strings.Contains(turns[1].Model, srv.URL) || strings.Contains(turns[0].Model, srv.URL) || turns[1].Approve != "bypass" {
			t.Errorf("turns = %+v; want the second with model at %s and approval bypass, the first with the earlier model", turns, srv.URL)
		}
		if js, _ := rt.Journal().Session(context.Background(), id); !strings.Contains(js.Model, srv.URL) {
			t.Errorf("session model after reopening = %q; want the one at %s", js.Model, srv.URL)
		}
	})
	t.Run("nothing changed", func(t *testing.T) {
		e, echo, id := newTurn(t)
		rt, srv := e.reopen([]tool.Tool{echo}, "", modeltest.Reply{Text: "second answer"})
		s, err := rt.ResumeSession(context.Background(), id, e.reso)
		if err != nil {
			t.Fatalf("ResumeSession: %v", err)
		}
		res, err := s.Send(context.Background(), "second question", nil)
		if err != nil || res.Text != "second answer" {
			t.Fatalf("Send = %+v, %v", res, err)
		}
		msgs := srv.Requests()[0].Messages
		var texts []string
		for _, m := range msgs {
			texts = append(texts, m.Role+":"+m.Text)
		}
		got := strings.Join(texts, "|")
		for _, want := range []string{"user:first question", `"echo":"first"`, "assistant:first answer", "user:second question"} {
			if !strings.Contains(got, want) {
				t.Fatalf("the resumed request's messages %q lack %q", got, want)
			}
		}
		if len(msgs) != 5 { // user, assistant(tool call), tool, assistant, user
			t.Fatalf("resumed request has %d messages, want 5: %q", len(msgs), got)
		}
	})
}
