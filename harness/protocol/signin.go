package protocol

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/oauth"
)

// MethodSignInRespond answers a signin.required event.
const MethodSignInRespond = "signin.respond"

// Events of a sign-in (docs/stdio-protocol.md#sign-in).
const (
	EventSignInRequired harness.EventType = "signin.required"
	EventSignInClosed   harness.EventType = "signin.closed"
)

// SignInAction is the answer to a signin.required event.
type SignInAction string

const (
	SignInOpen    SignInAction = "open"    // serve opens the sign-in page in the system browser
	SignInOpened  SignInAction = "opened"  // the client opened the page itself
	SignInDecline SignInAction = "decline" // the start or call that needs it fails
)

// Valid reports whether a is one of the three answers.
func (a SignInAction) Valid() bool {
	return a == SignInOpen || a == SignInOpened || a == SignInDecline
}

// Reasons of a signin.closed event: why a sign-in ended without an answer.
const (
	SignInClosedBound     = "bound"     // no answer within Server.SignInTimeout
	SignInClosedCancelled = "cancelled" // the start or call that needed it ended (turn.cancel, its bound)
	SignInClosedClosing   = "closing"   // the server is ending (stdin closed, a signal)
)

// SignInEvent is sent when a remote MCP server needs a sign-in
// (docs/mcp.md#sign-in, docs/stdio-protocol.md#sign-in): "Sign in to
// Host for Namespace?". URL is the sign-in page; it holds no secret (the
// state and the PKCE challenge only), and no token is ever sent on the
// protocol. Reply with signin.respond and the same signin_id.
type SignInEvent struct {
	Type      harness.EventType `json:"type"` // "signin.required"
	SignInID  string            `json:"signin_id"`
	ItemID    string            `json:"item_id,omitempty"`    // its signin item in the inbox (docs/inbox.md#askers); "" outside Serve
	SessionID string            `json:"session_id,omitempty"` // the session whose start or call needs it, when known
	Namespace string            `json:"namespace"`            // the provider
	Server    string            `json:"server"`               // host of the MCP server
	Host      string            `json:"host"`                 // host of the sign-in page (the authorization server)
	URL       string            `json:"url"`
	Scopes    []string          `json:"scopes,omitempty"`
	Again     bool              `json:"again,omitempty"` // a stored sign-in ended, or more scope is needed
}

// SignInClosedEvent is sent when an open sign-in ended without an answer;
// a signin.respond after it gets not_found.
type SignInClosedEvent struct {
	Type     harness.EventType `json:"type"` // "signin.closed"
	SignInID string            `json:"signin_id"`
	Reason   string            `json:"reason"` // bound, cancelled or closing
}

// SignInRespondParams answers a signin.required event.
type SignInRespondParams struct {
	SignInID string       `json:"signin_id"`
	Action   SignInAction `json:"action"`
}

// signIns are the open signin.required events and what the server needs
// to answer them.
type signIns struct {
	mu      sync.Mutex
	pending map[string]pendingSignIn
	open    func(ctx context.Context, url string) error
	serve   context.Context // Serve's: when it ends the server is ending
	ending  chan struct{}   // closed when Serve is ending
}

// serving records the ctx of Serve and returns the channel Serve closes
// when it is ending.
func (s *signIns) serving(ctx context.Context) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.serve, s.ending = ctx, make(chan struct{})
	return s.ending
}

// isEnding reports whether Serve is ending.
func (s *signIns) isEnding() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.serve != nil && s.serve.Err() != nil {
		return true
	}
	select {
	case <-s.ending:
		return s.ending != nil
	default:
		return false
	}
}

// pendingSignIn is an open signin.required: the page to open on "open"
// and its signin item, whose compare-and-set decides who answers.
type pendingSignIn struct {
	url  string
	item string
	ch   chan SignInAction // without a journal (no item), signin.respond answers here
}

