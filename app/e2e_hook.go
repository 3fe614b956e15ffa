//go:build e2e

package app

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/model"
)

// e2eSearch is the newest chat search the window asked for (SearchChats)
// and the sessions it found, for the script to check that typing in the
// sidebar's search box reaches the journal's index.
var e2eSearch struct {
	mu    sync.Mutex
	Text  string   `json:"text"`
	Found []string `json:"found"`
}

// e2eOpened are the EventExtensionOpened payloads sent to the window, in
// order (extopen.go), for the script to check a file a second start was
// given reached the first instance.
var e2eOpened struct {
	mu   sync.Mutex
	list []ExtensionOpened
}

func noteExtensionOpened(e ExtensionOpened) {
	e2eOpened.mu.Lock()
	e2eOpened.list = append(e2eOpened.list, e)
	e2eOpened.mu.Unlock()
}

// e2eViews are the app views the window rendered (ViewShown), the newest
// rect per invocation, and the refusals it reported (ViewRefused), in
// order (views.go, docs/mcp-apps.md).
var e2eViews struct {
	mu       sync.Mutex
	shown    []viewShown
	refusals []viewRefusal
}

type viewShown struct {
	SessionID  string `json:"session_id"`
	Invocation string `json:"invocation_id"`
	X          int    `json:"x"`
	Y          int    `json:"y"`
	W          int    `json:"w"`
	H          int    `json:"h"`
}

type viewRefusal struct {
	SessionID  string `json:"session_id"`
	Invocation string `json:"invocation_id"`
	What       string `json:"what"`
}

func noteViewShown(session, inv string, r [4]int) {
	e2eViews.mu.Lock()
	defer e2eViews.mu.Unlock()
	v := viewShown{session, inv, r[0], r[1], r[2], r[3]}
	for i := range e2eViews.shown {
		if e2eViews.shown[i].Invocation == inv && e2eViews.shown[i].SessionID == session {
			e2eViews.shown[i] = v
			return
		}
	}
	e2eViews.shown = append(e2eViews.shown, v)
}

func noteViewRefused(session, inv, what string) {
	e2eViews.mu.Lock()
	e2eViews.refusals = append(e2eViews.refusals, viewRefusal{session, inv, what})
	e2eViews.mu.Unlock()
}

// e2ePreviews are the extension files the install dialog showed
// (PreviewExtension), each "PATH" or "PATH: ERROR", in order.
var e2ePreviews struct {
	mu   sync.Mutex
	list []string
}

func noteExtensionPreview(path string, err error) {
	e := path
	if err != nil {
		e += ": " + err.Error()
	}
	e2ePreviews.mu.Lock()
	e2ePreviews.list = append(e2ePreviews.list, e)
	e2ePreviews.mu.Unlock()
}

// e2eEditor is what the coworker editor opened (editor.go), in order:
// "templates" (the New coworker dialog asked for them), "new TEMPLATE"
// (NewCoworker; "new " for blank), "edit DIR" (EditCoworker) and
// "catalog N" (ToolCatalog listed N providers), "import N" (an import
// of agents previewed N coworkers, agentimport.go), "servers import N
// secrets" (an import of servers previewed, import.go), "diagnostics plan
// N downloads" and "diagnostics report" (diagnostics.go), for the script
// to know a click or a drop reached the editor, an import or Diagnostics.
var e2eEditor struct {
	mu   sync.Mutex
	list []string
}

func noteEditor(what string) {
	e2eEditor.mu.Lock()
	e2eEditor.list = append(e2eEditor.list, what)
	e2eEditor.mu.Unlock()
}

// e2eCoworkers is the newest coworker list the window got (Coworkers
// answered or sent, coworkers_starting.go): "ID starting", "ID ready"
// or "ID broken" each.
var e2eCoworkers struct {
	mu   sync.Mutex
	list []string
}

func noteCoworkers(l CoworkerList) {
	out := []string{}
	for _, c := range l.Coworkers {
		what := " ready"
		if c.Starting {
			what = " starting"
		}
		out = append(out, c.ID+what)
	}
	for _, b := range l.Broken {
		out = append(out, b.ID+" broken")
	}
	e2eCoworkers.mu.Lock()
	e2eCoworkers.list = out
	e2eCoworkers.mu.Unlock()
}

// e2eListLoads counts the window's reads of the chat list (Chats.Chats):
// after a restart the script waits for one before it looks.
var e2eListLoads atomic.Int64

func noteChatsLoaded() { e2eListLoads.Add(1) }

