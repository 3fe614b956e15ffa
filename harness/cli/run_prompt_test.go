//go:build unix

package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/internal/npmtest"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// TestRealServerFilesystemRoots: server-filesystem started without
// folders gets the run's --workspace as its one root (docs/mcp.md#roots):
// it lists it as its allowed directory, reads a file inside it and
// refuses one outside.
func TestRealServerFilesystemRoots(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-filesystem")
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(ws, "notes.txt"), []byte("the meeting is at 10:00\n"), 0o644)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	os.WriteFile(outside, []byte("not for the model\n"), 0o644)
	s := newSetup(t, "clerk", map[string]any{
		"filesystem": map[string]any{"transport": "stdio", "command": node, "args": []string{entry}},
	}, nil, "filesystem.list_allowed_directories", "filesystem.read_text_file")

	args := func(path string) string { b, _ := json.Marshal(map[string]string{"path": path}); return string(b) }
	r := s.run(t, modeltest.Anthropic, []string{"--approve", "bypass", "--workspace", ws}, "When is the meeting?",
		modeltest.Reply{ToolCalls: []model.ToolCall{
			call("c1", "filesystem__list_allowed_directories", `{}`), // Anthropic: error results are flagged
			call("c2", "filesystem__read_text_file", args(filepath.Join(ws, "notes.txt"))),
			call("c3", "filesystem__read_text_file", args(outside)),
		}},
		modeltest.Reply{Text: "At 10:00."},
	)
	res := r.results(t, 1)
	if len(res) != 3 || res[0].IsError || res[1].IsError || !res[2].IsError {
		t.Fatalf("tool results = %+v; want two results, then an error", res)
	}
	if !strings.Contains(res[0].Text, ws) || !strings.Contains(res[1].Text, "the meeting is at 10:00") {
		t.Errorf("allowed directories %q, notes %q; want the workspace %s and the file's text", res[0].Text, res[1].Text, ws)
	}
	if !strings.Contains(res[2].Text, "outside allowed directories") || strings.Contains(res[2].Text, "not for the model") {
		t.Errorf("the read outside the workspace gave %q, want the server's refusal", res[2].Text)
	}
}

// TestRunPrompt: `run --prompt NS.NAME --arg K=V` sends the prompt's text
// (server-everything's args-prompt) as the turn's user text, with TEXT
// after it; an unknown prompt lists those there are and a missing
// required argument is named, both exit 2 before any model request.
func TestRunPrompt(t *testing.T) {
	t.Parallel()
	node, entry := npmtest.Server(t, "server-everything")
	s := newSetup(t, "helper", map[string]any{
		"everything": map[string]any{"transport": "stdio", "command": node, "args": []string{entry, "stdio"}},
	}, nil, "everything.echo")
	r := s.run(t, modeltest.OpenAI, []string{"--approve", "bypass", "--prompt", "everything.args-prompt", "--arg", "city=Lyon", "--arg", "state=Rhône"},
		"Answer in one line.", modeltest.Reply{Text: "Mild."})
	if got := r.model.Requests()[0].LastMessage(); got.Role != "user" || got.Text != "What's weather in Lyon, Rhône?\n\nAnswer in one line." {
		t.Errorf("the model got %+v; want the prompt's text, then the TEXT", got)
	}

	for _, c := range []struct {
		flags []string
		want  string
	}{
		{[]string{"--prompt", "everything.nope"}, `no prompt "everything.nope"`},
		{[]string{"--prompt", "everything.args-prompt"}, `needs the argument "city"`},
		{[]string{"--prompt", "everything.args-prompt", "--arg", "city=Lyon", "--arg", "zip=1"}, `no argument "zip"`},
		{[]string{"--prompt", "everything.args-prompt", "--arg", "city"}, `--arg "city": write NAME=VALUE`},
		{[]string{"--arg", "city=Lyon"}, "add --prompt NS.NAME"},
	} {
		m := modeltest.NewOpenAI(t)
		cmd := command(t, append([]string{"run", "--coworkers", s.coworkers, "--coworker", s.id, "--servers", s.servers,
			"--db", filepath.Join(t.TempDir(), "j.db"), "--base-url", m.URL, "--model", "test"}, c.flags...)...)
		out, err := cmd.CombinedOutput()
		if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 || !strings.Contains(string(out), c.want) {
			t.Errorf("run %v = exit %d:\n%s\nwant exit 2 and %q", c.flags, code, out, c.want)
		}
		if strings.Contains(c.want, "no prompt") && !strings.Contains(string(out), "everything.args-prompt, everything.completable-prompt") {
			t.Errorf("the unknown prompt's error does not list the prompts:\n%s", out)
		}
		if n := len(m.Requests()); n != 0 {
			t.Errorf("run %v sent %d model requests, want none", c.flags, n)
		}
	}
}
