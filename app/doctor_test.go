package app

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openworker/desktop/harness"
)

// The diagnostics (issue 13): the app's report names its
// journal, the provider of its servers file (a real stdio server, the test
// binary) as started, and the model settings with where the key comes
// from, and holds neither the API key kept in the keychain, nor the
// servers env secret, nor the password and key of the base URL, in any
// form.
func TestDiagnosticsNameNoSecret(t *testing.T) {
	const (
		keychainKey = "sk-owdiag-kc-3Wq8Lp5Zn2"
		envSecret   = "owdiag-env-7Rt4Hs1Mv6"
		urlPassword = "owdiag-pass-9Ke2Fd6Xb3"
		urlKey      = "owdiag-key-5Cy1Gu8Na4"
	)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	servers := filepath.Join(t.TempDir(), "servers.json")
	body, _ := json.Marshal(map[string]any{"servers": map[string]any{"device": map[string]any{
		"transport": "stdio", "command": exe, "env": map[string]string{serveDeviceEnv: "1", "DEVICE_TOKEN": envSecret}}}})
	if err := os.WriteFile(servers, body, 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers, Build: harness.Version{Version: "1.2.3", Commit: "abc1234", Date: "2026-12-01T10:00:00Z"}}})
	writeBundle(t, e.bundles, "dev", "device.battery_status_get") // the diagnostics start only the servers a coworker uses
	if err := e.keys.Set("openai", keychainKey); err != nil {
		t.Fatal(err)
	}
	e.app.settings.mu.Lock()
	e.app.settings.inUse.OpenAI.BaseURL = "http://me:" + urlPassword + "@127.0.0.1:1/v1?key=" + urlKey
	e.app.settings.mu.Unlock()

	text, err := e.app.Activity.Diagnostics()
	if err != nil {
		t.Fatal(err)
	}
	// The report writes the home folder as ~; on Windows the temporary
	// folder (and so the test's config dir and binary) is under it.
	tilde := func(p string) string {
		if home, err := os.UserHomeDir(); err == nil && len(home) >= 2 {
			return strings.ReplaceAll(p, home, "~")
		}
		return p
	}
	for _, want := range []string{"[openworker]", "[system]", "[webview]", "[notifications]", "[keychain]", "[path]", "[journal]", "[providers]", "[model]",
		"path         " + tilde(filepath.Join(e.cfgDir, "journal.db")), "verify       ok:", "1.2.3 (commit abc1234, built 2026-12-01T10:00:00Z)", "provider device  ok: stdio " + tilde(exe), ": started, ",
		"available  ok: yes", "base url   http://127.0.0.1:1/v1?…", "api key    set (OS keychain)", "reachable  failed: "} {
		if !strings.Contains(text, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, text)
		}
	}
	for _, s := range []string{keychainKey, envSecret, urlPassword, urlKey} {
		for _, form := range []string{s, url.QueryEscape(s), base64.StdEncoding.EncodeToString([]byte(s)), s[:len(s)/2+2], s[len(s)/2-2:]} {
			if strings.Contains(text, form) {
				t.Errorf("diagnostics hold %q:\n%s", form, text)
			}
		}
	}
}