// SetBrowser sets how the answer "open" shows the sign-in page: the
// system browser (the CLI's), or a test's. nil refuses "open".
func (srv *Server) SetBrowser(open func(ctx context.Context, url string) error) {
	srv.signIn.mu.Lock()
	srv.signIn.open = open
	srv.signIn.mu.Unlock()
}

type sessionKey struct{}

// withSession marks ctx as a request of session id, which a sign-in it
// leads to names.
func withSession(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, sessionKey{}, id)
}

// AskSignIn is the oauth.SignIn Ask of the sessions this server serves: it
// sends signin.required and waits for signin.respond ("open" or "opened"
// is true, "decline" false), for ctx, or for SignInTimeout (0 is
// oauth.DefaultSignInTimeout). Ended without an answer it sends
// signin.closed and returns an error saying why. The page is opened by
// the answer; the SignIn's Open must do nothing (NoBrowser).
func (srv *Server) AskSignIn(ctx context.Context, p oauth.Prompt) (bool, error) {
	id := journal.NewID("sig_")
	ch := make(chan SignInAction, 1)
	s := &srv.signIn
	sid, _ := ctx.Value(sessionKey{}).(string)
	box := srv.box()
	item := srv.postSignIn(ctx, box, sid, p)
	s.mu.Lock()
	if s.pending == nil {
		s.pending = map[string]pendingSignIn{}
	}
	s.pending[id] = pendingSignIn{p.URL, item, ch}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
	}()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	if item != "" { // the answer comes as the item's: signin.respond or inbox.answer
		go func() {
			if it, err := box.Watch(wctx, item); err == nil {
				ch <- signInAnswer(it)
			}
		}()
	}
	srv.write(EventLine{Event: SignInEvent{Type: EventSignInRequired, SignInID: id, ItemID: item, SessionID: sid, Namespace: p.Namespace,
		Server: p.Server, Host: p.SignInHost, URL: p.URL, Scopes: p.Scopes, Again: p.Again}})
	bound := srv.SignInTimeout
	if bound <= 0 {
		bound = oauth.DefaultSignInTimeout
	}
	timer := time.NewTimer(bound)
	defer timer.Stop()
	s.mu.Lock()
	ending := s.ending // nil (never closed) outside Serve
	s.mu.Unlock()
	var reason string
	var err error
	select {
	case a := <-ch:
		return a == SignInOpen || a == SignInOpened, nil
	case <-timer.C:
		reason, err = SignInClosedBound, fmt.Errorf("the sign-in to %s for %s got no signin.respond within %v", p.SignInHost, p.Namespace, bound)
	case <-ending:
		reason, err = SignInClosedClosing, errors.New("the protocol server is closing")
	case <-ctx.Done():
		reason, err = SignInClosedCancelled, context.Cause(ctx)
		if s.isEnding() {
			reason, err = SignInClosedClosing, errors.New("the protocol server is closing")
		}
	}
	// No longer pending before signin.closed is sent, so an answer after
	// it is not_found; one that won the item's compare-and-set just
	// before still counts.
	s.mu.Lock()
	delete(s.pending, id)
	s.mu.Unlock()
	if item != "" {
		status := journal.InboxCancelled
		if reason == SignInClosedBound {
			status = journal.InboxExpired
		}
		it, werr := box.Withdraw(context.WithoutCancel(ctx), item, status, "the sign-in ended unanswered: "+reason)
		if werr == nil && it.Status == journal.InboxAnswered {
			a := signInAnswer(it)
			return a == SignInOpen || a == SignInOpened, nil
		}
	}
	srv.write(EventLine{Event: SignInClosedEvent{Type: EventSignInClosed, SignInID: id, Reason: reason}})
	return false, err
}

// signInAsked is what a signin item records: the server and the sign-in
// page's host, never its URL (docs/inbox.md#askers).
type signInAsked struct {
	Namespace string   `json:"namespace"`
	Server    string   `json:"server"`
	Host      string   `json:"host"`
	Scopes    []string `json:"scopes,omitempty"`
	Again     bool     `json:"again,omitempty"`
}

