//go:build unix

package cli_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// serve --stdio lists the prompts of a session's providers and gets one
// with its arguments (docs/stdio-protocol.md#prompts), against the real
// server-everything; a missing argument is a bad_request naming it.
func TestServeStdioPrompts(t *testing.T) {
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}}},
		nil, "everything.echo")
	m := modeltest.NewOpenAI(t)
	c, _ := startServeWith(t, binEnv(t), nil, nil, "--coworkers", s.coworkers, "--servers", s.servers,
		"--db", filepath.Join(t.TempDir(), "journal.db"), "--base-url", m.URL, "--model", "test")
	open := c.until(nil, response(c.send("session.open", map[string]any{"coworker": "helper"})))
	sid, _ := field(open, "result", "session_id").(string)
	if sid == "" {
		t.Fatalf("session.open = %v", open)
	}
	list := c.until(nil, response(c.send("prompts.list", map[string]any{"session_id": sid})))
	prompts, _ := field(list, "result", "prompts").([]any)
	var names []string
	for _, p := range prompts {
		names = append(names, p.(map[string]any)["name"].(string))
	}
	if !strings.Contains(strings.Join(names, " "), "everything.args-prompt") {
		t.Fatalf("prompts.list = %v; want everything.args-prompt", list)
	}
	got := c.until(nil, response(c.send("prompts.get", map[string]any{"session_id": sid, "name": "everything.args-prompt",
		"arguments": map[string]string{"city": "Lyon", "state": "Rhône"}})))
	if text, _ := field(got, "result", "text").(string); text != "What's weather in Lyon, Rhône?" {
		t.Errorf("prompts.get = %v", got)
	}
	bad := c.until(nil, response(c.send("prompts.get", map[string]any{"session_id": sid, "name": "everything.args-prompt"})))
	if field(bad, "error", "code") != "bad_request" || !strings.Contains(field(bad, "error", "message").(string), `"city"`) {
		t.Errorf("prompts.get without city = %v; want bad_request naming it", bad)
	}
	unknown := c.until(nil, response(c.send("prompts.get", map[string]any{"session_id": sid, "name": "everything.nope"})))
	if field(unknown, "error", "code") != "bad_request" || !strings.Contains(field(unknown, "error", "message").(string), "everything.args-prompt") {
		t.Errorf("an unknown prompt = %v; want bad_request listing the prompts", unknown)
	}
	c.until(nil, response(c.send("session.close", map[string]any{"session_id": sid})))
}
