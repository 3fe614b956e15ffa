package notification

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/platform"
)

// fakeAdapter records requests; Ask answers with answer after delay, or
// waits for ctx when block is set.
type fakeAdapter struct {
	caps   platform.Capabilities
	answer platform.AskResult
	err    error
	block  bool

	mu       sync.Mutex
	notified []platform.NotifyRequest
	asked    []platform.AskRequest
	closed   bool // Ask saw ctx cancelled (the dialog was closed)
}

func (f *fakeAdapter) Notify(_ context.Context, r platform.NotifyRequest) error {
	if err := r.Validate(); err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.notified = append(f.notified, r)
	return f.err
}

func (f *fakeAdapter) Ask(ctx context.Context, r platform.AskRequest) (platform.AskResult, error) {
	if err := r.Validate(); err != nil {
		return platform.AskResult{}, err
	}
	f.mu.Lock()
	f.asked = append(f.asked, r)
	f.mu.Unlock()
	if f.block {
		<-ctx.Done()
		f.mu.Lock()
		f.closed = true
		f.mu.Unlock()
		return platform.AskResult{}, ctx.Err()
	}
	return f.answer, f.err
}

func (f *fakeAdapter) Capabilities() platform.Capabilities { return f.caps }

func toolsOf(t *testing.T, a platform.Adapter) (show, confirm *Pinned) {
	t.Helper()
	ts, err := Tools(a)
	if err != nil {
		t.Fatal(err)
	}
	return ts[0], ts[1]
}

type progressLog struct {
	mu     sync.Mutex
	events []string
}

func (p *progressLog) call() *tool.Call {
	return tool.NewCall("s1", "t1", "c1", "", tool.Limits{}, func(m string, d json.RawMessage) {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.events = append(p.events, m+" "+string(d))
	})
}