func noteSearch(text string, found []journal.Session) {
	e2eSearch.mu.Lock()
	defer e2eSearch.mu.Unlock()
	e2eSearch.Text, e2eSearch.Found = text, []string{}
	for _, s := range found {
		e2eSearch.Found = append(e2eSearch.Found, s.ID)
	}
}

// e2eProbes are the last model list and Test connection of Settings
// (models_api.go): the list ListModels or TestConnection got, and the
// last TestConnection.
var e2eProbes struct {
	mu         sync.Mutex
	models     *ModelList
	connection *ConnectionTest
	ollama     *OllamaFound // the first-run setup's last FindOllama (ollama.go)
	ollamas    int          // how many times it looked
}

// noteOllama records the first-run setup's Ollama probe.
func noteOllama(f OllamaFound) {
	e2eProbes.mu.Lock()
	defer e2eProbes.mu.Unlock()
	e2eProbes.ollama = &f
	e2eProbes.ollamas++
}

func noteProbe(list *ModelList, test *ConnectionTest) {
	e2eProbes.mu.Lock()
	defer e2eProbes.mu.Unlock()
	if list != nil {
		e2eProbes.models = list
	}
	if test != nil {
		e2eProbes.connection = test
	}
}

// e2eFollowed counts the sign-in pages e2eOpener followed to their end.
var e2eFollowed atomic.Int64

// e2eOpener is the app's Opener in e2e builds: a http URL on a loopback
// address (the sign-in page of a test authorization server, opened after
// the person chose Sign in, docs/app.md#sign-in) is followed as a browser
// would, without one: a GET in the background following redirects, all
// on loopback addresses, to the app's loopback callback. Anything else
// goes to next (the system's opener). Nothing of the URL is logged (the
// redirect carries the authorization code).
type e2eOpener struct {
	next Opener
	log  *slog.Logger
}

func wrapOpener(next Opener, log *slog.Logger) Opener { return e2eOpener{next, log} }

func loopbackHost(h string) bool {
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

func (o e2eOpener) Open(target string) error {
	u, err := url.Parse(target)
	if err != nil || u.Scheme != "http" || !loopbackHost(u.Hostname()) {
		return o.next.Open(target)
	}
	c := &http.Client{Timeout: 30 * time.Second, CheckRedirect: func(req *http.Request, via []*http.Request) error {
		if !loopbackHost(req.URL.Hostname()) {
			return errors.New("a redirect off the loopback address is not followed in e2e builds")
		}
		if len(via) >= 10 {
			return errors.New("more than 10 redirects")
		}
		return nil
	}}
	go func() {
		resp, err := c.Get(target)
		if err != nil {
			o.log.Error("e2e hook: the sign-in page was not followed", "err", errors.Unwrap(err))
			return
		}
		resp.Body.Close()
		o.log.Info("e2e hook: followed the sign-in page", "status", resp.StatusCode)
		if resp.StatusCode == http.StatusOK {
			e2eFollowed.Add(1)
		}
	}()
	return nil
}

// startTestHook serves GET /state on the loopback address in
// OPENWORKER_E2E_ADDR, for scripts/app-e2e.sh to know when the consent
// modal is up and when the turn is over. It is compiled only into e2e
// builds (-tags e2e) and reads state; it cannot answer prompts or send
// messages: the script does that through the window, with xdotool.
// One route acts: POST /drop with {"paths": [...]} does what a drop of
// those folders on the window does (Window.filesDropped, the function Wails'
// OnFileDrop calls), because xdotool cannot drive an XDND drag; the UI
// then previews the folder as for a real drop.
func startTestHook(a *desktop) {
	addr := os.Getenv("OPENWORKER_E2E_ADDR")
	if addr == "" {
		return
	}
	if host, _, err := net.SplitHostPort(addr); err != nil || !net.ParseIP(host).IsLoopback() {
		a.log.Error("e2e hook: OPENWORKER_E2E_ADDR must be a loopback host:port", "addr", addr)
		return
	}
	if d, err := time.ParseDuration(os.Getenv("OPENWORKER_E2E_SCHEDULE_TICK")); err == nil && d > 0 {
		scheduleTick = d // before the schedules' loop starts (startup)
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		a.log.Error("e2e hook", "err", err)
		return
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(a.hookState(r.Context()))
	})
	mux.HandleFunc("POST /drop", func(w http.ResponseWriter, r *http.Request) {
		var in BundleDropped
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil || len(in.Paths) == 0 {
			http.Error(w, `want {"paths": ["/abs/folder"]}`, http.StatusBadRequest)
			return
		}
		a.Window.filesDropped(in.Paths)
		w.WriteHeader(http.StatusNoContent)
	})
	go func() { _ = http.Serve(l, mux) }()
}

