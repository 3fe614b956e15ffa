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
	reg := tool.NewRegistry()
	for _, s := range []tool.MCPServer{
		selfServer(t, "helper", "helper"),
		selfServer(t, "broken", "exit-at-start"),
		f.server(goodHeaders),
	} {
		if err := reg.RegisterMCP(s); err != nil {
			t.Fatal(err)
		}
	}
	m := NewManager(reg, &Options{Logger: slog.New(slog.NewTextHandler(tWriter{t}, nil))})
	ctx := context.Background()

	// Concurrent first uses share one start.
	const n = 8
	got := make([]*Provider, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := m.Provider(ctx, "helper")
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
	second, err := m.Provider(ctx, "helper")
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
		_, err := m.Provider(ctx, "broken")
		if err == nil {
			t.Fatal("Provider(broken) succeeded")
		}
		mustContain(t, "error", err.Error(), "exited during start", "fatal: cannot open config")
	}
	if _, err := m.Provider(ctx, "nope"); err == nil {
		t.Error("Provider(nope) succeeded for an unregistered namespace")
	}
	lights, err := m.Provider(ctx, "lights")
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
	if _, err := m.Provider(ctx, "helper"); !errors.Is(err, ErrClosed) {
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
		reg := tool.NewRegistry()
		if err := reg.RegisterMCP(srv); err != nil {
			t.Fatal(err)
		}
		m := NewManager(reg, &Options{RememberFailedStarts: remember})
		for range 3 {
			_, err := m.Provider(context.Background(), "broken")
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
	reg := tool.NewRegistry()
	if err := reg.RegisterMCP(selfServer(t, "mute", "hang")); err != nil {
		t.Fatal(err)
	}
	m := NewManager(reg, &Options{StartTimeout: time.Hour})
	defer m.Close()
	// The first use starts a server that never answers initialize: the
	// start holds the namespace until startCtx ends.
	startCtx, stopStart := context.WithCancel(context.Background())
	first := make(chan error, 1)
	go func() { _, err := m.Provider(startCtx, "mute"); first <- err }()
	defer func() { stopStart(); <-first }()
	waitFor(t, hangGuard, "the first use holds the start", func() bool {
		m.mu.Lock()
		e := m.entries["mute"]
		m.mu.Unlock()
		return e != nil && len(e.sem) == 1
	})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	within(t, hangGuard, "Provider waiting on a slow start", func() {
		_, err := m.Provider(ctx, "mute")
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
