//go:build unix

package launch

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// shellGuard bounds a real shell's answer (LoginOptions.Timeout) where the
// shell is to answer: its default, LoginShellTimeout (3 s), is short for
// starting a process on a loaded machine.
const shellGuard = 60 * time.Second

// fakeShell writes an executable shell script to a temporary folder.
func fakeShell(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fakesh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// A real shell (a script standing in for zsh) that prints noise on stdout
// and stderr around the command it runs, with its own PATH.
func TestReadLoginPathRealShell(t *testing.T) {
	sh := fakeShell(t, `echo "Last login: noise"
echo "rc noise" >&2
PATH=/login/a:/login/b:/usr/bin
export PATH
/bin/sh -c "$4"
echo "goodbye noise"
`)
	got := ReadLoginPath(context.Background(), LoginOptions{Shell: sh, ProcessPath: "/usr/bin:/proc/bin", IsDir: noDirs, Timeout: shellGuard})
	if want := (SearchPath{Path: "/login/a:/login/b:/usr/bin:/proc/bin", Source: FromLoginShell, Shell: sh}); got != want {
		t.Errorf("ReadLoginPath = %+v; want %+v", got, want)
	}
}

// A shell that exits non-zero, or prints no PATH: the fallback, with why.
func TestReadLoginPathRealShellFails(t *testing.T) {
	for body, reason := range map[string]string{
		"echo broken >&2\nexit 3\n": "failed: exit status 3",
		"echo no markers here\n":    "printed no PATH",
	} {
		sh := fakeShell(t, body)
		got := ReadLoginPath(context.Background(), LoginOptions{Shell: sh, ProcessPath: "/usr/bin", IsDir: noDirs, Timeout: shellGuard})
		if got.Source != FromFallback || got.Path != "/usr/bin" || !strings.Contains(got.Reason, "the login shell "+sh+" "+reason) {
			t.Errorf("%q: ReadLoginPath = %+v; want the fallback because it %s", body, got, reason)
		}
	}
}

// A real shell that hangs with a background job holding its stdout: the
// read ends when its context does (here cancelled once the shell said it
// started, through a FIFO: no sleeps), the process group is killed.
func TestReadLoginPathRealShellHangs(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "started")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	sh := fakeShell(t, `sleep 1000 &
echo started > '`+fifo+`'
wait
`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan SearchPath, 1)
	go func() {
		done <- ReadLoginPath(ctx, LoginOptions{Shell: sh, ProcessPath: "/usr/bin", IsDir: noDirs, Timeout: shellGuard})
	}()
	f, err := os.Open(fifo) // blocks until the shell opens it
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 16)
	f.Read(buf)
	f.Close()
	cancel()
	select {
	case got := <-done:
		if got.Source != FromFallback || !strings.Contains(got.Reason, "the login shell "+sh+" did not answer") {
			t.Errorf("ReadLoginPath = %+v", got)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("ReadLoginPath did not return after its context ended")
	}
}

// An rc file that leaves a background job holding stdout: the PATH the
// shell printed before exiting 0 is used (os/exec reports ErrWaitDelay),
// and the job is killed with the shell's process group. The job holds a
// FIFO open for writing; reading it ends (EOF) only once the job is gone.
func TestReadLoginPathBackgroundJobHoldsStdout(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "job")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs:", err)
	}
	sh := fakeShell(t, `(exec sleep 1000) 3>'`+fifo+`' &
PATH=/login/bin:/usr/bin
export PATH
/bin/sh -c "$4"
exit 0
`)
	gone := make(chan error, 1)
	go func() {
		f, err := os.Open(fifo) // blocks until the job opens it
		if err != nil {
			gone <- err
			return
		}
		defer f.Close()
		_, err = io.ReadAll(f) // EOF once the job's end is closed: it died
		gone <- err
	}()
	got := ReadLoginPath(context.Background(), LoginOptions{Shell: sh, ProcessPath: "/usr/bin:/proc/bin", IsDir: noDirs, Timeout: shellGuard})
	if want := (SearchPath{Path: "/login/bin:/usr/bin:/proc/bin", Source: FromLoginShell, Shell: sh}); got != want {
		t.Errorf("ReadLoginPath = %+v; want %+v", got, want)
	}
	select {
	case err := <-gone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the rc file's background job is still running after ReadLoginPath returned")
	}
}