func TestShow(t *testing.T) {
	f := &fakeAdapter{}
	show, _ := toolsOf(t, f)
	out, err := show.Call(context.Background(), nil, json.RawMessage(`{"title":"Done","body":"3 files \"copied\"\nok"}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Structured) != `{"shown":true}` {
		t.Errorf("Structured = %s", out.Structured)
	}
	want := []platform.NotifyRequest{{Title: "Done", Body: "3 files \"copied\"\nok"}}
	if diff := cmp.Diff(want, f.notified); diff != "" {
		t.Errorf("Notify requests (-want +got):\n%s", diff)
	}
	d := show.Descriptor()
	if d.Risk != tool.NonIdempotentWrite || d.Version != "1.0.0" || d.Name != "notification.show" {
		t.Errorf("descriptor = %+v", d)
	}
}

func TestShowRejects(t *testing.T) {
	show, _ := toolsOf(t, &fakeAdapter{})
	for _, args := range []string{
		`{"title":"` + strings.Repeat("é", MaxTitle+1) + `"}`,
		`{"title":"x","body":"` + strings.Repeat("b", MaxBody+1) + `"}`,
		`{"title":""}`,
		`{"title":"x","icon":"/etc/passwd"}`,
		`{"title":"x\u0000y"}`,
	} {
		_, err := show.Call(context.Background(), nil, json.RawMessage(args))
		var te *tool.ToolError
		if !errors.As(err, &te) || te.Code != "invalid_arguments" {
			t.Errorf("show(%.60s) = %v, want invalid_arguments", args, err)
		}
	}
	// 10 KB is over the body bound of the schema, but 4096 emoji (16 KB) are
	// within both the schema and the platform bound.
	if _, err := show.Call(context.Background(), nil, json.RawMessage(`{"title":"x","body":"`+strings.Repeat("👍", MaxBody)+`"}`)); err != nil {
		t.Errorf("show with %d emoji = %v", MaxBody, err)
	}
	unsupported, _ := toolsOf(t, platform.Unsupported{Why: "no display"})
	_, err := unsupported.Call(context.Background(), nil, json.RawMessage(`{"title":"x"}`))
	var te *tool.ToolError
	if !errors.As(err, &te) || te.Code != "unsupported" || !strings.Contains(te.Message, "no display") {
		t.Errorf("show on an unsupported adapter = %v", err)
	}
}

func TestConfirmDefaults(t *testing.T) {
	f := &fakeAdapter{answer: platform.AskResult{Button: "No"}}
	_, confirm := toolsOf(t, f)
	out, err := confirm.Call(context.Background(), nil, json.RawMessage(`{"question":"Proceed?"}`))
	if err != nil {
		t.Fatal(err)
	}
	if string(out.Structured) != `{"button":"No"}` {
		t.Errorf("Structured = %s", out.Structured)
	}
	want := platform.AskRequest{Title: "OpenWorker asks", Message: "Proceed?", Buttons: []string{"Yes", "No"}, Default: "No", Timeout: 60 * time.Second, Icon: platform.IconInfo}
	if diff := cmp.Diff([]platform.AskRequest{want}, f.asked); diff != "" {
		t.Errorf("Ask requests (-want +got):\n%s", diff)
	}
	if d := confirm.Descriptor(); d.Risk != tool.ReadOnly {
		t.Errorf("confirm risk = %s", d.Risk)
	}
}

func TestConfirmNoAnswer(t *testing.T) {
	f := &fakeAdapter{answer: platform.AskResult{TimedOut: true}}
	_, confirm := toolsOf(t, f)
	out, err := confirm.Call(context.Background(), nil, json.RawMessage(`{"question":"?","buttons":["A","B","C"],"timeout_seconds":1}`))
	if err != nil || string(out.Structured) != `{"button":"no_answer"}` {
		t.Errorf("confirm after timeout = %s, %v", out.Structured, err)
	}
	if f.asked[0].Timeout != time.Second || f.asked[0].Default != "C" {
		t.Errorf("Ask request = %+v", f.asked[0])
	}
}

func TestConfirmRejects(t *testing.T) {
	_, confirm := toolsOf(t, &fakeAdapter{})
	for _, args := range []string{
		`{"question":"?","buttons":[]}`,
		`{"question":"?","buttons":["a","b","c","d"]}`,
		`{"question":"?","buttons":["a","a"]}`,
		`{"question":"?","buttons":["no_answer"]}`,
		`{"question":"?","buttons":["line\nbreak"]}`,
		`{"question":"?","buttons":["` + strings.Repeat("x", MaxLabel+1) + `"]}`,
		`{"question":"?","buttons":null}`,
		`{"question":"?","timeout_seconds":61}`,
		`{"question":"?","timeout_seconds":0}`,
		`{"question":"","buttons":["a"]}`,
		`{"question":"?","buttons":[" "]}`,
	} {
		_, err := confirm.Call(context.Background(), nil, json.RawMessage(args))
		var te *tool.ToolError
		if !errors.As(err, &te) || te.Code != "invalid_arguments" {
			t.Errorf("confirm(%.70s) = %v, want invalid_arguments", args, err)
		}
	}
}

// confirm reports every progressEvery (10 s) that it still waits, and a
// cancel closes the dialog. The call runs in a synctest bubble: its clock
// is exact and advances only when every goroutine waits, so the count of
// events does not depend on the machine's speed.
func TestConfirmProgressAndCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeAdapter{block: true}
		_, confirm := toolsOf(t, f)
		var log progressLog
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(45*time.Second, cancel)
		start := time.Now()
		_, err := confirm.Call(ctx, log.call(), json.RawMessage(`{"question":"?","timeout_seconds":60}`))
		if !errors.Is(err, context.Canceled) {
			t.Errorf("confirm after cancel = %v, want context.Canceled", err)
		}
		if took := time.Since(start); took != 45*time.Second {
			t.Errorf("confirm returned after %v, want at the cancel (45s)", took)
		}
		if !f.closed {
			t.Error("the dialog was not closed on cancellation")
		}
		var want []string
		for _, s := range []int{10, 20, 30, 40} {
			want = append(want, fmt.Sprintf(`waiting for an answer {"timeout_seconds":60,"waited_seconds":%d}`, s))
		}
		if fmt.Sprint(log.events) != fmt.Sprint(want) {
			t.Errorf("progress events = %q, want %q", log.events, want)
		}
	})
}

func TestConfirmStopsOnProgressLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := &fakeAdapter{block: true}
		_, confirm := toolsOf(t, f)
		c := tool.NewCall("s", "t", "c", "", tool.Limits{ProgressEvents: 3}, nil)
		start := time.Now()
		_, err := confirm.Call(context.Background(), c, json.RawMessage(`{"question":"?","timeout_seconds":60}`))
		if !errors.Is(err, tool.ErrLimit) || !f.closed {
			t.Errorf("confirm over the progress limit = %v (dialog closed: %v)", err, f.closed)
		}
		if took := time.Since(start); took != 40*time.Second {
			t.Errorf("confirm stopped after %v, want at the 4th progress event (40s)", took)
		}
	})
}

func TestModelContext(t *testing.T) {
	show, confirm := toolsOf(t, &fakeAdapter{caps: platform.Capabilities{Notify: true, Why: "dialogs need zenity"}})
	for _, p := range []*Pinned{show, confirm} {
		got := string(p.ModelContext("s1"))
		if got != `{"notifications":true,"dialogs":false,"why":"dialogs need zenity"}` {
			t.Errorf("%s ModelContext = %s", p.Descriptor().Name, got)
		}
	}
}

func TestRegister(t *testing.T) {
	reg := tool.NewRegistry()
	if err := Register(reg, &fakeAdapter{}); err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{ShowName, ConfirmName} {
		if _, d, ok := reg.Tool(n); !ok || len(d.InputSchema) == 0 || len(d.OutputSchema) == 0 {
			t.Errorf("%s not registered with schemas", n)
		}
	}
	if err := Register(tool.NewRegistry(), nil); err == nil {
		t.Error("Register accepted a nil adapter")
	}
	// Drift: a pin file whose digest for 1.0.0 differs fails, naming both digests.
	pins, _ := Pins()
	show, _ := toolsOf(t, &fakeAdapter{})
	pins.Tools[ShowName][0].Input = "sha256:" + strings.Repeat("0", 64)
	err := pins.Check(show)
	if err == nil || !strings.Contains(err.Error(), show.InputDigest()) || !strings.Contains(err.Error(), "bump the tool version") {
		t.Errorf("drift = %v", err)
	}
}
