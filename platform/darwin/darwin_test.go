package darwin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

// TestMain lets the test binary play osascript: with FAKE_OSASCRIPT set it
// records its argv and answers like the dialog script would.
func TestMain(m *testing.M) {
	if os.Getenv(probeEnv) != "" {
		os.Exit(userCenterProbe())
	}
	if mode := os.Getenv("FAKE_OSASCRIPT"); mode != "" {
		os.Exit(fakeOsascript(mode, os.Args[1:]))
	}
	os.Exit(m.Run())
}

func fakeOsascript(mode string, args []string) int {
	if out := os.Getenv("FAKE_ARGV_OUT"); out != "" {
		data, _ := json.Marshal(args)
		if err := os.WriteFile(out, data, 0o644); err != nil {
			return 3
		}
	}
	i := slices.Index(args, argvMarker)
	switch mode {
	case "default":
		fmt.Printf("button\n%s\n", args[i+4])
	case "last":
		fmt.Printf("button\n%s\n", args[len(args)-1])
	case "gave-up", "canceled":
		fmt.Println(mode)
	case "sleep":
		time.Sleep(time.Minute)
	case "fail":
		fmt.Fprintln(os.Stderr, "execution error: boom (-2700)")
		return 1
	}
	return 0
}

func hostileAsk(c testkit.Case) core.AskRequest {
	req := core.AskRequest{Title: c.Text, Message: c.Text, Buttons: []string{c.Text, "No"}, Cancel: "No", Timeout: 90 * time.Second}
	if len(c.Text) > core.MaxTitleBytes {
		req.Title = "Ten kilobytes"
	}
	if (core.AskRequest{Buttons: []string{c.Text}, Timeout: time.Second}).Validate() != nil {
		req.Buttons[0] = "Yes"
	}
	return req
}

func scriptOf(argv []string) (script, args []string) {
	i := slices.Index(argv, argvMarker)
	for j := 1; j < i; j += 2 {
		script = append(script, argv[j+1])
	}
	return script, argv[i+1:]
}

func TestDialogCommandGolden(t *testing.T) {
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			req := hostileAsk(c)
			argv, err := DialogCommand(req)
			if err != nil {
				t.Fatal(err)
			}
			script, args := scriptOf(argv)
			if !slices.Equal(script, dialogScript) {
				t.Fatalf("the AppleScript source changed with the input: %q", script)
			}
			want := append([]string{req.Message, req.Title, "90", req.Buttons[0], "No", "1"}, req.Buttons...)
			if !slices.Equal(args, want) {
				t.Errorf("DialogCommand args = %q, want %q", args, want)
			}
			testkit.Golden(t, "dialog_"+c.Name+".golden", testkit.JSON(t, argv))
		})
	}
}

func TestNotifyCommandGolden(t *testing.T) {
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			req := core.NotifyRequest{Title: "T " + c.Name, Body: c.Text}
			argv, err := NotifyCommand(req)
			if err != nil {
				t.Fatal(err)
			}
			script, args := scriptOf(argv)
			if !slices.Equal(script, notifyScript) || !slices.Equal(args, []string{c.Text, "T " + c.Name}) {
				t.Errorf("NotifyCommand = %q", argv)
			}
			testkit.Golden(t, "notify_"+c.Name+".golden", testkit.JSON(t, argv))
		})
	}
}

func TestRefusesBadRequests(t *testing.T) {
	ok := core.AskRequest{Message: "m", Buttons: []string{"Yes", "No"}, Timeout: time.Minute}
	bad := map[string]func(r *core.AskRequest){
		"nul message":      func(r *core.AskRequest) { r.Message = testkit.NUL },
		"nul title":        func(r *core.AskRequest) { r.Title = testkit.NUL },
		"nul button":       func(r *core.AskRequest) { r.Buttons = []string{"a\x00b"} },
		"no buttons":       func(r *core.AskRequest) { r.Buttons = nil },
		"four buttons":     func(r *core.AskRequest) { r.Buttons = []string{"a", "b", "c", "d"} },
		"duplicate":        func(r *core.AskRequest) { r.Buttons = []string{"a", "a"} },
		"empty button":     func(r *core.AskRequest) { r.Buttons = []string{"a", " "} },
		"newline button":   func(r *core.AskRequest) { r.Buttons = []string{"a\nb"} },
		"unknown default":  func(r *core.AskRequest) { r.Default = "Maybe" },
		"unknown cancel":   func(r *core.AskRequest) { r.Cancel = "Maybe" },
		"zero timeout":     func(r *core.AskRequest) { r.Timeout = 0 },
		"long message":     func(r *core.AskRequest) { r.Message = strings.Repeat("x", core.MaxMessageBytes+1) },
		"invalid utf8":     func(r *core.AskRequest) { r.Message = "\xff" },
		"unknown icon":     func(r *core.AskRequest) { r.Icon = "skull" },
		"long button text": func(r *core.AskRequest) { r.Buttons = []string{strings.Repeat("b", core.MaxButtonBytes+1)} },
	}
	for name, mutate := range bad {
		r := ok
		mutate(&r)
		if _, err := DialogCommand(r); !errors.Is(err, core.ErrInvalid) {
			t.Errorf("%s: DialogCommand error = %v, want ErrInvalid", name, err)
		}
	}
	_, err := NotifyCommand(core.NotifyRequest{Title: "t", Body: testkit.NUL})
	if err == nil || !strings.Contains(err.Error(), "NUL byte at offset 6") {
		t.Errorf("NotifyCommand with NUL = %v, want a clear NUL error", err)
	}
}

