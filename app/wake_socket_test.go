//go:build unix

package app

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func TestWakeSocketShowsTheFirstWindow(t *testing.T) {
	for _, cfg := range []string{t.TempDir(), filepath.Join(t.TempDir(), strings.Repeat("long-folder-name-", 8))} {
		if err := os.MkdirAll(cfg, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := wakeBySocket(cfg); err == nil {
			t.Fatal("a wake with nobody listening succeeded")
		}
		// A socket file a crashed instance left behind is replaced.
		if p := wakeSocketPath(cfg); len(p) <= maxSocketPath {
			_ = os.WriteFile(p, nil, 0o600)
		}
		var shown atomic.Int32
		l, err := listenWake(cfg, func() { shown.Add(1) })
		if err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(wakeSocketPath(cfg)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("socket %v mode %v", err, st)
		}
		if err := wakeBySocket(cfg); err != nil {
			t.Fatalf("wake (socket %s): %v", wakeSocketPath(cfg), err)
		}
		if shown.Load() != 1 {
			t.Errorf("shown %d times", shown.Load())
		}
		if err := l.Close(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(wakeSocketPath(cfg)); !os.IsNotExist(err) {
			t.Errorf("socket left after Close: %v", err)
		}
		if err := wakeBySocket(cfg); err == nil {
			t.Error("a wake after Close succeeded")
		}
	}
}
