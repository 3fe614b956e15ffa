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
)

// Gate is the one object the window's page may call (docs/mcp-apps.md#bindings).
//
// WebKit (Linux, macOS) gives its script message handler to every frame of
// the page, frames of other origins and sandboxed ones too, and Wails checks
// only the address of the top document. An MCP App view runs in a frame of
// the window, so without a gate it could call any method of App blind:
// save settings that send the model elsewhere, turn an extension's sandbox
// off, open a file. So App is not bound: Gate is, and every call carries the
// per-launch token that only the app's own page holds. Its page asks for it
// once (Handshake) and the answer reaches only that page: Wails delivers a
// binding's result into the top document, never into the frame that called.
type Gate struct {
	app   *App
	token string
	log   *slog.Logger
}

// ErrBadToken is returned for a call without the window's token.
var ErrBadToken = errors.New("refused: this call did not come from the OpenWorker window (no valid token); see docs/mcp-apps.md#bindings")

// newGate returns a gate over a with a fresh 256-bit token.
func newGate(a *App, log *slog.Logger) *Gate {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported systems
	}
	if log == nil {
		log = slog.Default()
	}
	return &Gate{app: a, token: base64.RawURLEncoding.EncodeToString(b[:]), log: log}
}

// Handshake returns the token of this launch: the page calls it once before
// any other call. Its answer reaches only the top document (see Gate).
func (g *Gate) Handshake() string { return g.token }

// Call runs the App method named method with args (one JSON value per
// parameter, in order) and returns its first result as JSON (null for a
// method that returns only an error). token must be Handshake's.
// Errors: ErrBadToken; a method App does not have; a wrong number of
// arguments or an argument that does not decode (naming its position);
// and the method's own error, as it is.
func (g *Gate) Call(token, method string, args []json.RawMessage) (json.RawMessage, error) {
	if subtle.ConstantTimeCompare([]byte(token), []byte(g.token)) != 1 {
		g.log.Warn("refused a call to the app without the window's token", "method", method)
		return nil, ErrBadToken
	}
	m, ok := reflect.TypeOf(g.app).MethodByName(method)
	if !ok || !m.IsExported() {
		return nil, fmt.Errorf("the app has no method %q", method)
	}
	ft := m.Func.Type() // receiver first
	if ft.NumIn()-1 != len(args) {
		return nil, fmt.Errorf("%s takes %d arguments, the call gave %d", method, ft.NumIn()-1, len(args))
	}
	in := []reflect.Value{reflect.ValueOf(g.app)}
	for i, raw := range args {
		p := reflect.New(ft.In(i + 1))
		if len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, p.Interface()); err != nil {
				return nil, fmt.Errorf("%s: argument %d: %v", method, i+1, err)
			}
		}
		in = append(in, p.Elem())
	}
	out := m.Func.Call(in)
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
