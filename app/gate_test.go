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
// asks for is not saved (docs/mcp-apps.md#bindings). The token is checked
// before the method is looked up: a call of a method that does not exist
// is refused for its token too.
func TestGateRefusesCallsWithoutTheToken(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	g := newGate(e.app.services(), nil)
	for _, tok := range []string{"", "guess", g.token[:len(g.token)-1], g.token + "x"} {
		for _, method := range []string{"Preferences.SetTheme", "SetTheme", "NoSuch.Method", "engine.close"} {
			if _, err := g.Call(tok, method, rawArgs(t, ThemeDark)); !errors.Is(err, ErrBadToken) {
				t.Fatalf("Call(%q, %s) = %v, want ErrBadToken", tok, method, err)
			}
		}
	}
	if _, err := os.Stat(e.app.paths.Settings); !os.IsNotExist(err) {
		saved, _ := LoadSettings(e.app.paths.Settings)
		if saved.Theme == ThemeDark {
			t.Fatal("a call without the token saved the theme")
		}
	}
	if other := newGate(e.app.services(), nil); other.Handshake() == g.Handshake() || len(g.Handshake()) < 40 {
		t.Fatalf("tokens %q and %q: want a fresh long token per launch", g.Handshake(), other.Handshake())
	}
}

func TestGateCallsServiceMethods(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	g := newGate(e.app.services(), nil)
	tok := g.Handshake()
	if out, err := g.Call(tok, "Preferences.SetTheme", rawArgs(t, ThemeDark)); err != nil || string(out) != "null" {
		t.Fatalf("SetTheme = %s, %v; want null, nil", out, err)
	}
	out, err := g.Call(tok, "Window.Info", nil)
	if err != nil {
		t.Fatal(err)
	}
	var info AppInfo
	if err := json.Unmarshal(out, &info); err != nil || info.Theme != ThemeDark {
		t.Fatalf("Info = %s (%v); want theme dark", out, err)
	}
	// The method's own error comes back as it is.
	if _, err := g.Call(tok, "Preferences.SetTheme", rawArgs(t, "sepia")); err == nil || !strings.Contains(err.Error(), `theme "sepia"`) {
		t.Fatalf("SetTheme(sepia) = %v", err)
	}
	for _, c := range []struct {
		method string
		args   []json.RawMessage
		want   string
	}{
		{"Preferences.NoSuchMethod", nil, `Preferences has no method "NoSuchMethod"`},
		{"Window.filesDropped", nil, `Window has no method "filesDropped"`}, // unexported
		{"Chats.chatChanged", nil, `Chats has no method "chatChanged"`},
		{"NoSuchService.Info", nil, `the app has no service "NoSuchService"`},
		// The parts the services share are not services, whatever the name.
		{"engine.close", nil, `the app has no service "engine"`},
		{"settingsStore.save", nil, `the app has no service "settingsStore"`},
		{"env.extensionStore", nil, `the app has no service "env"`},
		{"desktop.shutdown", nil, `the app has no service "desktop"`},
		{"Gate.Handshake", nil, `the app has no service "Gate"`},
		{"SetTheme", nil, `the app has no method "SetTheme": a call names Service.Method`},
		{"shutdown", nil, `the app has no method "shutdown"`},
		{"Preferences.SetTheme", nil, "Preferences.SetTheme takes 1 arguments, the call gave 0"},
		{"Preferences.SetTheme", []json.RawMessage{json.RawMessage(`7`)}, "Preferences.SetTheme: argument 1:"},
	} {
		if _, err := g.Call(tok, c.method, c.args); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Call(%s) = %v, want %q", c.method, err, c.want)
		}
	}
}

// The Gate's table holds exactly the exported methods of the bound
// services, each once, and nothing of the parts they share (no method
// promoted from env, whose methods are all unexported).
func TestGateTableIsTheServicesExportedMethods(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	g := newGate(e.app.services(), nil)
	want := map[string]bool{}
	for _, s := range e.app.services() {
		st := reflect.TypeOf(s)
		for i := range st.NumMethod() {
			want[st.Elem().Name()+"."+st.Method(i).Name] = true
		}
	}
	if len(g.methods) != len(want) || len(want) < 60 {
		t.Fatalf("the Gate has %d methods, the services export %d", len(g.methods), len(want))
	}
	for k := range g.methods {
		if !want[k] {
			t.Errorf("the Gate has %s, which no service exports", k)
		}
	}
	if n := reflect.TypeFor[*env]().NumMethod(); n != 0 {
		t.Errorf("env has %d exported methods: every service embeds it, so they would be bound", n)
	}
	// The bindings build binds the same services (emptyServices).
	var names, bindNames []string
	for _, s := range e.app.services() {
		names = append(names, reflect.TypeOf(s).String())
	}
	for _, s := range emptyServices() {
		bindNames = append(bindNames, reflect.TypeOf(s).String())
	}
	if !reflect.DeepEqual(names, bindNames) {
		t.Errorf("the Gate's services %v, the bindings' %v", names, bindNames)
	}
}

// Every function of the page's generated bindings of each service is a
// method the Gate can call, and every method the Gate can call is in the
// bindings: the page's types and the Gate cannot drift apart.
func TestGateCoversTheGeneratedBindings(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	g := newGate(e.app.services(), nil)
	names := map[string]bool{}
	for _, s := range e.app.services() {
		svc := reflect.TypeOf(s).Elem().Name()
		src, err := os.ReadFile("../frontend/src/wailsjs/go/app/" + svc + ".d.ts")
		if err != nil {
			t.Fatalf("%v: run scripts/app-bindings.sh", err)
		}
		for _, m := range regexp.MustCompile(`(?m)^export function (\w+)\(`).FindAllSubmatch(src, -1) {
			names[svc+"."+string(m[1])] = true
		}
	}
	for n := range names {
		if _, ok := g.methods[n]; !ok {
			t.Errorf("the bindings have %s, the Gate has no such method: run scripts/app-bindings.sh", n)
		}
	}
	for n := range g.methods {
		if !names[n] {
			t.Errorf("%s is not in the bindings: run scripts/app-bindings.sh", n)
		}
	}
	if len(names) < 60 {
		t.Fatalf("only %d functions in the bindings", len(names))
	}
}
