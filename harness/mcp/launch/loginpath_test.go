package launch

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

var markers = regexp.MustCompile(`__OPENWORKER_PATH_[0-9a-f]+_(BEGIN|END)__`)

// answering is a shell runner that prints noise around the markers of the
// script it is given, as rc files do, with path between them.
func answering(t *testing.T, path string) ShellRunner {
	return func(_ context.Context, shell string, args []string) ([]byte, error) {
		if shell != "/bin/zsh" || len(args) != 4 || strings.Join(args[:3], " ") != "-i -l -c" {
			t.Errorf("runner got %s %q; want /bin/zsh -i -l -c SCRIPT", shell, args)
		}
		m := markers.FindAllString(args[3], -1)
		if len(m) != 2 {
			t.Fatalf("script %q has no markers", args[3])
		}
		return []byte("Last login: Tue on ttys001\n" + m[0] + path + m[1] + "\n[oh-my-zsh] update?\n"), nil
	}
}

func noDirs(string) bool { return false }

// The login PATH comes first, then the process PATH's folders not in it;
// the noise around the markers is ignored.
func TestReadLoginPathMerges(t *testing.T) {
	got := ReadLoginPath(context.Background(), LoginOptions{Shell: "/bin/zsh", ProcessPath: "/usr/bin:/bin:/opt/app/bin:/usr/bin",
		Run: answering(t, "/opt/homebrew/bin:/Users/ann/.volta/bin:/usr/bin:/bin"), IsDir: noDirs})
	want := SearchPath{Path: "/opt/homebrew/bin:/Users/ann/.volta/bin:/usr/bin:/bin:/opt/app/bin", Source: FromLoginShell, Shell: "/bin/zsh"}
	if got != want {
		t.Errorf("ReadLoginPath = %+v; want %+v", got, want)
	}
	if d := got.Describe(); d != "the login shell /bin/zsh" {
		t.Errorf("Describe = %q", d)
	}
	if m := MergePath("/a:/b::/a", "/b:/c: /d "); m != "/a:/b:/c:/d" {
		t.Errorf("MergePath = %q", m)
	}
}

// Without $SHELL: the process PATH plus the usual folders that exist, and
// the reason.
func TestReadLoginPathFallback(t *testing.T) {
	t.Setenv("SHELL", "")
	exists := map[string]bool{"/opt/homebrew/bin": true, "/home/ann/.cargo/bin": true, "/usr/bin": true}
	got := ReadLoginPath(context.Background(), LoginOptions{ProcessPath: "/usr/bin:/bin", Home: "/home/ann",
		Run: func(context.Context, string, []string) ([]byte, error) {
			t.Error("runner called without a shell")
			return nil, nil
		},
		IsDir: func(p string) bool { return exists[p] }})
	want := SearchPath{Path: "/usr/bin:/bin:/opt/homebrew/bin:/home/ann/.cargo/bin", Source: FromFallback, Reason: "$SHELL is not set"}
	if got != want {
		t.Errorf("ReadLoginPath = %+v; want %+v", got, want)
	}
	if d := got.Describe(); !strings.Contains(d, "because $SHELL is not set") {
		t.Errorf("Describe = %q", d)
	}
}

// A shell that never answers costs exactly the 3 s bound (fake time), then
// the fallback says so.
func TestReadLoginPathBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		got := ReadLoginPath(context.Background(), LoginOptions{Shell: "/bin/zsh", ProcessPath: "/usr/bin", IsDir: noDirs,
			Run: func(ctx context.Context, _ string, _ []string) ([]byte, error) { <-ctx.Done(); return nil, ctx.Err() }})
		if took := time.Since(start); took != LoginShellTimeout {
			t.Errorf("took %v; want the bound %v", took, LoginShellTimeout)
		}
		if got.Source != FromFallback || got.Path != "/usr/bin" || got.Reason != "the login shell /bin/zsh did not answer within 3s" {
			t.Errorf("ReadLoginPath = %+v", got)
		}
	})
}

// Start never blocks; Wait returns the fallback when its ctx ends first,
// and the login PATH once the read is done.
func TestReaderNeverBlocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		answer := make(chan struct{})
		r := NewReader(LoginOptions{Shell: "/bin/zsh", ProcessPath: "/usr/bin", IsDir: noDirs,
			Run: func(ctx context.Context, shell string, args []string) ([]byte, error) {
				<-answer
				return answering(t, "/login/bin")(ctx, shell, args)
			}})
		r.Start()
		r.Start() // once
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		if got := r.Wait(ctx); got.Source != FromFallback || !strings.Contains(got.Reason, "had not answered") {
			t.Errorf("Wait before the answer = %+v; want the fallback", got)
		}
		close(answer)
		if got := r.Wait(context.Background()); got.Path != "/login/bin:/usr/bin" || got.Source != FromLoginShell {
			t.Errorf("Wait after the answer = %+v", got)
		}
	})
}

// ".", empty and relative entries never reach the merged search PATH.
func TestMergePathDropsRelative(t *testing.T) {
	if m := MergePath("/a:.:bin::./x:/b", "node_modules/.bin:/c:..:/a"); m != "/a:/b:/c" {
		t.Errorf("MergePath = %q; want /a:/b:/c", m)
	}
}
