package harness_test

import (
	"context"
	"errors"
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// A chat switches its model between turns (docs/app.md#model-in-a-chat):
// two scripted models on 127.0.0.1, each turn's request reaches the model
// chosen for it, and the journal records the change and each turn's model.
func TestSetModelBetweenTurns(t *testing.T) {
	echo := &testTool{name: "test.echo", risk: tool.ReadOnly}
	e := newEnv(t, envOpts{tools: []tool.Tool{echo}, selected: []string{"test.echo"}, replies: []modeltest.Reply{{Text: "first model here"}}})
	second := modeltest.NewOpenAI(t, modeltest.Reply{Text: "second model here"})
	b, err := model.New(model.Config{Provider: "openai", BaseURL: second.URL, Model: "model-b", APIKey: "test-key"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s := e.open()
	if res, err := s.Send(ctx, "one", e.sink); err != nil || res.Text != "first model here" {
		t.Fatalf("turn 1 = %+v, %v; want the first model's reply", res, err)
	}
	if err := s.SetModel(ctx, b); err != nil {
		t.Fatal(err)
	}
	if got := s.Options().Model.Describe(); got != b.Describe() {
		t.Fatalf("Options().Model = %s, want %s", got, b.Describe())
	}
	if res, err := s.Send(ctx, "two", e.sink); err != nil || res.Text != "second model here" {
		t.Fatalf("turn 2 = %+v, %v; want the second model's reply", res, err)
	}
	if n1, r2 := len(e.model.Requests()), second.Requests(); n1 != 1 || len(r2) != 1 || r2[0].Model != "model-b" {
		t.Fatalf("requests: first model %d, second %+v; want 1 each, the second asking for model-b", n1, r2)
	}
	// The second model sees the whole conversation, the first turn included.
	if msgs := second.Requests()[0].Messages; len(msgs) != 3 || msgs[1].Text != "first model here" {
		t.Fatalf("second model's messages = %+v, want the first turn then the new prompt", msgs)
	}

	ws := e.warnings(s.ID())
	if len(ws) != 1 || ws[0].Code != harness.CodeSettingChanged || ws[0].Message != `session setting changed: model from "test" to "model-b"` {
		t.Fatalf("warnings = %+v, want one setting_changed from test to model-b", ws)
	}
	turns, err := e.rt.Journal().Turns(ctx, s.ID())
	if err != nil || len(turns) != 2 || turns[0].Model != e.provider.Describe() || turns[1].Model != b.Describe() {
		t.Fatalf("turns = %+v, %v; want each turn with its model", turns, err)
	}
	if last, err := harness.LastModel(ctx, e.rt.Journal(), s.ID()); err != nil || last != "model-b" {
		t.Fatalf("LastModel = %q, %v; want model-b", last, err)
	}

	// Another provider's model needs a new chat; a closed chat takes none.
	other, err := model.New(model.Config{Provider: "anthropic", BaseURL: second.URL, Model: "claude", APIKey: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetModel(ctx, other); err == nil {
		t.Fatal("SetModel(anthropic) in an openai chat = nil, want an error")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.SetModel(ctx, e.provider); !errors.Is(err, harness.ErrSessionClosed) {
		t.Fatalf("SetModel on a closed chat = %v, want ErrSessionClosed", err)
	}
}

func TestParseSettingChange(t *testing.T) {
	c := harness.SettingChange{Name: "model", From: `a "quoted" one`, To: "qwen3:8b"}
	got, ok := harness.ParseSettingChange(c.String())
	if !ok || got != c {
		t.Fatalf("ParseSettingChange(%q) = %+v, %v; want %+v", c.String(), got, ok, c)
	}
	if _, ok := harness.ParseSettingChange("a tool was left out"); ok {
		t.Fatal("ParseSettingChange(other text) = ok, want not")
	}
}
