package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/internal/testwait"

	"github.com/openworker/desktop/harness/model"
)

// hangGuard bounds a wait that only catches a hang (run ignoring its
// cancelled context, which would serve forever); it is far longer than
// run takes to stop on a loaded machine, so it measures no speed.
const hangGuard = 30 * time.Second

// syncBuffer is a bytes.Buffer safe for the server's logging goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestServeScript(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	os.WriteFile(script, []byte(`[
		{"tool_calls":[{"id":"c1","name":"device__battery_status_get","arguments":{}}]},
		{"text":"Battery at 80%."}
	]`), 0o600)
	for _, kind := range []string{"openai", "anthropic"} {
		t.Run(kind, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			outR, outW := io.Pipe()
			var stderr syncBuffer
			done := make(chan error, 1)
			go func() {
				done <- run(ctx, []string{"-script", script, "-kind", kind}, outW, &stderr)
				outW.Close()
			}()
			line, err := bufio.NewReader(outR).ReadString('\n')
			if err != nil {
				t.Fatalf("reading the listening line: %v (stderr: %s)", err, stderr.String())
			}
			go io.Copy(io.Discard, outR)
			base, ok := strings.CutPrefix(strings.TrimSpace(line), "listening ")
			if !ok || !strings.HasPrefix(base, "http://127.0.0.1:") {
				t.Fatalf("stdout line = %q, want \"listening http://127.0.0.1:PORT...\"", line)
			}
			if wantV1 := kind == "openai"; strings.HasSuffix(base, "/v1") != wantV1 {
				t.Errorf("base URL %q: /v1 suffix should be present only for openai", base)
			}
			p, err := model.New(model.Config{Provider: kind, BaseURL: base, Model: "scripted"})
			if err != nil {
				t.Fatal(err)
			}
			resp, err := p.Stream(ctx, model.Request{Messages: []model.Message{{Role: model.User, Text: "battery?"}}}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "c1" || resp.ToolCalls[0].Arguments != "{}" {
				t.Errorf("first reply = %+v, want the scripted tool call", resp)
			}
			resp, err = p.Stream(ctx, model.Request{Messages: []model.Message{{Role: model.User, Text: "again"}}}, nil)
			if err != nil || resp.Text != "Battery at 80%." {
				t.Errorf("second reply = %+v, %v", resp, err)
			}
			_, err = p.Stream(ctx, model.Request{Messages: []model.Message{{Role: model.User, Text: "more"}}}, nil)
			if err == nil || !strings.Contains(err.Error(), "no scripted reply left for request 2 (2 replies were scripted)") {
				t.Errorf("third request = %v, want the exhausted-script error", err)
			}
			cancel()
			select {
			case err := <-done:
				if err != nil {
					t.Errorf("run after cancel = %v, want nil", err)
				}
			case <-time.After(hangGuard):
				t.Fatalf("run did not return within %v of cancel", hangGuard)
			}
			if log := stderr.String(); strings.Count(log, kind+" request ") != 3 {
				t.Errorf("stderr log = %q, want one line per request", log)
			}
		})
	}
}

func TestUsageErrors(t *testing.T) {
	script := filepath.Join(t.TempDir(), "s.json")
	os.WriteFile(script, []byte(`[]`), 0o600)
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`[{"texts":"x"}]`), 0o600)
	tests := []struct {
		args []string
		want string
	}{
		{nil, "usage: scriptmodel -script FILE"},
		{[]string{"-script", script, "-kind", "gemini"}, `-kind "gemini"`},
		{[]string{"-script", script, "-addr", "0.0.0.0:0"}, "only loopback addresses"},
		{[]string{"-script", script, "-addr", "nope"}, `-addr "nope"`},
		{[]string{"-script", bad}, bad + `: script: replies[0]: json: unknown field "texts"`},
		{[]string{"-script", filepath.Join(t.TempDir(), "missing.json")}, "missing.json"},
		{[]string{"-script", script, "-models-status", "200"}, "-models-status 200"},
	}
	for _, tt := range tests {
		err := run(context.Background(), tt.args, io.Discard, io.Discard)
		var ue usageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("run(%q) = %v, want a usage error containing %q", tt.args, err, tt.want)
		}
	}
}

// serve runs scriptmodel with args until the test ends and returns its base URL.
func serve(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	outR, outW := io.Pipe()
	var stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, outW, &stderr)
		outW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case <-done:
		case <-time.After(hangGuard):
			t.Errorf("run did not return within %v of cancel", hangGuard)
		}
	})
	line, err := bufio.NewReader(outR).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the listening line: %v (stderr: %s)", err, stderr.String())
	}
	go io.Copy(io.Discard, outR)
	return strings.TrimPrefix(strings.TrimSpace(line), "listening ")
}

// The models list names the -models (default "scripted") for both kinds,
// takes no scripted reply, and -models-status makes it fail.
func TestServeModels(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	os.WriteFile(script, []byte(`[{"text":"hi"}]`), 0o600)
	for _, kind := range []string{"openai", "anthropic"} {
		t.Run(kind, func(t *testing.T) {
			base := serve(t, "-script", script, "-kind", kind)
			l, err := model.ListModels(context.Background(), model.Config{Provider: kind, BaseURL: base})
			if err != nil || len(l.Models) != 1 || l.Models[0].ID != "scripted" || l.API != kind {
				t.Fatalf("ListModels = %+v, %v; want the one model \"scripted\" from the %s list", l, err, kind)
			}
			p, _ := model.New(model.Config{Provider: kind, BaseURL: base, Model: "scripted"})
			if resp, err := p.Stream(context.Background(), model.Request{Messages: []model.Message{{Role: model.User, Text: "hi"}}}, nil); err != nil || resp.Text != "hi" {
				t.Errorf("the first chat after listing = %+v, %v; want the first scripted reply", resp, err)
			}
		})
	}
	base := serve(t, "-script", script, "-models", "a, b", "-models-status", "401")
	_, err := model.ListModels(context.Background(), model.Config{BaseURL: base})
	var pe *model.ProbeError
	if !errors.As(err, &pe) || pe.StatusCode != 401 || !strings.Contains(err.Error(), "HTTP 401: modeltest: scripted HTTP 401") {
		t.Errorf("ListModels with -models-status 401 = %v; want HTTP 401 with the server's message", err)
	}
	base = serve(t, "-script", script, "-models", "a, b")
	if l, err := model.ListModels(context.Background(), model.Config{BaseURL: base}); err != nil || len(l.Models) != 2 || l.Models[1].ID != "b" {
		t.Errorf("ListModels with -models \"a, b\" = %+v, %v", l, err)
	}
}

// -record appends each model request as a JSON line: its model, system
// prompt, the names of the tools offered and the last user message, for
// both kinds; a -record file that cannot be opened is a usage error.
func TestRecord(t *testing.T) {
	script := filepath.Join(t.TempDir(), "script.json")
	os.WriteFile(script, []byte(`[{"text":"one"},{"text":"two"}]`), 0o600)
	for _, kind := range []string{"openai", "anthropic"} {
		t.Run(kind, func(t *testing.T) {
			rec := filepath.Join(t.TempDir(), "requests.jsonl")
			base := serve(t, "-script", script, "-kind", kind, "-record", rec)
			p, _ := model.New(model.Config{Provider: kind, BaseURL: base, Model: "scripted"})
			schema := json.RawMessage(`{"type":"object"}`)
			for i, prompt := range []string{"first", "second"} {
				req := model.Request{System: "You keep notes.", Messages: []model.Message{{Role: model.User, Text: prompt}},
					Tools: []model.ToolSpec{{Name: "kit__echo", Description: "echo", InputSchema: schema}, {Name: "files__read", Description: "read", InputSchema: schema}}[:2-i]}
				if _, err := p.Stream(context.Background(), req, nil); err != nil {
					t.Fatal(err)
				}
			}
			// A request's line is written after its answer went out, so the
			// client may have the answer first: wait for the line (a generous
			// bound for a busy machine).
			var b []byte
			var lines []string
			testwait.For(60*time.Second, func() bool {
				var err error
				if b, err = os.ReadFile(rec); err != nil {
					t.Fatal(err)
				}
				lines = strings.Split(strings.TrimSpace(string(b)), "\n")
				return len(lines) >= 2
			})
			if len(lines) != 2 {
				t.Fatalf("%d lines recorded; want 2: %s", len(lines), b)
			}
			var first, second Recorded
			if err := json.Unmarshal([]byte(lines[0]), &first); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal([]byte(lines[1]), &second); err != nil {
				t.Fatal(err)
			}
			if first.N != 0 || first.Model != "scripted" || first.System != "You keep notes." || strings.Join(first.Tools, ",") != "kit__echo,files__read" ||
				first.LastUser != "first" || first.Messages != 1 {
				t.Errorf("first line %+v", first)
			}
			if second.N != 1 || strings.Join(second.Tools, ",") != "kit__echo" || second.LastUser != "second" {
				t.Errorf("second line %+v", second)
			}
		})
	}
	err := run(context.Background(), []string{"-script", script, "-record", filepath.Join(t.TempDir(), "no", "such", "dir", "r.jsonl")}, io.Discard, io.Discard)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "-record") {
		t.Errorf("an unwritable -record file: %v; want a usage error naming -record", err)
	}
}