func fakeAdapter(t *testing.T, mode string) (*Adapter, string) {
	t.Helper()
	argvOut := filepath.Join(t.TempDir(), "argv.json")
	t.Setenv("FAKE_OSASCRIPT", mode)
	t.Setenv("FAKE_ARGV_OUT", argvOut)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return New(&Options{Program: exe}), argvOut
}

func TestAskThroughProcess(t *testing.T) {
	req := core.AskRequest{Title: testkit.Injection, Message: "line\n" + testkit.Injection, Buttons: []string{"Approve 👍", "Deny", "Cancel"}, Default: "Deny", Timeout: 3 * time.Second}
	cases := []struct {
		mode string
		want core.AskResult
	}{
		{"default", core.AskResult{Button: "Deny"}},
		{"last", core.AskResult{Button: "Cancel"}},
		{"gave-up", core.AskResult{TimedOut: true}},
		{"canceled", core.AskResult{Button: "Cancel"}},
	}
	for _, c := range cases {
		a, argvOut := fakeAdapter(t, c.mode)
		got, err := a.Ask(context.Background(), req)
		if err != nil || got != c.want {
			t.Errorf("%s: Ask = %+v, %v, want %+v", c.mode, got, err, c.want)
		}
		data, err := os.ReadFile(argvOut)
		if err != nil {
			t.Fatal(err)
		}
		var seen []string
		_ = json.Unmarshal(data, &seen)
		want, _ := DialogCommand(req)
		if !slices.Equal(seen, want[1:]) {
			t.Errorf("%s: the process saw argv %q, want %q", c.mode, seen, want[1:])
		}
	}
}

func TestAskFailures(t *testing.T) {
	req := core.AskRequest{Message: "m", Buttons: []string{"OK"}, Timeout: time.Second}
	a, _ := fakeAdapter(t, "fail")
	if _, err := a.Ask(context.Background(), req); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("Ask with failing osascript = %v, want its stderr", err)
	}
	a, _ = fakeAdapter(t, "canceled")
	if _, err := a.Ask(context.Background(), req); err == nil {
		t.Error("a cancel without a cancel button was accepted")
	}
	if _, err := ParseDialogOutput(req, "button\nNot a button\n"); err == nil {
		t.Error("ParseDialogOutput accepted an unknown label")
	}
}

func TestAskCancelKillsOsascript(t *testing.T) {
	a, _ := fakeAdapter(t, "sleep")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	// The fake sleeps a minute: an Ask that returns within hangGuard of
	// the cancel killed it.
	done := make(chan error, 1)
	go func() {
		_, err := a.Ask(ctx, core.AskRequest{Message: "m", Buttons: []string{"OK"}, Timeout: time.Minute})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Ask after cancel = %v, want context.Canceled", err)
		}
	case <-time.After(hangGuard):
		t.Fatalf("Ask did not return within %v of the cancel; osascript was not killed", hangGuard)
	}
}

// hangGuard bounds a wait that only catches a hang (an Ask that waits for
// osascript after a cancel). It is far longer than killing it takes on a
// loaded machine and shorter than the fake's minute, so it measures no
// speed.
const hangGuard = 30 * time.Second

func TestUnsupportedElsewhere(t *testing.T) {
	a := New(nil)
	if supported {
		t.Skip("on macOS the real adapter is enabled")
	}
	err := a.Notify(context.Background(), core.NotifyRequest{Title: "t"})
	if !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("Notify off macOS = %v, want ErrUnsupported", err)
	}
	if c := a.Capabilities(); c.Notify || c.Ask || c.Why == "" {
		t.Errorf("Capabilities off macOS = %+v", c)
	}
}
