package harness_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/mcptest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
	"github.com/openworker/desktop/harness/tool"
)

// serveResultsEnv makes the test binary serve mcptest.ResultsServer on stdio.
const serveResultsEnv = "OPENWORKER_TEST_SERVE_RESULTS"

func serveResults() {
	if err := mcptest.Serve(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(0)
}

func resultsServer(t *testing.T, transport string) tool.MCPServer {
	t.Helper()
	if transport == "http" {
		h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return mcptest.ResultsServer() }, nil)
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		return tool.MCPServer{Namespace: "results", Transport: tool.TransportStreamableHTTP, URL: srv.URL}
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return tool.MCPServer{Namespace: "results", Transport: tool.TransportStdio, Program: exe,
		Env: map[string]string{serveResultsEnv: "1", "GORACE": "atexit_sleep_ms=0"}}
}

type htmlOut struct {
	HTML string `json:"html"`
}

// What a server sends reaches the scripted model and the journal as sent:
// "<b>" and not "\u003cb\u003e", for a text block, for structured content
// and for a native typed tool's output; resource links, embedded resources
// and audio as the lines docs/mcp.md describes, the image as an image. A
// result that breaks its outputSchema is an error result, and the turn
// goes on. tool.finished carries the blocks for the app.
func TestResultsReachTheModelAsSent(t *testing.T) {
	typed, err := tool.NewTyped(tool.Descriptor{Name: "native.html", Description: "returns HTML", Version: "1.0.0", Risk: tool.ReadOnly},
		func(context.Context, *tool.Call, struct{}) (htmlOut, error) { return htmlOut{HTML: mcptest.HTML}, nil })
	if err != nil {
		t.Fatal(err)
	}
	const structured = `{"html":"<b>bold</b> & \"quoted\""}`
	for _, transport := range []string{"stdio", "http"} {
		for _, anthropic := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/anthropic=%v", transport, anthropic), func(t *testing.T) {
				e := newEnv(t, envOpts{servers: []tool.MCPServer{resultsServer(t, transport)}, tools: []tool.Tool{typed}, anthropic: anthropic,
					selected: []string{"results.text_html", "results.structured_only", "results.blocks", "results.bad_items", "native.html"},
					replies: []modeltest.Reply{
						{ToolCalls: []model.ToolCall{call("c1", "results__text_html", `{}`), call("c2", "results__structured_only", `{}`),
							call("c3", "results__blocks", `{}`), call("c4", "results__bad_items", `{}`), call("c5", "native__html", `{}`)}},
						{Text: "done"},
					}})
				s, res, err := e.send("go")
				if err != nil || res.Status != harness.TurnCompleted {
					t.Fatalf("turn = %+v, %v; want completed", res, err)
				}
				tr := e.model.Requests()[1].ToolResults()
				if len(tr) != 5 {
					t.Fatalf("the model got %d tool results, want 5", len(tr))
				}
				if tr[0].Text != mcptest.HTML || tr[1].Text != structured || tr[4].Text != structured {
					t.Errorf("the model got %q, %q and %q; want %q and %s twice", tr[0].Text, tr[1].Text, tr[4].Text, mcptest.HTML, structured)
				}
				mustHave(t, "blocks result", tr[2].Text, "Here is everything:\n[audio audio/wav, 44 bytes, not shown]\n",
					`[resource link file:///srv/report.pdf "report.pdf", title "Q3 <report>", MIME type application/pdf, 2048 bytes, description "the quarterly report"]`,
					"[embedded resource file:///srv/notes.txt, MIME type text/plain]\n"+mcptest.EmbeddedText+"\n",
					"[embedded resource file:///srv/data.bin, MIME type application/octet-stream, 300 bytes, not shown]")
				images := tr[2].Images
				if !anthropic { // Chat Completions: in a user message after the tool messages
					images = e.model.Requests()[1].LastMessage().Images
				}
				if len(images) != 1 || !bytes.Equal(images[0].Data, mcptest.PNG) {
					t.Errorf("blocks result: %d images, want the PNG", len(images))
				}
				wantErr := "output_invalid: structuredContent does not match the tool's outputSchema: at the top level: required: missing property 'total'"
				if !strings.Contains(tr[3].Text, wantErr) || (anthropic && !tr[3].IsError) || (!anthropic && !strings.HasPrefix(tr[3].Text, "error: ")) {
					t.Errorf("bad_items result = %+v; want an error result saying %q", tr[3], wantErr)
				}

				invs := e.invocations(s.ID())
				if len(invs) != 5 || invs[3].Status != harness.StatusFailed || invs[3].ErrorCode != mcp.CodeOutputInvalid {
					t.Fatalf("invocations = %+v; want 5, the fourth failed output_invalid", invs)
				}
				for i, inv := range invs[:3] {
					if inv.Status != harness.StatusSucceeded {
						t.Errorf("invocation %d = %s %s", i, inv.Status, inv.Error)
					}
				}
				for _, i := range []int{0, 1, 4} {
					if r := string(invs[i].Result); !strings.Contains(r, "<b>bold</b> &") || strings.Contains(r, `\u003c`) || strings.Contains(r, `\u0026`) {
						t.Errorf("journaled result %d = %s; want <b> as sent", i, r)
					}
				}
				mustHave(t, "journaled blocks", string(invs[2].Result), `"content":[{"type":"text","text":"Here is everything:"},{"type":"image","mime_type":"image/png","bytes":`,
					`{"type":"resource_link","uri":"file:///srv/report.pdf","name":"report.pdf","title":"Q3 <report>"`, `"images":[{"mime_type":"image/png","digest":"sha256:`)
				if strings.Contains(string(invs[2].Result), "iVBOR") {
					t.Error("the journal holds image bytes")
				}
				for _, m := range e.messages(s.ID()) {
					if strings.Contains(string(m.Content), `\u003c`) {
						t.Errorf("journaled %s message escapes HTML: %s", m.Role, m.Content)
					}
				}

				var fin []harness.Event
				for _, ev := range e.eventsOf(harness.EventToolFinished) {
					fin = append(fin, ev)
				}
				if len(fin) != 5 {
					t.Fatalf("%d tool.finished events, want 5", len(fin))
				}
				byAlias := map[string]harness.Event{}
				for _, ev := range fin {
					byAlias[ev.Alias] = ev
				}
				if ev := byAlias["results__blocks"]; len(ev.Content) != 6 || len(ev.Images) != 1 || ev.Content[3].Name != "report.pdf" {
					t.Errorf("tool.finished of blocks: %d blocks, %d images; want 6 and 1", len(ev.Content), len(ev.Images))
				}
				if ev := byAlias["results__structured_only"]; string(ev.Structured) != structured || ev.Content != nil {
					t.Errorf("tool.finished of structured_only: %s / %+v", ev.Structured, ev.Content)
				}
				if ev := byAlias["results__bad_items"]; ev.Structured != nil || ev.Content != nil || !strings.Contains(ev.Error, "missing property 'total'") {
					t.Errorf("tool.finished of bad_items = %+v; want the error and no result", ev)
				}
				line, _ := json.Marshal(byAlias["results__blocks"])
				if strings.Contains(string(line), "iVBOR") || !strings.Contains(string(line), `"content":[`) {
					t.Errorf("encoded tool.finished = %.300s; want blocks and no pixels", line)
				}
			})
		}
	}
}

