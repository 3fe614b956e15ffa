package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/platform"
)

type fakeDialog struct {
	calls []platform.AskRequest
	res   platform.AskResult
	err   error
}

func (f *fakeDialog) ask(_ context.Context, r platform.AskRequest) (platform.AskResult, error) {
	f.calls = append(f.calls, r)
	return f.res, f.err
}

func runDemo(t *testing.T, args []string, stdin string, goos string, terminal bool, f *fakeDialog) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	isTerm := func(io.Reader) bool { return terminal }
	code := run(context.Background(), args, strings.NewReader(stdin), &out, &errOut, goos, env{isTerminal: isTerm, ask: f.ask})
	return code, out.String(), errOut.String()
}

func TestNotMacOS(t *testing.T) {
	f := &fakeDialog{}
	code, _, stderr := runDemo(t, []string{"--yes"}, "", "linux", true, f)
	if code != 2 || !strings.Contains(stderr, "macOS-only") || len(f.calls) != 0 {
		t.Errorf("on linux: code %d, stderr %q, dialogs %d", code, stderr, len(f.calls))
	}
}

func TestRefusesWithoutTerminal(t *testing.T) {
	f := &fakeDialog{}
	// The real terminal check: a strings.Reader is not a terminal.
	var out, errOut bytes.Buffer
	code := run(context.Background(), nil, strings.NewReader("yes\n"), &out, &errOut, "darwin", env{isTerminal: stdinIsTerminal, ask: f.ask})
	if code != 1 || !strings.Contains(errOut.String(), "not a terminal") || len(f.calls) != 0 {
		t.Errorf("no terminal: code %d, stderr %q, dialogs %d", code, errOut.String(), len(f.calls))
	}
}

func TestRefusesOtherAnswers(t *testing.T) {
	for _, answer := range []string{"no\n", "y\n", "YES please\n", "", "yess\n"} {
		f := &fakeDialog{}
		code, _, stderr := runDemo(t, nil, answer, "darwin", true, f)
		if code != 1 || !strings.Contains(stderr, "did not type yes") || len(f.calls) != 0 {
			t.Errorf("answer %q: code %d, stderr %q, dialogs %d", answer, code, stderr, len(f.calls))
		}
	}
}

func TestConsentShowsDialog(t *testing.T) {
	f := &fakeDialog{res: platform.AskResult{Button: "Looks good"}}
	code, stdout, _ := runDemo(t, []string{"--timeout", "5s"}, "yes\n", "darwin", true, f)
	if code != 0 || !strings.Contains(stdout, "You pressed: Looks good") || !strings.Contains(stdout, "bypasses the OpenWorker harness") {
		t.Errorf("consent: code %d, stdout %q", code, stdout)
	}
	if len(f.calls) != 1 || f.calls[0].Timeout != 5*time.Second {
		t.Errorf("dialogs = %+v", f.calls)
	}
}

func TestScriptedConsent(t *testing.T) {
	f := &fakeDialog{res: platform.AskResult{TimedOut: true}}
	code, stdout, _ := runDemo(t, []string{"--yes"}, "", "darwin", false, f)
	if code != 0 || !strings.Contains(stdout, "No answer") || len(f.calls) != 1 {
		t.Errorf("--yes: code %d, stdout %q", code, stdout)
	}
	f = &fakeDialog{err: errors.New("osascript: boom")}
	if code, _, stderr := runDemo(t, []string{"--yes"}, "", "darwin", false, f); code != 1 || !strings.Contains(stderr, "boom") {
		t.Errorf("failing dialog: code %d, stderr %q", code, stderr)
	}
}

func TestBadUsage(t *testing.T) {
	for _, args := range [][]string{{"--nope"}, {"extra"}, {"--yes", "--message", "a\x00b"}, {"--yes", "--timeout", "0s"}} {
		f := &fakeDialog{}
		if code, _, _ := runDemo(t, args, "", "darwin", true, f); code != 2 || len(f.calls) != 0 {
			t.Errorf("args %q: code %d", args, code)
		}
	}
}
