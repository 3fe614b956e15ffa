package device

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// connect serves a fresh device server in memory and returns a client
// session; progress, if non-nil, receives the client's progress
// notifications.
func connect(t *testing.T, progress func(*sdk.ProgressNotificationParams)) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	st, ct := sdk.NewInMemoryTransports()
	ss, err := NewServer("1.2.3").Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := &sdk.ClientOptions{}
	if progress != nil {
		opts.ProgressNotificationHandler = func(_ context.Context, r *sdk.ProgressNotificationClientRequest) { progress(r.Params) }
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, opts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// call calls a tool and decodes its structured content into out. It fails the
// test on a protocol error and returns the result for further checks.
func call(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any, meta sdk.Meta, out any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args, Meta: meta})
	if err != nil {
		t.Fatalf("CallTool(%s): %v", name, err)
	}
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if len(raw) >= 8<<10 {
		t.Errorf("%s result is %d bytes, want < 8 KB", name, len(raw))
	}
	if res.IsError || out == nil {
		return res
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("%s structured content %s: %v", name, b, err)
	}
	return res
}

func errorText(res *sdk.CallToolResult) string {
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			return tc.Text
		}
	}
	return ""
}

func TestListTools(t *testing.T) {
	cs := connect(t, nil)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cs.InitializeResult().ServerInfo; got.Name != Name || got.Version != "1.2.3" {
		t.Errorf("server info = %+v, want %s 1.2.3", got, Name)
	}
	want := map[string]bool{"battery_status_get": true, "system_info_get": true, "disk_usage_get": true}
	for _, tl := range res.Tools {
		if !want[tl.Name] {
			t.Errorf("unexpected tool %q", tl.Name)
			continue
		}
		delete(want, tl.Name)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s: annotations %+v, want readOnlyHint=true", tl.Name, tl.Annotations)
		}
		if tl.OutputSchema == nil {
			t.Errorf("%s has no output schema", tl.Name)
		}
		if tl.Description == "" {
			t.Errorf("%s has no description", tl.Name)
		}
	}
	for name := range want {
		t.Errorf("tool %q missing", name)
	}
}

func TestClip(t *testing.T) {
	long := ""
	for len(long) < 300 {
		long += "é"
	}
	got := clip(long)
	if len(got) > maxText+len("…") {
		t.Errorf("clip gave %d bytes, want <= %d", len(got), maxText+len("…"))
	}
	if !json.Valid([]byte(`"`+got+`"`)) || string([]rune(got)) != got {
		t.Errorf("clip split a UTF-8 sequence: %q", got[len(got)-6:])
	}
	if clip("short") != "short" {
		t.Errorf("clip(short) changed it")
	}
}

// waitFor polls cond for up to 30 s (a hang guard).
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second) // a hang guard
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met within 30 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
