package app

import (
	"net"
	"strings"
	"testing"
)

func TestModelUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	open := "http://" + l.Addr().String() + "/v1"
	defer l.Close()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(closed.Addr().String())
	closed.Close()
	for url, warn := range map[string]bool{
		open:                               false,
		"http://127.0.0.1:" + port + "/v1": true,
		"http://localhost:" + port + "/v1": true,
		"https://api.example.invalid/v1":   false, // remote: never probed
		"http://10.1.2.3:" + port + "/v1":  false,
		"::not a url":                      false,
	} {
		got := modelUnreachable(url)
		if (got != "") != warn || (warn && !strings.Contains(got, url)) {
			t.Errorf("modelUnreachable(%q) = %q; want a warning: %v", url, got, warn)
		}
	}
}

// A model banner raised at start goes when Settings saves a model server
// that answers, and a save that changes nothing sends nothing.
func TestModelNoticeGoesWhenSettingsFixIt(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()
	e := newTestEnv(t, envOpts{cfg: config{BaseURL: dead}})
	modelNotices := func() (n []Notice) {
		info, err := e.app.Window.Info()
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range info.Notices {
			if o.Key == NoticeKeyModel {
				n = append(n, o)
			}
		}
		return n
	}
	if got := modelNotices(); len(got) != 1 || got[0].Level != NoticeWarn || !strings.Contains(got[0].Message, dead) {
		t.Fatalf("start notices keyed %q = %+v; want one warning naming %s", NoticeKeyModel, got, dead)
	}
	sent := func() (n []Notice) { // the model notices sent to the UI
		for _, p := range e.rec.all(EventNotice) {
			if p.(Notice).Key == NoticeKeyModel {
				n = append(n, p.(Notice))
			}
		}
		return n
	}
	v, err := e.app.Preferences.GetSettings()
	if err != nil {
		t.Fatal(err)
	}
	s := v.Settings
	s.ApprovalMode = "bypass" // the model stays broken: no banner is sent again
	if _, err := e.app.Preferences.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if got := sent(); len(got) != 0 {
		t.Errorf("notices after a save that left the model as it was = %+v; want none", got)
	}
	s.OpenAI.BaseURL = e.model.URL
	if _, err := e.app.Preferences.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if got := sent(); len(got) != 1 || got[0] != (Notice{Level: NoticeInfo, Key: NoticeKeyModel}) {
		t.Errorf("notices after saving a model that answers = %+v; want only the removal of the model banner", got)
	}
	if got := modelNotices(); len(got) != 0 {
		t.Errorf("Info notices keyed %q after the fix = %+v; want none", NoticeKeyModel, got)
	}
	s.OpenAI.BaseURL = dead // broken again: the banner comes back
	if _, err := e.app.Preferences.SaveSettings(s); err != nil {
		t.Fatal(err)
	}
	if got := sent(); len(got) != 2 || got[1].Key != NoticeKeyModel || !strings.Contains(got[1].Message, dead) {
		t.Errorf("notices after saving the dead server again = %+v; want a model warning naming %s", got, dead)
	}
}

// TestStartModelAdvice: Ollama's command only for Ollama's port.
func TestStartModelAdvice(t *testing.T) {
	if got := startModelAdvice("http://127.0.0.1:11434/v1"); !strings.Contains(got, "ollama serve") {
		t.Errorf("advice for Ollama's port = %q", got)
	}
	if got := startModelAdvice("http://127.0.0.1:8080/v1"); strings.Contains(got, "llama") || !strings.Contains(got, "Start the server at that address") {
		t.Errorf("advice for another server = %q", got)
	}
}