// hookState is what GET /state answers.
type hookState struct {
	Pending int `json:"pending"`
	// PendingAccess: each pending prompt's Access, what its call can
	// reach (docs/sandbox.md#in-words).
	PendingAccess []string `json:"pending_access"`
	// PendingOrigin: each pending prompt's Origin, "" for the
	// model, "the app view of TOOL" for a view's call (views.go).
	PendingOrigin []string `json:"pending_origin"`
	// Views: the app views the window rendered, the newest rect of
	// each (CSS pixels of the viewport); ViewRefusals what the
	// window refused them, in order (views.go).
	Views        []viewShown   `json:"views"`
	ViewRefusals []viewRefusal `json:"view_refusals"`
	Chats        []hookChat    `json:"chats"`
	Notices      []Notice      `json:"notices"`
	Theme        string        `json:"theme"` // the saved theme (docs/app.md#theme)
	// Listed is the first page of the sidebar's chat list as the
	// journal gives it (what Chats.Chats reads); Searched the newest
	// search; ListLoads how often the window read the list.
	Listed    []hookListed `json:"listed"`
	Searched  hookSearched `json:"searched"`
	ListLoads int64        `json:"list_loads"`
	// Models and Connection: the last model list and Test
	// connection of Settings (models_api.go).
	Models     *ModelList      `json:"models,omitempty"`
	Connection *ConnectionTest `json:"connection,omitempty"`
	// Ollama: the first-run setup's last look for Ollama (docs/app.md#first-run).
	Ollama       *OllamaFound `json:"ollama,omitempty"`
	OllamaProbes int          `json:"ollama_probes"`
	// Opened: the extension files sent to the window (extopen.go).
	Opened []ExtensionOpened `json:"opened"`
	// Questions: the servers' questions waiting in the dialog (elicit.go).
	Questions int `json:"questions"`
	// Sampling: the pending prompts that are sampling requests;
	// SignIns the sign-ins waiting for an answer, Followed the
	// sign-in pages e2eOpener followed, SignedIn the namespaces
	// with a stored sign-in (signin.go).
	Sampling int      `json:"sampling"`
	SignIns  int      `json:"sign_ins"`
	Followed int64    `json:"followed"`
	SignedIn []string `json:"signed_in"`
	// Previews: the files the install dialog showed; Extensions
	// the installed ones, "NAME VERSION NAMESPACE" (extinstall.go).
	Previews   []string `json:"previews"`
	Extensions []string `json:"extensions"`
	// Editor: what the coworker editor opened, in order (editor.go):
	// "templates", "new TEMPLATE", "edit DIR", "catalog N", "import N".
	Editor []string `json:"editor"`
	// Inbox: the open inbox items; Schedules each schedule's last run,
	// "SESSION STATUS" (inbox.go, schedules.go).
	Inbox     int      `json:"inbox"`
	Schedules []string `json:"schedules"`
	// KeepRunning: Settings → Background's switch as saved (background.go).
	KeepRunning bool `json:"keep_running"`
	// Coworkers: the newest coworker list, "ID starting|ready|broken"
	// (docs/app.md#starting).
	Coworkers []string `json:"coworkers"`
	// Painted: the window's paint timings (window_paint.go).
	Painted *WindowPaint `json:"painted,omitempty"`
}

// hookChat is an open chat in GET /state.
type hookChat struct {
	SessionID string   `json:"session_id"`
	Running   bool     `json:"running"`
	Turns     []string `json:"turns"`
	Grants    []string `json:"grants"`  // tools with a session grant
	Model     string   `json:"model"`   // the model of its next turn (docs/app.md#model-in-a-chat)
	Results   []string `json:"results"` // each call's journaled result, "TOOL STATUS RESULT" (issue 14)
}

// hookListed is a chat of the sidebar's list in GET /state.
type hookListed struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// hookSearched is the newest chat search in GET /state.
type hookSearched struct {
	Text  string   `json:"text"`
	Found []string `json:"found"`
}

