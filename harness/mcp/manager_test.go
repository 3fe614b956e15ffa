//go:build unix

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

func TestManager(t *testing.T) {
	f := newHTTPFixture(t)
	srv := map[string]tool.MCPServer{}
	for _, s := range []tool.MCPServer{
		selfServer(t, "helper", "helper"),
		selfServer(t, "broken", "exit-at-start"),
		f.server(goodHeaders),
	} {
		srv[s.Namespace] = s
	}
	m := NewManager(&Options{Logger: slog.New(slog.NewTextHandler(tWriter{t}, nil))})
	ctx := context.Background()

	// Concurrent first uses share one start.
	const n = 8
	got := make([]*Provider, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := m.Provider(ctx, srv["helper"])
			if err != nil {
				t.Error(err)
			}
			got[i] = p
		}()
	}
	wg.Wait()
	for i := 1; i < n; i++ {
		if got[i] != got[0] {
			t.Fatalf("Provider returned different providers to concurrent callers")
		}
	}
	first := got[0]
	pid := first.stdio.pid()

	// A crashed provider is replaced on next use.
	if _, err := first.CallTool(ctx, "crash", json.RawMessage(`{"stderr_bytes":0,"marker":"bye","code":4}`), nil); err == nil {
		t.Fatal("crash call succeeded")
	} else {
		t.Logf("crash: %v", err)
	}
	second, err := m.Provider(ctx, srv["helper"])
	if err != nil {
		t.Fatal(err)
	}
	if second == first || !second.Alive() || second.stdio.pid() == pid {
		t.Errorf("after a crash Provider returned the old provider (alive %v)", second.Alive())
	}
	if !processGone(pid) {
		t.Errorf("crashed provider %d not reaped", pid)
	}

	// A failed start is reported each time, not cached.
	for range 2 {
		_, err := m.Provider(ctx, srv["broken"])
		if err == nil {
			t.Fatal("Provider(broken) succeeded")
		}
		mustContain(t, "error", err.Error(), "exited during start", "fatal: cannot open config")
	}
	lights, err := m.Provider(ctx, srv["lights"])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := lights.CallTool(ctx, "progress", json.RawMessage(`{"count":1}`), nil); err != nil {
		t.Fatal(err)
	}

	pid2 := second.stdio.pid()
	within(t, hangGuard, "Manager.Close", func() {
		if err := m.Close(); err != nil {
			t.Error(err)
		}
	})
	if !processGone(pid2) || second.Alive() || lights.Alive() {
		t.Errorf("after Close: helper gone %v, helper alive %v, lights alive %v", processGone(pid2), second.Alive(), lights.Alive())
	}
	if _, err := m.Provider(ctx, srv["helper"]); !errors.Is(err, ErrClosed) {
		t.Errorf("Provider after Close = %v, want ErrClosed", err)
	}
	if err := m.Close(); err != nil {
		t.Errorf("second Close = %v", err)
	}
}

// TestManagerRememberFailedStarts: with RememberFailedStarts a failed start
// is reported again without starting the program again; without it every
// use starts it anew.
func TestManagerRememberFailedStarts(t *testing.T) {
	for _, remember := range []bool{true, false} {
		starts := filepath.Join(t.TempDir(), "starts")
		srv := selfServer(t, "broken", "exit-at-start")
		srv.Env[startsEnv] = starts
		m := NewManager(&Options{RememberFailedStarts: remember})
		for range 3 {
			_, err := m.Provider(context.Background(), srv)
			if err == nil {
				t.Fatal("Provider(broken) succeeded")
			}
			mustContain(t, "error", err.Error(), "exited during start", "fatal: cannot open config")
		}
		m.Close()
		b, err := os.ReadFile(starts)
		if err != nil {
			t.Fatal(err)
		}
		want := 3
		if remember {
			want = 1
		}
		if got := strings.Count(string(b), "start\n"); got != want {
			t.Errorf("RememberFailedStarts=%v: the program started %d times, want %d", remember, got, want)
		}
	}
}

func TestManagerWaitRespectsContext(t *testing.T) {
	mute := selfServer(t, "mute", "hang")
	m := NewManager(&Options{StartTimeout: time.Hour})
	defer m.Close()
	// The first use starts a server that never answers initialize: the
	// start holds the namespace until startCtx ends.
	startCtx, stopStart := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := m.Provider(startCtx, mute); first <- err }()
	defer func() { stopStart(); <-first }()
	waitFor(t, hangGuard, "the first use holds the start", func() bool {
		m.mu.Lock()
		e := m.entries[Key(mute)]
		m.mu.Unlock()
		return e != nil && len(e.sem) == 1
	})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	within(t, hangGuard, "Provider waiting on a slow start", func() {
		_, err := m.Provider(ctx, mute)
		if !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), `waiting for MCP provider "mute" to start`) {
			t.Errorf("Provider = %v, want it to give up waiting with context.DeadlineExceeded", err)
		}
	})
	select {
	case err := <-first:
		t.Fatalf("the first start ended (%v) before it was cancelled", err)
	default:
	}
}

// TestManagerRetain: a configuration in keep keeps its process, one that is
// not is ended; the same namespace with another configuration is another
// provider, and a Source change alone is the same one.
func TestManagerRetain(t *testing.T) {
	m := NewManager(nil)
	defer m.Close()
	ctx := context.Background()
	a := selfServer(t, "helper", "helper")
	moved := a
	moved.Source = "servers.json:9"
	b := selfServer(t, "helper", "helper")
	b.Env["EXTRA"] = "1"
	if Key(a) != Key(moved) || Key(a) == Key(b) {
		t.Fatalf("Key: a %s, moved %s, b %s; want a == moved != b", Key(a), Key(moved), Key(b))
	}
	pa, err := m.Provider(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	pb, err := m.Provider(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := m.Provider(ctx, moved); again != pa {
		t.Error("a moved entry started a second process")
	}
	if got := m.Running(); strings.Join(got, ",") != "helper,helper" {
		t.Errorf("Running = %v, want two helpers", got)
	}
	if err := m.Retain(func() []tool.MCPServer { return []tool.MCPServer{b} }); err != nil {
		t.Fatal(err)
	}
	if pa.Alive() || !processGone(pa.stdio.pid()) || !pb.Alive() {
		t.Errorf("after Retain(b): a alive %v (gone %v), b alive %v", pa.Alive(), processGone(pa.stdio.pid()), pb.Alive())
	}
	if got := m.Running(); len(got) != 1 {
		t.Errorf("Running after Retain = %v, want one", got)
	}
	// A released configuration starts afresh on its next use.
	pa2, err := m.Provider(ctx, a)
	if err != nil || pa2 == pa || !pa2.Alive() {
		t.Errorf("Provider(a) after Retain = %v, %v; want a new live provider", pa2, err)
	}
}

func TestTailBuffer(t *testing.T) {
	b := newTailBuffer(10)
	b.Write([]byte("abc"))
	if got := b.String(); got != "abc" {
		t.Errorf("tail = %q, want abc", got)
	}
	b.Write([]byte("defgh\nijkl"))
	if got := b.String(); got != "…ijkl" {
		t.Errorf("tail = %q, want …ijkl (cut at the line after the drop)", got)
	}
	b.Write([]byte("0123456789ABCDEF"))
	if got := b.String(); got != "…6789ABCDEF" {
		t.Errorf("tail = %q, want …6789ABCDEF", got)
	}
	for range 1000 {
		b.Write([]byte("xy"))
	}
	if got := b.String(); got != "…xyxyxyxyxy" || b.Total() != 16+13+2000 {
		t.Errorf("tail = %q total %d", got, b.Total())
	}
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}