// postSignIn writes the sign-in as an open signin item and returns its ID
// ("" outside Serve, or when the journal cannot take it: the event still
// asks, and only signin.respond answers).
func (srv *Server) postSignIn(ctx context.Context, box *inbox.Inbox, sessionID string, p oauth.Prompt) string {
	if box == nil || box.Journal() == nil {
		return ""
	}
	raw, _ := json.Marshal(signInAsked{Namespace: p.Namespace, Server: p.Server, Host: p.SignInHost, Scopes: p.Scopes, Again: p.Again})
	it, err := box.Add(ctx, journal.InboxItem{Kind: journal.InboxSignIn, Coworker: p.Namespace, SessionID: sessionID, Tool: p.Namespace, Asked: raw})
	if err != nil && sessionID != "" { // a session not (yet) in the journal
		it, err = box.Add(ctx, journal.InboxItem{Kind: journal.InboxSignIn, Coworker: p.Namespace, Tool: p.Namespace, Asked: raw})
	}
	if err != nil {
		return ""
	}
	return it.ID
}

// signInAnswer is an answered signin item's action: {"action": "open" |
// "opened" | "decline"}; anything else is a decline.
func signInAnswer(it journal.InboxItem) SignInAction {
	var a struct {
		Action SignInAction `json:"action"`
	}
	if it.Status != journal.InboxAnswered || json.Unmarshal(it.Answer, &a) != nil || !a.Action.Valid() {
		return SignInDecline
	}
	return a.Action
}

// NoBrowser is the oauth.SignIn Open that goes with AskSignIn: the
// answer to signin.required has opened the page already.
func NoBrowser(context.Context, string) error { return nil }

func (srv *Server) signInRespond(ctx context.Context, req Request) {
	var p SignInRespondParams
	err := strictParams(req.Params, &p)
	if err == nil && p.SignInID != "" && !p.Action.Valid() {
		err = fmt.Errorf("action %q is not open, opened or decline", p.Action)
	}
	if err != nil || p.SignInID == "" {
		srv.bad(req, "%ssignin.respond needs {\"signin_id\": ID, \"action\": open|opened|decline}", why(err))
		return
	}
	s := &srv.signIn
	s.mu.Lock()
	ps, ok := s.pending[p.SignInID]
	open := s.open
	s.mu.Unlock()
	if !ok {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open sign-in %q (already answered, or its start or call ended)", p.SignInID)})
		return
	}
	if p.Action == SignInOpen {
		// Opened before the sign-in is answered: if no browser opens, the
		// sign-in stays open and the client may show the URL and answer
		// "opened" or "decline".
		if open == nil {
			srv.respond(req.ID, nil, &Error{CodeFailed, "this server has no browser to open; open the url yourself and answer \"opened\", or \"decline\""})
			return
		}
		if err := open(ctx, ps.url); err != nil {
			srv.respond(req.ID, nil, &Error{CodeFailed, fmt.Sprintf("could not open a browser (%v); the sign-in is still open: open the url yourself and answer \"opened\", or \"decline\"", err)})
			return
		}
	}
	s.mu.Lock()
	_, ok = s.pending[p.SignInID]
	if ok && ps.item == "" {
		delete(s.pending, p.SignInID)
	}
	s.mu.Unlock()
	if !ok {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("the sign-in %q ended while the browser opened", p.SignInID)})
		return
	}
	if ps.item == "" { // a runtime without a journal: no item
		ps.ch <- p.Action
		srv.respond(req.ID, map[string]string{"signin_id": p.SignInID, "action": string(p.Action)}, nil)
		return
	}
	raw, _ := json.Marshal(map[string]string{"action": string(p.Action)})
	if _, err := srv.box().Answer(context.Background(), ps.item, raw, "stdio"); err != nil {
		srv.respond(req.ID, nil, &Error{CodeNotFound, fmt.Sprintf("no open sign-in %q: %v", p.SignInID, err)})
		return
	}
	srv.respond(req.ID, map[string]string{"signin_id": p.SignInID, "item_id": ps.item, "action": string(p.Action)}, nil)
}
