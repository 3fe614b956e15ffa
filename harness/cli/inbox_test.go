package cli_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// noteTool is a native tool that counts its calls.
type noteTool struct{ calls atomic.Int32 }

func (n *noteTool) Descriptor() tool.Descriptor {
	return tool.Descriptor{Name: "notes.append", Description: "appends a note", Version: "1.0.0", Risk: "non_idempotent_write",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}}}`)}
}

func (n *noteTool) Call(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) {
	n.calls.Add(1)
	return tool.Output{Structured: json.RawMessage(`{"ok":true}`)}, nil
}

func runIn(ctx context.Context, reg *tool.Registry, stdin io.Reader, terminal bool, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := cli.Run(ctx, reg, args, cli.WithIO(stdin, &out, &errb, func(string) string { return "" }, func() bool { return terminal }))
	return code, out.String(), errb.String()
}

// TestRunApprovalAnsweredFromInbox: `run` asks about a call on the
// terminal, and nobody types; `openworker inbox answer` (another journal
// handle on the same file, as another terminal would be) allows it: the
// run takes that answer, the call runs once, the turn completes. A second
// answer is told the item was already answered, and `inbox show` says who
// answered what.
func TestRunApprovalAnsweredFromInbox(t *testing.T) {
	bundles := filepath.Join(t.TempDir(), "coworkers")
	writeBundleAt(t, bundles, "keeper", "notes.append")
	m := modeltest.NewOpenAI(t,
		modeltest.Reply{ToolCalls: []model.ToolCall{{ID: "c1", Name: "notes__append", Arguments: `{"text":"hi"}`}}},
		modeltest.Reply{Text: "Noted."})
	db := filepath.Join(t.TempDir(), "journal.db")
	notes := &noteTool{}
	reg := tool.NewRegistry()
	if err := reg.Register(notes); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	silent, typist := io.Pipe() // a terminal nobody types on
	defer typist.Close()
	type result struct {
		code     int
		out, err string
	}
	done := make(chan result, 1)
	go func() {
		code, out, errs := runIn(ctx, reg, silent, true, "run", "--coworkers", bundles, "--coworker", "keeper", "--db", db,
			"--base-url", m.URL, "--model", "test", "Note hi.")
		done <- result{code, out, errs}
	}()

	var items []journal.InboxItem
	for len(items) == 0 {
		select {
		case r := <-done:
			t.Fatalf("run ended before asking: %d\n%s\n%s", r.code, r.out, r.err)
		case <-ctx.Done():
			t.Fatal("no inbox item within 90 s")
		case <-time.After(50 * time.Millisecond):
		}
		code, out, _ := runIn(ctx, tool.NewRegistry(), strings.NewReader(""), false, "inbox", "list", "--json", "--db", db)
		if code == 0 {
			json.Unmarshal([]byte(out), &items)
		}
	}
	it := items[0]
	if it.Kind != journal.InboxApproval || it.Tool != "notes.append" || it.Coworker != "keeper" || it.Status != journal.InboxOpen {
		t.Fatalf("inbox item = %+v", it)
	}
	if code, out, errs := runIn(ctx, tool.NewRegistry(), strings.NewReader(""), false, "inbox", "list", "--db", db); code != 0 ||
		!strings.Contains(out, it.ID) || !strings.Contains(out, `may it run notes.append {"text":"hi"}?`) {
		t.Errorf("inbox list = %d\n%s\n%s", code, out, errs)
	}
	code, out, errs := runIn(ctx, tool.NewRegistry(), strings.NewReader(""), false, "inbox", "answer", it.ID, "allow", "--db", db)
	if code != 0 || !strings.Contains(out, "answered "+it.ID+`: "allow_once"`) {
		t.Fatalf("inbox answer = %d\n%s\n%s", code, out, errs)
	}
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		t.Fatal("run did not finish within 90 s of the answer")
	}
	if r.code != 0 || !strings.Contains(r.out, "Noted.") || notes.calls.Load() != 1 {
		t.Fatalf("run = %d (%d calls)\n%s\n%s", r.code, notes.calls.Load(), r.out, r.err)
	}
	code, _, errs = runIn(ctx, tool.NewRegistry(), strings.NewReader(""), false, "inbox", "answer", it.ID, "deny", "--db", db)
	if code != 1 || !strings.Contains(errs, "already answered") || !strings.Contains(errs, "cli: inbox answer") {
		t.Errorf("second answer = %d\n%s", code, errs)
	}
	code, out, errs = runIn(ctx, tool.NewRegistry(), strings.NewReader(""), false, "inbox", "show", it.ID, "--db", db)
	if code != 0 || !strings.Contains(out, `answer:   "allow_once" by cli: inbox answer`) {
		t.Errorf("inbox show = %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = runIn(ctx, tool.NewRegistry(), strings.NewReader(""), false, "inbox", "answer", it.ID, "maybe", "--db", db)
	if code != 2 || !strings.Contains(errs, "use allow, allow-session, allow-always or deny") {
		t.Errorf("answer maybe = %d\n%s", code, errs)
	}
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	as, err := j.Approvals(ctx, it.SessionID)
	if err != nil || len(as) != 1 || as[0].Decision != "allow_once" || as[0].Source != "prompt" {
		t.Errorf("approvals = %+v, %v", as, err)
	}
}

// TestServeInboxMethods: serve --stdio lists the journal's open inbox
// items, those another process wrote included, and answers one with
// inbox.answer; a second answer is told it was already answered.
func TestServeInboxMethods(t *testing.T) {
	m := modeltest.NewOpenAI(t)
	db := filepath.Join(t.TempDir(), "journal.db")
	j, err := journal.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	it, err := j.AddInboxItem(context.Background(), journal.InboxItem{Kind: journal.InboxApproval, Coworker: "keeper", Tool: "notes.append",
		Asked: json.RawMessage(`{"tool":"notes.append"}`)})
	j.Close()
	if err != nil {
		t.Fatal(err)
	}
	c, _ := startServe(t, m.URL, db)
	id := c.send("inbox.list", nil)
	res := c.until(nil, response(id))
	items, _ := field(res, "result", "items").([]any)
	if len(items) != 1 || field(items[0].(map[string]any), "id") != it.ID {
		t.Fatalf("inbox.list = %v", res)
	}
	id = c.send("inbox.answer", map[string]any{"item_id": it.ID, "answer": "maybe"})
	if res := c.until(nil, response(id)); field(res, "error", "code") != "bad_request" {
		t.Fatalf("inbox.answer maybe = %v", res)
	}
	id = c.send("inbox.answer", map[string]any{"item_id": it.ID, "answer": "allow_once"})
	if res := c.until(nil, response(id)); field(res, "result", "item", "status") != "answered" || field(res, "result", "item", "answered_by") != "stdio" {
		t.Fatalf("inbox.answer = %v", res)
	}
	id = c.send("inbox.answer", map[string]any{"item_id": it.ID, "answer": "deny"})
	if res := c.until(nil, response(id)); field(res, "error", "code") != "not_found" || !strings.Contains(fmt.Sprint(field(res, "error", "message")), "already answered") {
		t.Fatalf("second inbox.answer = %v", res)
	}
	c.in.Close()
}
