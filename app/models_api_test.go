package app

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/model/modeltest"
)

const storedKey = "sk-stored-0123456789abcdef"

func TestListModels(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	e.model.SetModels("scripted", "other")
	l, err := e.app.Preferences.ListModels("openai", e.model.URL, "")
	if err != nil {
		t.Fatal(err)
	}
	if l.API != "openai" || l.BaseURL != e.model.URL || strings.Join(l.Models, ",") != "scripted,other" {
		t.Errorf("ListModels = %+v; want the scripted server's two models", l)
	}
	// The stored key goes with the request; a typed key replaces it.
	var mu sync.Mutex
	var auth []string
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		auth = append(auth, r.Header.Get("Authorization"))
		mu.Unlock()
		fmt.Fprint(w, `{"data":[{"id":"m"}]}`)
	}))
	defer s.Close()
	e.keys.Set("openai", storedKey)
	if _, err := e.app.Preferences.ListModels("openai", s.URL+"/v1", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Preferences.ListModels("openai", s.URL+"/v1", " sk-typed-0123456789 "); err != nil {
		t.Fatal(err)
	}
	if len(auth) != 2 || auth[0] != "Bearer "+storedKey || auth[1] != "Bearer sk-typed-0123456789" {
		t.Errorf("Authorization headers = %q; want the stored key, then the typed one", auth)
	}
	// A rejected key: the status and the server's message, never the key.
	e.model.FailModels(401, "Incorrect API key provided: "+storedKey)
	_, err = e.app.Preferences.ListModels("openai", e.model.URL, "")
	if err == nil || !strings.Contains(err.Error(), "could not list the models: GET "+e.model.URL+"/models: HTTP 401: Incorrect API key provided") ||
		strings.Contains(err.Error(), storedKey) {
		t.Errorf("ListModels with a rejected key = %v; want HTTP 401 with the message and without the key", err)
	}
	for _, bad := range [][2]string{{"gemini", ""}, {"openai", "127.0.0.1:11434"}, {"openai", "http://me:pw@127.0.0.1:1/v1"}} {
		if _, err := e.app.Preferences.ListModels(bad[0], bad[1], ""); err == nil {
			t.Errorf("ListModels(%q, %q) = nil error", bad[0], bad[1])
		}
	}
}

func TestTestConnection(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	e.model.SetModels("scripted")
	c, err := e.app.Preferences.TestConnection("openai", e.model.URL, "scripted", "")
	if err != nil {
		t.Fatal(err)
	}
	if !c.OK || c.Via != "models" || c.LatencyMS < 0 || !c.Listed || c.Model != "scripted" || c.Error != "" {
		t.Errorf("TestConnection = %+v; want OK through the models list, with the model listed", c)
	}
	if c, _ := e.app.Preferences.TestConnection("openai", e.model.URL, "nope", ""); !c.OK || c.Listed {
		t.Errorf("TestConnection with a model the server does not list = %+v; want OK, not listed", c)
	}
	if n := len(e.model.Requests()); n != 0 {
		t.Errorf("Test connection sent %d chat requests; want none", n)
	}

	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()
	c, err = e.app.Preferences.TestConnection("openai", dead, "scripted", storedKey)
	if err != nil || c.OK || c.Reason != "refused" || !strings.Contains(c.Error, "nothing listens at "+l.Addr().String()) ||
		!strings.Contains(c.Advice, "Start the server at that address") || strings.Contains(c.Error, storedKey) {
		t.Errorf("TestConnection to a closed port = %+v, %v; want refused, named, with advice", c, err)
	}
	e.model.FailModels(403, "key "+storedKey+" may not list models")
	c, _ = e.app.Preferences.TestConnection("openai", e.model.URL, "scripted", storedKey)
	if c.OK || c.Status != 403 || !strings.Contains(c.Error, "HTTP 403: key [redacted] may not list models") || !strings.Contains(c.Advice, "API key") {
		t.Errorf("TestConnection with a refused key = %+v", c)
	}
}

