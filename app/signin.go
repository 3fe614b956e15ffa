package app

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// Sign-in to remote MCP servers (docs/mcp.md#sign-in, docs/app.md#sign-in).
// When a provider's start or call needs one, the window is asked first:
// EventSignIn carries a SignInRequest, the UI shows "Sign in to HOST for
// NS?" with the sign-in page's URL (the link dialog); on Sign in it opens
// the page with OpenLink and calls AnswerSignIn(id, true), on Cancel
// AnswerSignIn(id, false). The tokens go to the OS keychain, else to the
// encrypted file in the config folder, as the CLI's do (deps.Tokens; the
// person is told once, NoticeKeyTokensFile); never to the journal or a log.

// EventSignIn carries a SignInRequest: ask the person to sign in.
const EventSignIn EventName = "signin:request"

// EventSignInClosed carries the ID of a SignInRequest that was answered
// or given up (the start or call ended first): close its dialog.
const EventSignInClosed EventName = "signin:closed"

// SignInRequest is one pending sign-in. URL is the sign-in page (it holds
// no secret); Again says a stored sign-in ended or more scope is needed.
type SignInRequest struct {
	ID         string   `json:"id"`
	Namespace  string   `json:"namespace"`
	Server     string   `json:"server"`       // host of the MCP server
	SignInHost string   `json:"sign_in_host"` // host of the sign-in page
	URL        string   `json:"url"`
	Scopes     []string `json:"scopes"`
	Again      bool     `json:"again"`
}

// SignedInServer is a remote server of the servers file in use with a
// stored sign-in: Settings shows a "Sign out" button for it.
type SignedInServer struct {
	Namespace string `json:"namespace"`
	Server    string `json:"server"` // host of the MCP server
	Issuer    string `json:"issuer"`
}

// signIns asks the window the sign-in questions of the runtime's
// providers and holds those waiting for an answer. mu guards the waiting
// ones, held only to add, find or drop one.
type signIns struct {
	*env
	signIn *oauth.SignIn // the runtime's, shared by its providers (options)
	inbox  func() (*inbox.Inbox, error)

	mu      sync.Mutex
	next    int
	pending map[string]chan bool
}

// options is the harness's SignIn of the app, made once, before the
// runtime opens.
func (s *signIns) options() *oauth.SignIn {
	if s.signIn == nil {
		s.signIn = &oauth.SignIn{
			Store: s.tokens,
			Ask:   s.ask,
			// The window opened the page with OpenLink when the person chose
			// Sign in (its link dialog copies the URL when no browser opens).
			Open: func(context.Context, string) error { return nil },
		}
	}
	return s.signIn
}

func (s *signIns) ask(ctx context.Context, p oauth.Prompt) (bool, error) {
	s.mu.Lock()
	if s.pending == nil {
		s.pending = map[string]chan bool{}
	}
	s.next++
	id := "signin_" + strconv.Itoa(s.next)
	s.mu.Unlock()
	if item := s.post(ctx, p); item != "" {
		id = item // the dialog answers the inbox item (docs/inbox.md#askers)
	}
	ch := make(chan bool, 1)
	s.mu.Lock()
	s.pending[id] = ch
	s.mu.Unlock()
	answered := false
	defer func() {
		s.mu.Lock()
		delete(s.pending, id)
		s.mu.Unlock()
		if !answered {
			s.withdraw(id)
		}
		s.emit.Emit(EventSignInClosed, id)
	}()
	s.log.Info("sign-in asked", "namespace", p.Namespace, "server", p.Server, "sign_in_host", p.SignInHost)
	s.emit.Emit(EventSignIn, SignInRequest{ID: id, Namespace: p.Namespace, Server: p.Server, SignInHost: p.SignInHost, URL: p.URL, Scopes: p.Scopes, Again: p.Again})
	select {
	case ok := <-ch:
		answered = true
		return ok, nil
	case <-ctx.Done():
		return false, context.Cause(ctx)
	case <-s.base.Done():
		return false, fmt.Errorf("the app is closing")
	}
}

