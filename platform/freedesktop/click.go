package freedesktop

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sync"

	"github.com/godbus/dbus/v5"
	"github.com/openworker/desktop/platform/internal/core"
)

// DefaultAction is the action key a click on the notification itself
// invokes (Desktop Notifications Specification 1.2, "Actions").
const DefaultAction = "default"

// Clicker sends notifications a click can answer: each carries the
// default action (when the server advertises the "actions" capability)
// and the callback given to Notify runs once when the server signals
// ActionInvoked for it; NotificationClosed forgets it. It keeps one
// connection to the session bus of its own, made at the first Notify, on
// which it sends the notifications and hears the signals (a server may
// send them to the sender alone). Text is handled as NotifyArgs does
// (escaped when the server takes body markup); the call is the adapter's
// own, never beeep's, so there is no notify-send fallback. Safe for
// concurrent use.
type Clicker struct {
	mu      sync.Mutex
	conn    *dbus.Conn
	pending map[uint32]func()
}

// Notify shows req and runs onClick (in a goroutine of its own) when the
// person clicks it. Without a session bus the error wraps
// errors.ErrUnsupported; a server without "actions" shows the
// notification and onClick never runs.
func (c *Clicker) Notify(ctx context.Context, req core.NotifyRequest, onClick func()) error {
	if err := req.Validate(); err != nil {
		return err
	}
	conn, err := c.connect(ctx)
	if err != nil {
		return err
	}
	obj := conn.Object(BusName, ObjectPath)
	var caps []string
	if err := obj.CallWithContext(ctx, Interface+".GetCapabilities", 0).Store(&caps); err != nil {
		return fmt.Errorf("%s.GetCapabilities: %w", Interface, err)
	}
	call, err := NotifyArgs(req, slices.Contains(caps, "body-markup"))
	if err != nil {
		return err
	}
	if slices.Contains(caps, "actions") && onClick != nil {
		call.Actions = []string{DefaultAction, "Open"}
	}
	// The callback is kept before the call returns: a fast click's
	// signal finds it (the id is not known until then, so hold mu).
	c.mu.Lock()
	defer c.mu.Unlock()
	var id uint32
	if err := obj.CallWithContext(ctx, Interface+".Notify", 0, call.Args()...).Store(&id); err != nil {
		return fmt.Errorf("%s.Notify: %w", Interface, err)
	}
	if len(call.Actions) > 0 {
		c.pending[id] = onClick
	}
	return nil
}

// connect returns the connection, making it (and its signal loop) once.
func (c *Clicker) connect(ctx context.Context) (*dbus.Conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil && c.conn.Connected() {
		return c.conn, nil
	}
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return nil, fmt.Errorf("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset): %w", errUnsupported)
	}
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(context.WithoutCancel(ctx)))
	if err != nil {
		return nil, fmt.Errorf("D-Bus session bus: %w", err)
	}
	for _, member := range []string{"ActionInvoked", "NotificationClosed"} {
		if err := conn.AddMatchSignal(dbus.WithMatchInterface(Interface), dbus.WithMatchMember(member), dbus.WithMatchObjectPath(ObjectPath)); err != nil {
			conn.Close()
			return nil, fmt.Errorf("D-Bus match for %s: %w", member, err)
		}
	}
	signals := make(chan *dbus.Signal, 16)
	conn.Signal(signals)
	c.conn, c.pending = conn, map[uint32]func(){}
	go c.listen(signals)
	return conn, nil
}

// listen runs the callbacks of the clicked notifications until the
// connection closes (the channel is closed then).
func (c *Clicker) listen(signals chan *dbus.Signal) {
	for s := range signals {
		if len(s.Body) < 1 {
			continue
		}
		id, ok := s.Body[0].(uint32)
		if !ok {
			continue
		}
		c.mu.Lock()
		f := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if f != nil && s.Name == Interface+".ActionInvoked" {
			go f()
		}
	}
}

// Close closes the connection; the callbacks not run are dropped.
func (c *Clicker) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	c.conn = nil
	return err
}