// A server that never answers: Test connection reports the timeout
// (probeTimeout, shortened here) instead of hanging Settings.
func TestTestConnectionTimeout(t *testing.T) {
	defer func(d time.Duration) { probeTimeout = d }(probeTimeout)
	probeTimeout = 150 * time.Millisecond
	e := newTestEnv(t, envOpts{})
	release := make(chan struct{})
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer s.Close()
	defer close(release)
	c, err := e.app.Preferences.TestConnection("openai", s.URL+"/v1", "scripted", "")
	if err != nil || c.OK || c.Reason != "timeout" || !strings.Contains(c.Error, "timeout: no answer within 150ms") {
		t.Errorf("TestConnection to a silent server = %+v, %v", c, err)
	}
}

// The first-start model banner goes as soon as a probe of the model in
// use succeeds (the server was started after the app), without a save.
func TestModelNoticeGoesWhenAProbeSucceeds(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	dead := "http://" + addr + "/v1"
	e := newTestEnv(t, envOpts{cfg: config{BaseURL: dead}})
	info, _ := e.app.Window.Info()
	if len(info.Notices) != 1 || info.Notices[0].Key != NoticeKeyModel {
		t.Fatalf("start notices = %+v; want the model banner", info.Notices)
	}
	// A probe of another server changes nothing.
	if _, err := e.app.Preferences.ListModels("openai", e.model.URL, ""); err != nil {
		t.Fatal(err)
	}
	if n := e.rec.all(EventNotice); len(n) != 0 {
		t.Errorf("notices after listing another server = %+v; want none", n)
	}
	// The server in use starts: listing it removes the banner.
	l, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("the port of the dead server was taken meanwhile: %v", err)
	}
	srv := &http.Server{Handler: modeltest.NewHandler(modeltest.OpenAI)}
	go srv.Serve(l)
	defer srv.Close()
	if c, _ := e.app.Preferences.probeConfig("openai", "", "", ""); c.BaseURL != "http://127.0.0.1:11434/v1" || c.Model != "llama3.2" {
		t.Errorf("probe config of empty fields = %s %s; want the defaults (Ollama), as Settings would save them", c.BaseURL, c.Model)
	}
	if _, err := e.app.Preferences.ListModels("openai", dead, ""); err != nil {
		t.Fatal(err)
	}
	sent := e.rec.all(EventNotice)
	if len(sent) != 1 || sent[0] != (Notice{Level: NoticeInfo, Key: NoticeKeyModel}) {
		t.Errorf("notices after the server in use answered = %+v; want the removal of the model banner", sent)
	}
	if info, _ := e.app.Window.Info(); len(info.Notices) != 0 {
		t.Errorf("Info notices = %+v; want none", info.Notices)
	}
	v, _ := e.app.Preferences.GetSettings()
	if v.ModelWarning != "" || v.Effective["openai"].BaseURL != dead || v.Effective["openai"].Model != "scripted" {
		t.Errorf("view: warning %q, effective %+v", v.ModelWarning, v.Effective)
	}
}

// The model banner also goes when a turn's model answers: the server at
// the address in use was started after the app.
func TestModelNoticeGoesWhenATurnAnswers(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	e := newTestEnv(t, envOpts{cfg: config{BaseURL: "http://" + addr + "/v1"}})
	if info, _ := e.app.Window.Info(); len(info.Notices) != 1 {
		t.Fatalf("start notices = %+v; want the model banner", info.Notices)
	}
	if l, err = net.Listen("tcp", addr); err != nil {
		t.Skipf("the port of the dead server was taken meanwhile: %v", err)
	}
	srv := &http.Server{Handler: modeltest.NewHandler(modeltest.OpenAI, modeltest.Reply{Text: "hello"})}
	go srv.Serve(l)
	defer srv.Close()
	chat, err := e.app.Chats.OpenChat("helper")
	if err != nil {
		t.Fatal(err)
	}
	if res, err := e.app.Chats.Send(chat.SessionID, "hi"); err != nil || res.Text != "hello" {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	var sent []Notice
	for _, p := range e.rec.all(EventNotice) {
		if p.(Notice).Key == NoticeKeyModel {
			sent = append(sent, p.(Notice))
		}
	}
	if len(sent) != 1 || sent[0].Message != "" {
		t.Errorf("model notices after a turn answered = %+v; want the removal of the banner", sent)
	}
}