// hookState gathers GET /state: the prompts, what the window reported
// (the e2e* records), the extensions, the sign-ins, the chat list and
// the open chats. Lists are [] rather than null when empty.
func (a *desktop) hookState(ctx context.Context) hookState {
	pend, _ := a.Asks.PendingApprovals()
	out := hookState{Pending: len(pend), Questions: len(a.elicitor.Pending()), Chats: []hookChat{}, Theme: a.settings.theme(), Listed: []hookListed{}, ListLoads: e2eListLoads.Load()}
	out.PendingAccess, out.PendingOrigin = []string{}, []string{}
	out.Inbox, _ = a.Inbox.Count()
	out.Schedules = []string{}
	out.KeepRunning = a.settings.get().KeepRunning
	if list, err := a.Schedules.List(); err == nil {
		for _, sc := range list {
			if sc.LastRun != nil {
				out.Schedules = append(out.Schedules, sc.LastRun.SessionID+" "+sc.LastRun.Status)
			}
		}
	}
	for _, p := range pend {
		if p.Request.Sampling != nil {
			out.Sampling++
		}
		out.PendingAccess = append(out.PendingAccess, p.Request.Access)
		out.PendingOrigin = append(out.PendingOrigin, p.Request.Origin)
	}
	out.readRecords()
	out.Painted = paintRecord()
	out.SignIns = a.signIns.waiting()
	out.Followed, out.SignedIn = e2eFollowed.Load(), []string{}
	out.Extensions = []string{}
	if recs, _ := a.extensionStore().List(); recs != nil {
		for _, r := range recs {
			out.Extensions = append(out.Extensions, r.Name+" "+r.Version+" "+r.Namespace)
		}
	}
	rt := a.engine.runtime()
	j, _ := a.engine.openJournal()
	out.Notices = a.notices.all()
	for _, s := range signedIn(a.servers.state().cfg, a.tokens) {
		out.SignedIn = append(out.SignedIn, s.Namespace)
	}
	if j != nil { // not a.Chats: list_loads counts the window's reads only
		if p, err := j.SessionPage(ctx, journal.SessionQuery{Limit: chatsPageSize, Visible: true}); err == nil {
			for _, s := range p.Sessions {
				out.Listed = append(out.Listed, hookListed{s.ID, s.Title})
			}
		}
	}
	if rt != nil {
		for _, s := range rt.Sessions() {
			out.Chats = append(out.Chats, openChat(ctx, s, j))
		}
	}
	return out
}

// readRecords copies what the window reported into out: the views and
// their refusals, the install previews, the opened extension files, the
// newest search, the model probes and what the editor opened.
func (out *hookState) readRecords() {
	e2eViews.mu.Lock()
	out.Views = append([]viewShown{}, e2eViews.shown...)
	out.ViewRefusals = append([]viewRefusal{}, e2eViews.refusals...)
	e2eViews.mu.Unlock()
	e2ePreviews.mu.Lock()
	out.Previews = append([]string{}, e2ePreviews.list...)
	e2ePreviews.mu.Unlock()
	e2eOpened.mu.Lock()
	out.Opened = append([]ExtensionOpened{}, e2eOpened.list...)
	e2eOpened.mu.Unlock()
	e2eSearch.mu.Lock()
	out.Searched = hookSearched{e2eSearch.Text, append([]string{}, e2eSearch.Found...)}
	e2eSearch.mu.Unlock()
	e2eProbes.mu.Lock()
	out.Models, out.Connection, out.Ollama, out.OllamaProbes = e2eProbes.models, e2eProbes.connection, e2eProbes.ollama, e2eProbes.ollamas
	e2eProbes.mu.Unlock()
	e2eEditor.mu.Lock()
	out.Editor = append([]string{}, e2eEditor.list...)
	e2eCoworkers.mu.Lock()
	out.Coworkers = append([]string{}, e2eCoworkers.list...)
	e2eCoworkers.mu.Unlock()
	e2eEditor.mu.Unlock()
}

// openChat is an open session's state: its grants and, from the journal
// j when it is open, its turns' statuses and its calls' results.
func openChat(ctx context.Context, s *harness.Session, j *journal.Journal) hookChat {
	id := s.ID()
	cs := hookChat{SessionID: id, Running: s.Running(), Turns: []string{}, Grants: []string{}, Results: []string{}, Model: model.NameOf(s.Options().Model)}
	for _, g := range s.Grants() {
		cs.Grants = append(cs.Grants, g.Tool)
	}
	if j == nil {
		return cs
	}
	turns, _ := j.Turns(ctx, id)
	for _, t := range turns {
		cs.Turns = append(cs.Turns, string(t.Status))
	}
	if invs, err := j.Invocations(ctx, id); err == nil {
		for _, inv := range invs {
			cs.Results = append(cs.Results, inv.Tool+" "+string(inv.Status)+" "+string(inv.Result))
		}
	}
	return cs
}