func mustHave(t *testing.T, what, s string, subs ...string) {
	t.Helper()
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			t.Errorf("%s = %q\nwant it to contain %q", what, s, sub)
		}
	}
}

// Content blocks count against the result bound too; image blocks must
// match the images; a result whose blocks would push its journal row over
// journal.MaxJSONBytes is journaled without them, what the model got kept.
func TestResultBlocksBounds(t *testing.T) {
	controls := strings.Repeat("\x01", 100<<10) // six times as long once escaped
	cases := []struct {
		name   string
		out    tool.Output
		status journal.InvocationStatus
		check  func(t *testing.T, inv journal.Invocation)
	}{
		{"over", tool.Output{Text: "ok", Content: []tool.Block{{Type: tool.BlockText, Text: strings.Repeat("x", 256<<10+1)}}}, harness.StatusFailed,
			func(t *testing.T, inv journal.Invocation) {
				if inv.ErrorCode != "limit_exceeded" || !strings.Contains(inv.Error, "content blocks hold 262145 bytes of text, over the limit of 262144") {
					t.Errorf("invocation = %s: %s", inv.ErrorCode, inv.Error)
				}
			}},
		{"images", tool.Output{Text: "ok", Content: []tool.Block{{Type: tool.BlockImage, MIMEType: "image/png"}}}, harness.StatusFailed,
			func(t *testing.T, inv journal.Invocation) {
				if inv.ErrorCode != "tool_failure" || !strings.Contains(inv.Error, "1 image blocks for 0 images") {
					t.Errorf("invocation = %s: %s", inv.ErrorCode, inv.Error)
				}
			}},
		{"journal", tool.Output{Text: controls, Content: []tool.Block{{Type: tool.BlockText, Text: controls}}}, harness.StatusSucceeded,
			func(t *testing.T, inv journal.Invocation) {
				var r struct {
					Text    string            `json:"text"`
					Content []json.RawMessage `json:"content"`
				}
				if err := json.Unmarshal(inv.Result, &r); err != nil || r.Text != controls || r.Content != nil {
					t.Errorf("journaled result: %d bytes of text, %d blocks, %v; want the text and no blocks", len(r.Text), len(r.Content), err)
				}
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tt := &testTool{name: "native.blocks", risk: tool.ReadOnly, fn: func(context.Context, *tool.Call, json.RawMessage) (tool.Output, error) { return c.out, nil }}
			e := newEnv(t, envOpts{tools: []tool.Tool{tt}, selected: []string{"native.blocks"},
				replies: []modeltest.Reply{{ToolCalls: []model.ToolCall{call("c1", "native__blocks", `{}`)}}, {Text: "done"}}})
			s, _, err := e.send("go")
			if err != nil {
				t.Fatal(err)
			}
			invs := e.invocations(s.ID())
			if len(invs) != 1 || invs[0].Status != c.status {
				t.Fatalf("invocations = %+v; want one %s", invs, c.status)
			}
			c.check(t, invs[0])
		})
	}
}
