package darwin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openworker/desktop/platform/internal/core"
	"github.com/openworker/desktop/platform/internal/testkit"
)

// beeepFallbackScript is beeep v0.12.0's osascript fallback script
// (notify_darwin.go, osascript, not urgent); TestBeeepFallbackSourcePinned
// checks that beeep still builds it this way.
func beeepFallbackScript(title, message string) string {
	return fmt.Sprintf("display notification %q with title %q", message, title)
}

// readAppleScriptString reads one AppleScript string literal at the start
// of s, with the escapes AppleScript knows (\" \\ \n \r \t), and returns
// its text and the rest of s. Any other escape is an error: AppleScript
// would not read it back as the text.
func readAppleScriptString(s string) (text, rest string, err error) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", errors.New("no opening quote")
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; c {
		case '"':
			return b.String(), s[i+1:], nil
		case '\\':
			if i+1 == len(s) {
				return "", "", errors.New("backslash at the end")
			}
			i++
			r, ok := map[byte]byte{'"': '"', '\\': '\\', 'n': '\n', 'r': '\r', 't': '\t'}[s[i]]
			if !ok {
				return "", "", fmt.Errorf("AppleScript has no escape \\%c", s[i])
			}
			b.WriteByte(r)
		default:
			b.WriteByte(c)
		}
	}
	return "", "", errors.New("no closing quote")
}

// parseFallback reads beeep's fallback script back into title and body, as
// AppleScript would.
func parseFallback(script string) (title, body string, err error) {
	rest, ok := strings.CutPrefix(script, "display notification ")
	if !ok {
		return "", "", errors.New("not a display notification command")
	}
	if body, rest, err = readAppleScriptString(rest); err != nil {
		return "", "", fmt.Errorf("body: %w", err)
	}
	if rest, ok = strings.CutPrefix(rest, " with title "); !ok {
		return "", "", fmt.Errorf("the body literal ended early; the script goes on with %q", clip(rest))
	}
	if title, rest, err = readAppleScriptString(rest); err != nil {
		return "", "", fmt.Errorf("title: %w", err)
	}
	if rest != "" {
		return "", "", fmt.Errorf("the title literal ended early; the script goes on with %q", clip(rest))
	}
	return title, body, nil
}

// TestViaBeeepHostile: every hostile text that ViaBeeep lets through to
// beeep is read back by AppleScript exactly from beeep's fallback script,
// and every one it keeps off beeep would not be.
func TestViaBeeepHostile(t *testing.T) {
	offBeeep := map[string]bool{"rtl": true, "zero_width": true, "emoji": true} // bidi, zero-width and ZWJ marks
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			req := core.NotifyRequest{Title: "T " + c.Name, Body: c.Text}
			if len(c.Text) <= core.MaxTitleBytes {
				req.Title = c.Text
			}
			via := ViaBeeep(req)
			if via == offBeeep[c.Name] {
				t.Fatalf("ViaBeeep = %v, want %v", via, !offBeeep[c.Name])
			}
			title, body, err := parseFallback(beeepFallbackScript(req.Title, req.Body))
			exact := err == nil && title == req.Title && body == req.Body
			if via && !exact {
				t.Errorf("beeep's fallback would not carry it exactly: %v (title %q, body %q)", err, clip(title), clip(body))
			}
			if !via && exact {
				t.Error("ViaBeeep keeps text off beeep that its fallback carries exactly")
			}
		})
	}
	if ViaBeeep(core.NotifyRequest{Title: "ok", Body: "a\u00a0b"}) || ViaBeeep(core.NotifyRequest{Title: "a\x07b"}) {
		t.Error("ViaBeeep let a no-break space or a BEL through")
	}
}

// TestBeeepFallbackSourcePinned reads beeep's macOS source in the module
// cache: the fallback must still be the script beeepFallbackScript builds,
// run as one -e argument.
func TestBeeepFallbackSourcePinned(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to find beeep's source")
	}
	out, err := exec.Command(goBin, "list", "-m", "-f", "{{.Dir}}", "github.com/gen2brain/beeep").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Skipf("beeep's module directory: %v", err)
	}
	src, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(out)), "notify_darwin.go"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`script = fmt.Sprintf("display notification %q with title %q", message, title)`,
		`return exec.Command(osa, "-e", script).Run()`,
		`err2 := osascript(title, message, urgent)`,
	} {
		if !strings.Contains(string(src), want) {
			t.Errorf("beeep's notify_darwin.go no longer contains %s: review ViaBeeep and the package doc", want)
		}
	}
}

// TestNotifyRoutes: through an adapter with a fake osascript and a
// recording beeep, text ViaBeeep accepts reaches beeep exactly and runs no
// osascript; the rest reaches osascript only as argv.
func TestNotifyRoutes(t *testing.T) {
	for _, c := range testkit.Hostile() {
		t.Run(c.Name, func(t *testing.T) {
			a, argvOut := fakeAdapter(t, "notify")
			var got []any
			a.beeep = func(title, message string, icon any) error {
				got = []any{title, message, icon}
				return nil
			}
			req := core.NotifyRequest{Title: "T " + c.Name, Body: c.Text, Icon: "/Applications/OpenWorker.app/icon.png"}
			if err := a.Notify(context.Background(), req); err != nil {
				t.Fatal(err)
			}
			_, ranOsascript := os.Stat(argvOut)
			if ViaBeeep(req) {
				if fmt.Sprint(got) != fmt.Sprint([]any{req.Title, req.Body, req.Icon}) || ranOsascript == nil {
					t.Errorf("beeep got %q, osascript ran: %v", got, ranOsascript == nil)
				}
				return
			}
			data, err := os.ReadFile(argvOut)
			if got != nil || err != nil {
				t.Fatalf("beeep got %q; osascript argv: %v", got, err)
			}
			var seen []string
			_ = json.Unmarshal(data, &seen)
			if want, _ := NotifyCommand(req); !slices.Equal(seen, want[1:]) {
				t.Errorf("osascript saw %q, want %q", seen, want[1:])
			}
		})
	}
	a, _ := fakeAdapter(t, "notify")
	a.beeep = func(string, string, any) error { return errors.New("beeep: boom") }
	if err := a.Notify(context.Background(), core.NotifyRequest{Title: "t"}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Errorf("a failing beeep = %v, want its error", err)
	}
}
