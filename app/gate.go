package app

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"reflect"
	"strings"
)

// Gate is the one object the window's page may call (docs/mcp-apps.md#bindings).
//
// WebKit (Linux, macOS) gives its script message handler to every frame of
// the page, frames of other origins and sandboxed ones too, and Wails checks
// only the address of the top document. An MCP App view runs in a frame of
// the window, so without a gate it could call any method of the app blind:
// save settings that send the model elsewhere, turn an extension's sandbox
// off, open a file. So the services are not bound: Gate is, and every call
// carries the per-launch token that only the app's own page holds. Its page
// asks for it once (Handshake) and the answer reaches only that page: Wails
// delivers a binding's result into the top document, never into the frame
// that called.
//
// A call names "Service.Method": one of the bound services (Window, Chats,
// Coworkers, Preferences, Servers, Extensions, Activity, Asks, Views, Editor, Inbox,
// Schedules) and
// one of its exported methods. The table of them is made once, by newGate.
type Gate struct {
	token   string
	methods map[string]gateMethod // "Service.Method"
	log     *slog.Logger
}

// gateMethod is one exported method of a bound service.
type gateMethod struct {
	recv reflect.Value // the service
	fn   reflect.Value // the method's function (receiver first)
	typ  reflect.Type  // fn's type
}

// ErrBadToken is returned for a call without the window's token.
var ErrBadToken = errors.New("refused: this call did not come from the OpenWorker window (no valid token); see docs/mcp-apps.md#bindings")

// newGate returns a gate over the services (pointers to the bound
// structs, bound.services) with a fresh 256-bit token.
func newGate(services []any, log *slog.Logger) *Gate {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	if log == nil {
		log = slog.Default()
	}
	g := &Gate{token: base64.RawURLEncoding.EncodeToString(b[:]), methods: map[string]gateMethod{}, log: log}
	for _, s := range services {
		v := reflect.ValueOf(s)
		t := v.Type()
		for i := range t.NumMethod() { // the exported methods only
			m := t.Method(i)
			g.methods[t.Elem().Name()+"."+m.Name] = gateMethod{recv: v, fn: m.Func, typ: m.Func.Type()}
		}
	}
	return g
}

// Handshake returns the token of this launch: the page calls it once before
// any other call. Its answer reaches only the top document (see Gate).
func (g *Gate) Handshake() string { return g.token }

// Call runs the method named method ("Service.Method", e.g.
// "Chats.OpenChat") with args (one JSON value per parameter, in order) and
// returns its first result as JSON (null for a method that returns only an
// error). token must be Handshake's: it is checked first, before the
// method is looked up. Errors: ErrBadToken; a service the app does not
// have, or a method its service does not export; a wrong number of
// arguments or an argument that does not decode (naming its position);
// and the method's own error, as it is.
func (g *Gate) Call(token, method string, args []json.RawMessage) (json.RawMessage, error) {
	if subtle.ConstantTimeCompare([]byte(token), []byte(g.token)) != 1 {
		g.log.Warn("refused a call to the app without the window's token", "method", method)
		return nil, ErrBadToken
	}
	m, ok := g.methods[method]
	if !ok {
		return nil, g.unknown(method)
	}
	ft := m.typ // receiver first
	if ft.NumIn()-1 != len(args) {
		return nil, fmt.Errorf("%s takes %d arguments, the call gave %d", method, ft.NumIn()-1, len(args))
	}
	in := []reflect.Value{m.recv}
	for i, raw := range args {
		p := reflect.New(ft.In(i + 1))
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, p.Interface()); err != nil {
				return nil, fmt.Errorf("%s: argument %d: %v", method, i+1, err)
			}
		}
		in = append(in, p.Elem())
	}
	out := m.fn.Call(in)
	errType := reflect.TypeFor[error]()
	var value any
	for _, o := range out {
		if o.Type() == errType {
			if !o.IsNil() {
				return nil, o.Interface().(error)
			}
			continue
		}
		value = o.Interface()
	}
	b, err := json.Marshal(value)
	if err != nil {
		return nil, fmt.Errorf("%s: its result does not encode: %v", method, err)
	}
	return b, nil
}

// unknown says what is wrong with a method name the table does not have.
func (g *Gate) unknown(method string) error {
	service, name, ok := strings.Cut(method, ".")
	if !ok {
		return fmt.Errorf("the app has no method %q: a call names Service.Method, e.g. Chats.OpenChat", method)
	}
	for k := range g.methods {
		if strings.HasPrefix(k, service+".") {
			return fmt.Errorf("%s has no method %q", service, name)
		}
	}
	return fmt.Errorf("the app has no service %q", service)
}
