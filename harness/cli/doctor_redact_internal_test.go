package cli

import (
	"encoding/base64"
	"net/url"
	"os"
	"path/filepath"
	"testing"
)

// Each form a secret may take in the report is hidden, a short value is
// not (it would blank out ordinary words), and a URL keeps only its
// scheme, host and path.
func TestDoctorRedactorForms(t *testing.T) {
	const secret = `tok/"en+=&9`
	r := secretReplacer([]string{secret, "on"})
	for _, form := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawURLEncoding.EncodeToString([]byte(secret)), `tok/\"en+=\u00269`} {
		if got := r.Replace("x " + form + " y"); got != "x [redacted] y" {
			t.Errorf("Replace(%q) = %q", form, got)
		}
	}
	if got := r.Replace("turn on"); got != "turn on" {
		t.Errorf("a 2-byte value was hidden: %q", got)
	}
	if got := SafeURL("https://u:pw@example.test:8443/a/b?key=k#frag"); got != "https://example.test:8443/a/b?…" {
		t.Errorf("SafeURL = %q", got)
	}
	got := urlSecrets("https://u:pw-secret@example.test/?api_key=abc&page=2&sig=xyz&long=12345678")
	want := map[string]bool{"pw-secret": true, "abc": true, "xyz": true, "12345678": true}
	for _, s := range got {
		if !want[s] {
			t.Errorf("urlSecrets holds %q, not a secret", s)
		}
		delete(want, s)
	}
	if len(want) > 0 {
		t.Errorf("urlSecrets(...) = %v; lacks %v", got, want)
	}
	if home, err := os.UserHomeDir(); err == nil && len(home) > 1 {
		if got := homeTilde(filepath.Join(home, "x")); got != filepath.Join("~", "x") {
			t.Errorf("homeTilde = %q, want ~/x", got)
		}
	}
}