// answer answers the sign-in id (AnswerSignIn).
func (s *signIns) answer(id string, signIn bool) error {
	s.mu.Lock()
	ch, ok := s.pending[id]
	delete(s.pending, id)
	s.mu.Unlock()
	if !ok {
		return fmt.Errorf("the sign-in %s is no longer waiting (its call or start ended)", id)
	}
	if b, err := s.box(); err == nil && strings.HasPrefix(id, "inb_") {
		raw, _ := json.Marshal(map[string]bool{"sign_in": signIn})
		if _, err := b.Answer(context.Background(), id, raw, "window"); err == nil {
			_, _ = b.Journal().ConsumeInboxItem(context.Background(), id)
		}
	}
	ch <- signIn
	return nil
}

// post writes the sign-in as an open inbox item and returns its ID ("":
// the journal cannot take it; the dialog still asks). The item names the
// server and the sign-in host, never the page's URL.
func (s *signIns) post(ctx context.Context, p oauth.Prompt) string {
	b, err := s.box()
	if err != nil {
		return ""
	}
	raw, _ := json.Marshal(map[string]any{"namespace": p.Namespace, "server": p.Server, "sign_in_host": p.SignInHost, "scopes": p.Scopes, "again": p.Again})
	it, err := b.Add(ctx, journal.InboxItem{Kind: journal.InboxSignIn, Coworker: p.Namespace, Tool: p.Namespace, Asked: raw})
	if err != nil {
		return ""
	}
	return it.ID
}

// withdraw closes the item of a sign-in nobody answered.
func (s *signIns) withdraw(id string) {
	if b, err := s.box(); err == nil && strings.HasPrefix(id, "inb_") {
		_, _ = b.Withdraw(context.Background(), id, journal.InboxCancelled, "the sign-in was no longer needed (its call or start ended)")
	}
}

func (s *signIns) box() (*inbox.Inbox, error) {
	if s.inbox == nil {
		return nil, errNoJournal
	}
	return s.inbox()
}

// waiting counts the sign-ins waiting for an answer.
func (s *signIns) waiting() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.pending)
}

// signedIn lists the remote servers of the servers file cfg that have
// a stored sign-in. It reads the token store (the OS keychain): call it
// holding no lock.
func signedIn(cfg *servers.Config, tokens oauth.TokenStore) []SignedInServer {
	if cfg == nil {
		return nil
	}
	var out []SignedInServer
	for _, e := range cfg.Entries {
		if e.Server.Transport != tool.TransportStreamableHTTP || e.Server.URL == "" {
			continue
		}
		g, err := tokens.Load(e.Server.URL)
		if err != nil || g == nil {
			continue
		}
		out = append(out, SignedInServer{Namespace: e.Server.Namespace, Server: hostOf(e.Server.URL), Issuer: g.Issuer})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Namespace < out[j].Namespace })
	return out
}

// SignedIn lists the remote servers with a stored sign-in (Settings).
func (sv *Servers) SignedIn() []SignedInServer {
	return signedIn(sv.servers.state().cfg, sv.tokens)
}

// SignOut deletes the stored sign-in of the remote server ns of the
// servers file in use (its access and refresh tokens, from the OS
// keychain) and returns the servers still signed in. Its next use asks
// to sign in again. A server without a sign-in is an error saying so.
func (sv *Servers) SignOut(ns string) ([]SignedInServer, error) {
	cfg := sv.servers.state().cfg
	var srvURL string
	if cfg != nil {
		for _, e := range cfg.Entries {
			if e.Server.Namespace == ns && e.Server.Transport == tool.TransportStreamableHTTP {
				srvURL = e.Server.URL
			}
		}
	}
	if srvURL == "" {
		return signedIn(cfg, sv.tokens), fmt.Errorf("%s is not a remote server of the servers file in use", ns)
	}
	g, err := sv.signIns.options().SignOut(srvURL) // the keychain, and the running providers' tokens
	if err != nil {
		return signedIn(cfg, sv.tokens), err
	}
	if g == nil {
		return signedIn(cfg, sv.tokens), fmt.Errorf("%s is not signed in", ns)
	}
	sv.log.Info("signed out", "namespace", ns, "issuer", g.Issuer)
	return signedIn(cfg, sv.tokens), nil
}

func hostOf(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Host
}
