package app

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/openworker/desktop/internal/update"
	"github.com/openworker/desktop/internal/update/feedgen"
)

// The app's check finds a newer signed release on 127.0.0.1, downloads it
// with progress and stages it ("ready": restart to update); a development
// build never asks the feed; a feed changed after signing ends in "error"
// with the reason and nothing staged.
func TestUpdaterStagesANewerRelease(t *testing.T) {
	dir := t.TempDir()
	pub, err := feedgen.Keygen(filepath.Join(dir, "key"))
	if err != nil {
		t.Fatal(err)
	}
	update.SwapKeyForTest(t, pub)
	var requests atomic.Int32
	files := http.FileServer(http.Dir(dir))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		files.ServeHTTP(w, r)
	}))
	defer srv.Close()
	build := strings.Repeat("new build ", 1000)
	os.WriteFile(filepath.Join(dir, "build"), []byte(build), 0o755)
	sign := func() {
		err := feedgen.Sign(filepath.Join(dir, "key", "update.key"), filepath.Join(dir, "feed.json"), feedgen.Release{
			Version: "3.1.0", Notes: "Schedules run on battery.",
			Assets: []feedgen.Asset{{Platform: update.Platform(), File: filepath.Join(dir, "build"), URL: srv.URL + "/build"}},
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	sign()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	on := func() bool { return true }

	dev := newUpdater(srv.URL+"/feed.json", filepath.Join(t.TempDir(), "updates"), "acdcef5-dirty", on, logger)
	dev.check(context.Background())
	if st := dev.status(); st.State != "not_updatable" || requests.Load() != 0 {
		t.Fatalf("development build: %+v after %d requests", st, requests.Load())
	}

	stage := filepath.Join(t.TempDir(), "updates")
	u := newUpdater(srv.URL+"/feed.json", stage, "3.0.2", on, logger)
	u.check(context.Background())
	st := u.status()
	if st.State != "ready" || st.Latest != "3.1.0" || st.Notes != "Schedules run on battery." || st.Done != int64(len(build)) || st.Total != st.Done || !st.On {
		t.Fatalf("status = %+v", st)
	}
	if s, ok, err := update.ReadStaged(stage); !ok || err != nil || s.Version != "3.1.0" {
		t.Fatalf("staged = %+v %v %v", s, ok, err)
	}

	body, _ := os.ReadFile(filepath.Join(dir, "feed.json"))
	os.WriteFile(filepath.Join(dir, "feed.json"), []byte(strings.Replace(string(body), "3.1.0", "3.2.0", 1)), 0o644)
	stage2 := filepath.Join(t.TempDir(), "updates")
	u2 := newUpdater(srv.URL+"/feed.json", stage2, "3.0.2", on, logger)
	u2.check(context.Background())
	if st := u2.status(); st.State != "error" || !strings.Contains(st.Error, "signature does not match") {
		t.Fatalf("tampered feed: %+v", st)
	}
	if _, ok, _ := update.ReadStaged(stage2); ok {
		t.Error("a refused feed staged an update")
	}
}

// With the switch off, the running check does not ask the feed.
func TestUpdaterOffDoesNotCheck(t *testing.T) {
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { requests.Add(1) }))
	defer srv.Close()
	u := newUpdater(srv.URL+"/feed.json", t.TempDir(), "1.0.0", func() bool { return false }, slog.New(slog.NewTextHandler(io.Discard, nil)))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	u.run(ctx)
	if st := u.status(); requests.Load() != 0 || st.On || st.State != "idle" {
		t.Fatalf("switch off: %+v after %d requests", st, requests.Load())
	}
}

// The switch is saved in settings.json at once and Save Settings keeps it.
func TestSetUpdateChecksSavesTheSwitch(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	a := e.app
	if st, err := a.Preferences.SetUpdateChecks(false); err != nil || st.On {
		t.Fatalf("SetUpdateChecks(false) = %+v, %v", st, err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); !saved.UpdatesOff {
		t.Fatalf("saved = %+v; want updates_off", saved)
	}
	form, _ := a.Preferences.GetSettings()
	form.Settings.UpdatesOff = false
	if _, err := a.Preferences.SaveSettings(form.Settings); err != nil {
		t.Fatal(err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); !saved.UpdatesOff {
		t.Fatal("Save Settings turned update checks back on")
	}
	if _, err := a.Preferences.SetUpdateChecks(true); err != nil {
		t.Fatal(err)
	}
	if saved, _ := LoadSettings(a.paths.Settings); saved.UpdatesOff {
		t.Fatal("the switch was not turned on")
	}
}
