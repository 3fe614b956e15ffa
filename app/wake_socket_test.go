//go:build unix

package app

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestWakeSocketShowsTheFirstWindow(t *testing.T) {
	for _, cfg := range []string{t.TempDir(), filepath.Join(t.TempDir(), strings.Repeat("long-folder-name-", 8))} {
		if err := os.MkdirAll(cfg, 0o700); err != nil {
			t.Fatal(err)
		}
		sent := secondLaunch{Args: []string{"--model", "m", "ext/x.mcpb"}, WorkingDirectory: "/work/dir"}
		if err := wakeBySocket(cfg, sent); err == nil {
			t.Fatal("a wake with nobody listening succeeded")
		}
		// A socket file a crashed instance left behind is replaced.
		if p := wakeSocketPath(cfg); len(p) <= maxSocketPath {
			_ = os.WriteFile(p, nil, 0o600)
		}
		got := make(chan secondLaunch, 2)
		l, err := listenWake(cfg, func(l secondLaunch) { got <- l })
		if err != nil {
			t.Fatal(err)
		}
		if st, err := os.Stat(wakeSocketPath(cfg)); err != nil || st.Mode().Perm() != 0o600 {
			t.Errorf("socket %v mode %v", err, st)
		}
		if err := wakeBySocket(cfg, sent); err != nil {
			t.Fatalf("wake (socket %s): %v", wakeSocketPath(cfg), err)
		}
		// The reply comes after onLaunch returned: it was called once, with
		// the second start's args and folder.
		if len(got) != 1 {
			t.Fatalf("onLaunch called %d times", len(got))
		}
		if l := <-got; !slices.Equal(l.Args, sent.Args) || l.WorkingDirectory != sent.WorkingDirectory {
			t.Errorf("first instance got %+v, want %+v", l, sent)
		}
		if err := l.Close(); err != nil {
			t.Error(err)
		}
		if _, err := os.Stat(wakeSocketPath(cfg)); !os.IsNotExist(err) {
			t.Errorf("socket left after Close: %v", err)
		}
		if err := wakeBySocket(cfg, sent); err == nil {
			t.Error("a wake after Close succeeded")
		}
	}
}
