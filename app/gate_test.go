package app

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

func rawArgs(t *testing.T, vals ...any) []json.RawMessage {
	t.Helper()
	var out []json.RawMessage
	for _, v := range vals {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// A call without the launch's token changes nothing: the theme a frame
// asks for is not saved (docs/mcp-apps.md#bindings).
func TestGateRefusesCallsWithoutTheToken(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	g := newGate(e.app, nil)
	for _, tok := range []string{"", "guess", g.token[:len(g.token)-1], g.token + "x"} {
		if _, err := g.Call(tok, "SetTheme", rawArgs(t, ThemeDark)); !errors.Is(err, ErrBadToken) {
			t.Fatalf("Call(%q) = %v, want ErrBadToken", tok, err)
		}
	}
	if _, err := os.Stat(e.app.paths.Settings); !os.IsNotExist(err) {
		saved, _ := LoadSettings(e.app.paths.Settings)
		if saved.Theme == ThemeDark {
			t.Fatal("a call without the token saved the theme")
		}
	}
	if other := newGate(e.app, nil); other.Handshake() == g.Handshake() || len(g.Handshake()) < 40 {
		t.Fatalf("tokens %q and %q: want a fresh long token per launch", g.Handshake(), other.Handshake())
	}
}

func TestGateCallsAppMethods(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	g := newGate(e.app, nil)
	tok := g.Handshake()
	if out, err := g.Call(tok, "SetTheme", rawArgs(t, ThemeDark)); err != nil || string(out) != "null" {
		t.Fatalf("SetTheme = %s, %v; want null, nil", out, err)
	}
	out, err := g.Call(tok, "Info", nil)
	if err != nil {
		t.Fatal(err)
	}
	var info AppInfo
	if err := json.Unmarshal(out, &info); err != nil || info.Theme != ThemeDark {
		t.Fatalf("Info = %s (%v); want theme dark", out, err)
	}
	// The method's own error comes back as it is.
	if _, err := g.Call(tok, "SetTheme", rawArgs(t, "sepia")); err == nil || !strings.Contains(err.Error(), `theme "sepia"`) {
		t.Fatalf("SetTheme(sepia) = %v", err)
	}
	for _, c := range []struct {
		method string
		args   []json.RawMessage
		want   string
	}{
		{"NoSuchMethod", nil, `the app has no method "NoSuchMethod"`},
		{"shutdown", nil, `the app has no method "shutdown"`},
		{"SetTheme", nil, "SetTheme takes 1 arguments, the call gave 0"},
		{"SetTheme", []json.RawMessage{json.RawMessage(`7`)}, "SetTheme: argument 1:"},
	} {
		if _, err := g.Call(tok, c.method, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Call(%s) = %v, want %q", c.method, err, c.want)
		}
	}
}

// Every function of the page's generated App bindings is a method the
// Gate can call, and every exported App method is in the bindings: the
// page's types and the Gate cannot drift apart.
func TestGateCoversTheGeneratedBindings(t *testing.T) {
	src, err := os.ReadFile("../frontend/src/wailsjs/go/app/App.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^export function (\w+)\(`).FindAllSubmatch(src, -1) {
		names[string(m[1])] = true
	}
	at := reflect.TypeOf(&App{})
	for n := range names {
		if _, ok := at.MethodByName(n); !ok {
			t.Errorf("App.d.ts has %s, App has no such method: run scripts/app-bindings.sh", n)
		}
	}
	for i := range at.NumMethod() {
		if n := at.Method(i).Name; !names[n] {
			t.Errorf("App.%s is not in App.d.ts: run scripts/app-bindings.sh", n)
		}
	}
	if len(names) < 50 {
		t.Fatalf("only %d functions in App.d.ts", len(names))
	}
}
