// Package fakenotify is a fake org.freedesktop.Notifications server for
// tests. It takes the bus name on the session bus (a private one:
// internal/testbus.Session) and records every Notify call.
package fakenotify

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/godbus/dbus/v5"
)

const (
	busName = "org.freedesktop.Notifications"
	path    = dbus.ObjectPath("/org/freedesktop/Notifications")
	iface   = "org.freedesktop.Notifications"
)

// Notification is one recorded Notify call, argument for argument, and the
// unique bus name of the connection that made it.
type Notification struct {
	Sender        string
	AppName       string
	ReplacesID    uint32
	AppIcon       string
	Summary       string
	Body          string
	Actions       []string
	Hints         map[string]dbus.Variant
	ExpireTimeout int32
}

// Server is a running fake. Its methods are safe for concurrent use.
type Server struct {
	conn *dbus.Conn
	h    *handler
}

type handler struct {
	caps   []string
	mu     sync.Mutex
	fail   string // when set, Notify answers this D-Bus error name
	calls  []Notification
	closed []uint32
	events chan Notification
}

// ErrNoBus is returned by Start when DBUS_SESSION_BUS_ADDRESS is unset.
var ErrNoBus = errors.New("DBUS_SESSION_BUS_ADDRESS is unset; give the test a private bus with internal/testbus.Session")

// Start connects to the session bus, exports the four methods of the
// specification and takes the bus name, waiting up to 60 s while another
// test process holds it (go test runs packages at once, and a loaded
// machine makes the other's tests slow). caps is what GetCapabilities returns.
func Start(caps []string) (*Server, error) {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return nil, ErrNoBus
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return nil, err
	}
	h := &handler{caps: caps, events: make(chan Notification, 16)}
	if err := conn.Export(h, path, iface); err != nil {
		conn.Close()
		return nil, err
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		reply, err := conn.RequestName(busName, dbus.NameFlagDoNotQueue)
		if err != nil {
			conn.Close()
			return nil, err
		}
		if reply == dbus.RequestNameReplyPrimaryOwner {
			break
		}
		if time.Now().After(deadline) {
			conn.Close()
			return nil, fmt.Errorf("bus name %s is held by another process", busName)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return &Server{conn: conn, h: h}, nil
}

// Close releases the bus name and disconnects.
func (s *Server) Close() error {
	_, _ = s.conn.ReleaseName(busName)
	return s.conn.Close()
}

// Calls returns the Notify calls received so far.
func (s *Server) Calls() []Notification {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	return append([]Notification(nil), s.h.calls...)
}

// Next waits up to d for the next Notify call.
func (s *Server) Next(d time.Duration) (Notification, bool) {
	select {
	case n := <-s.h.events:
		return n, true
	case <-time.After(d):
		return Notification{}, false
	}
}

// FailNotify makes every later Notify call (recorded all the same) answer
// the D-Bus error errName, or succeed again when errName is "".
func (s *Server) FailNotify(errName string) {
	s.h.mu.Lock()
	defer s.h.mu.Unlock()
	s.h.fail = errName
}

// Invoke emits ActionInvoked(id, key), as a server does when the person
// clicks notification id (key "default") or one of its buttons; id is
// the Notify call's number, counted from 1 (Calls()[id-1]).
func (s *Server) Invoke(id uint32, key string) error {
	return s.conn.Emit(path, iface+".ActionInvoked", id, key)
}

// Notify implements org.freedesktop.Notifications.Notify.
func (h *handler) Notify(sender dbus.Sender, appName string, replacesID uint32, appIcon, summary, body string, actions []string, hints map[string]dbus.Variant, expireTimeout int32) (uint32, *dbus.Error) {
	n := Notification{string(sender), appName, replacesID, appIcon, summary, body, actions, hints, expireTimeout}
	h.mu.Lock()
	h.calls = append(h.calls, n)
	id := uint32(len(h.calls))
	fail := h.fail
	h.mu.Unlock()
	if fail != "" {
		return 0, dbus.NewError(fail, []any{"fakenotify: told to fail"})
	}
	select {
	case h.events <- n:
	default:
	}
	return id, nil
}

// GetCapabilities implements org.freedesktop.Notifications.GetCapabilities.
func (h *handler) GetCapabilities() ([]string, *dbus.Error) { return h.caps, nil }

// GetServerInformation implements org.freedesktop.Notifications.GetServerInformation.
func (h *handler) GetServerInformation() (name, vendor, version, specVersion string, err *dbus.Error) {
	return "fakenotify", "OpenWorker tests", "1.0", "1.2", nil
}

// CloseNotification implements org.freedesktop.Notifications.CloseNotification.
func (h *handler) CloseNotification(id uint32) *dbus.Error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = append(h.closed, id)
	return nil
}
