package app

import (
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// blockingKeychain is a keychain whose reads, once armed, wait until
// released: a slow Secret Service (one waiting for an unlock prompt, or
// not answering on the bus).
type blockingKeychain struct {
	*memKeychain
	armed   atomic.Bool
	blocked atomic.Int32  // reads waiting now
	release chan struct{} // closed to let every read go
}

func (k *blockingKeychain) Get(p string) (string, error) {
	if k.armed.Load() {
		k.blocked.Add(1)
		<-k.release
		k.blocked.Add(-1)
	}
	return k.memKeychain.Get(p)
}

// silentServer accepts connections on 127.0.0.1 and never answers: a
// model host that hangs. close ends the connections it holds.
type silentServer struct {
	l        net.Listener
	mu       sync.Mutex
	conns    []net.Conn
	accepted atomic.Int32
}

func newSilentServer(t *testing.T) *silentServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentServer{l: l}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
			s.accepted.Add(1)
		}
	}()
	t.Cleanup(s.close)
	return s
}

func (s *silentServer) close() {
	s.l.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, c := range s.conns {
		c.Close()
	}
	s.conns = nil
}

// until waits up to hangGuard for ok.
func until(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(hangGuard)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within %v", what, hangGuard)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// returns runs f on its own goroutine, as Wails runs a bound call, and
// fails the test when it has not returned within hangGuard.
func returns(t *testing.T, what string, f func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("%s: %v", what, err)
		}
	case <-time.After(hangGuard):
		t.Fatalf("%s did not return within %v while other calls wait for the keychain and the model server: a lock is held across their I/O", what, hangGuard)
	}
}

// TestWindowCallsDoNotWaitForIO: while Settings waits for a keychain that
// does not answer (GetSettings, SaveSettings, SetAPIKey) and Test
// connection and the model list wait for a model server that accepts and
// never answers, every other call of the window returns: no lock is held
// across keychain or network I/O. (GetSettings used to read the keychain
// holding the App's one lock, and every other call waited for it.)
func TestWindowCallsDoNotWaitForIO(t *testing.T) {
	defer func(d time.Duration) { probeTimeout = d }(probeTimeout)
	probeTimeout = 4 * hangGuard // the silent server, not the bound, ends the probes
	e := newTestEnv(t, envOpts{})
	a := e.app
	chat, err := a.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	saved := a.settings.get()
	keys := &blockingKeychain{memKeychain: e.keys, release: make(chan struct{})}
	a.keys = keys
	silent := newSilentServer(t)
	hung := "http://" + silent.l.Addr().String() + "/v1"

	keys.armed.Store(true)
	released := false
	release := func() {
		if !released {
			released = true
			close(keys.release)
			silent.close()
		}
	}
	defer release()
	var waiting sync.WaitGroup
	var ended atomic.Int32
	wait := func(what string, f func() error) {
		waiting.Add(1)
		go func() {
			defer waiting.Done()
			if err := f(); err != nil {
				t.Errorf("%s: %v", what, err)
			}
			ended.Add(1)
		}()
	}
	wait("GetSettings", func() error { _, err := a.Preferences.GetSettings(); return err })
	until(t, "GetSettings reads the keychain", func() bool { return keys.blocked.Load() >= 1 })
	returns(t, "Info", func() error { _, err := a.Window.Info(); return err })
	wait("SaveSettings", func() error { _, err := a.Preferences.SaveSettings(saved); return err })
	wait("SetAPIKey", func() error { _, err := a.Preferences.SetAPIKey("anthropic", "sk-ant-test"); return err })
	until(t, "SaveSettings and SetAPIKey read the keychain", func() bool { return keys.blocked.Load() >= 3 })
	wait("TestConnection", func() error { _, err := a.Preferences.TestConnection("openai", hung, "m", "sk-test"); return err })
	wait("ListModels", func() error { _, _ = a.Preferences.ListModels("openai", hung, "sk-test"); return nil }) // fails once let go
	until(t, "the probes reach the silent model server", func() bool { return silent.accepted.Load() >= 2 })

	returns(t, "Info", func() error { _, err := a.Window.Info(); return err })
	returns(t, "Chats", func() error { _, err := a.Chats.Chats("", false); return err })
	returns(t, "Coworkers", func() error {
		l, err := a.Coworkers.Coworkers()
		if err == nil && len(l.Coworkers) != 1 {
			t.Errorf("Coworkers = %+v; want the helper", l)
		}
		return err
	})
	returns(t, "OpenChat", func() error { _, err := a.Chats.OpenChat("helper"); return err })
	returns(t, "ChatGrants", func() error { _, err := a.Chats.ChatGrants(chat.SessionID); return err })
	returns(t, "Sessions", func() error { _, err := a.Activity.Sessions(); return err })
	returns(t, "NeedsAttention", func() error { _, err := a.Activity.NeedsAttention(); return err })
	returns(t, "PendingApprovals", func() error { _, err := a.Asks.PendingApprovals(); return err })
	returns(t, "PendingElicitations", func() error { _, err := a.Asks.PendingElicitations(); return err })
	returns(t, "Extensions", func() error { _, err := a.Extensions.Extensions(); return err })
	returns(t, "Policies", func() error { _, err := a.Preferences.Policies(); return err })
	returns(t, "SignedIn", func() error { a.Servers.SignedIn(); return nil })
	returns(t, "SetTheme", func() error { return a.Preferences.SetTheme(ThemeDark) })
	returns(t, "SetWindowFocused", func() error { return a.Window.SetWindowFocused(true) })
	returns(t, "ServeViewPage", func() error { _, err := a.Views.ServeViewPage("<p>hi</p>", "default-src 'none'"); return err })
	returns(t, "Templates", func() error { _, err := a.Editor.Templates(); return err })
	returns(t, "ToolCatalog", func() error { _, err := a.Editor.ToolCatalog(nil); return err })
	returns(t, "EditCoworker", func() error {
		d, err := a.Editor.EditCoworker(e.bundles + "/helper")
		if err == nil {
			_, err = a.Editor.CheckCoworker(d.Dir, d.Draft)
		}
		return err
	})
	returns(t, "CloseChat", func() error { return a.Chats.CloseChat(chat.SessionID) })

	if n := ended.Load(); n != 0 {
		t.Fatalf("%d of the calls waiting for the keychain or the model server returned before they were let go: the test did not hold them", n)
	}
	release()
	done := make(chan struct{})
	go func() { waiting.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(hangGuard):
		t.Fatalf("the calls waiting for the keychain and the model server did not return within %v once let go", hangGuard)
	}
}
