package servers

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/zalando/go-keyring"
)

// TestKeychainInputs: an input is asked once and kept in the keychain; the
// next read (and another file with the same input) asks nothing; an empty
// answer is refused and not kept; without a way to ask, an input not yet
// kept is an error saying where to answer it.
func TestKeychainInputs(t *testing.T) {
	keyring.MockInit()
	p := configPath("vscode", ".vscode", "mcp.json")
	var a answers
	inputs := KeychainInputs(a.ask, nil)
	for i := 0; i < 2; i++ {
		cfg := readFixture(t, p, &ConfigOptions{Inputs: inputs})
		if e := cfg.Entries[0]; e.Err != nil || e.Server.Env["PERPLEXITY_API_KEY"] != "ans-perplexity-key" {
			t.Fatalf("read %d: %+v", i, e)
		}
	}
	if n := a.asked["perplexity-key|Perplexity API Key|true"]; n != 1 {
		t.Errorf("asked %d times over two reads; want once", n)
	}
	if ok, err := InputStored("perplexity-key", "Perplexity API Key"); !ok || err != nil {
		t.Errorf("InputStored = %v, %v", ok, err)
	}
	// Only the keychain now: no asking, the kept answer is used.
	cfg := readFixture(t, p, &ConfigOptions{Inputs: KeychainInputs(nil, nil)})
	if e := cfg.Entries[1]; e.Err != nil || e.Server.Headers["X-Key"] != "ans-perplexity-key" {
		t.Errorf("keychain only: %+v", e)
	}
	// Another input, not kept: the error says where to answer it.
	ask := KeychainInputs(nil, nil)
	if _, err := ask(context.Background(), "other", "Other key", true); err == nil || !strings.Contains(err.Error(), "answer it once in the app (Settings) or in a terminal") {
		t.Errorf("unanswered = %v", err)
	}
	empty := KeychainInputs(func(context.Context, string, string, bool) (string, error) { return "", nil }, nil)
	if _, err := empty(context.Background(), "blank", "Blank", false); err == nil || !strings.Contains(err.Error(), "empty") {
		t.Errorf("empty answer = %v", err)
	}
	if ok, _ := InputStored("blank", "Blank"); ok {
		t.Error("an empty answer was kept")
	}
	// SetInput keeps and removes answers (the app's Settings use it).
	if err := SetInput("other", "Other key", "v4lue"); err != nil {
		t.Fatal(err)
	}
	if v, err := ask(context.Background(), "other", "Other key", true); v != "v4lue" || err != nil {
		t.Errorf("after SetInput: %q, %v", v, err)
	}
	if err := SetInput("other", "Other key", ""); err != nil {
		t.Fatal(err)
	}
	if ok, _ := InputStored("other", "Other key"); ok {
		t.Error("SetInput with an empty value kept the answer")
	}
}

// TestKeychainInputsUnavailable: a keychain that cannot be used still lets
// the person answer for this read, with a warning that never holds the
// answer.
func TestKeychainInputsUnavailable(t *testing.T) {
	keyring.MockInitWithError(errors.New("no Secret Service"))
	t.Cleanup(keyring.MockInit)
	var warnings []string
	var a answers
	ask := KeychainInputs(a.ask, func(err error) { warnings = append(warnings, err.Error()) })
	v, err := ask(context.Background(), "k", "Key", true)
	if v != "ans-k" || err != nil {
		t.Fatalf("ask = %q, %v", v, err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "no Secret Service") || strings.Contains(warnings[0], "ans-k") {
		t.Errorf("warnings = %q", warnings)
	}
}

// TestKeychainInputsFallbackFile (docs/mcp.md#without-a-keychain): with no
// OS keychain and a folder for the encrypted file, an answer is asked
// once, kept in the file (not in plain text) with one notice, and read
// from it by the next reader without asking or warning.
func TestKeychainInputsFallbackFile(t *testing.T) {
	keyring.MockInitWithError(errors.New("no Secret Service"))
	t.Cleanup(keyring.MockInit)
	dir := t.TempDir()
	var a answers
	var warnings, notices []string
	o := InputsOptions{Ask: a.ask, Warn: func(err error) { warnings = append(warnings, err.Error()) }, Dir: dir,
		Notice: func(m string) { notices = append(notices, m) }}
	for i := 0; i < 2; i++ {
		v, err := KeychainInputsWith(o)(context.Background(), "k", "Key", true)
		if v != "ans-k" || err != nil {
			t.Fatalf("read %d = %q, %v", i, v, err)
		}
	}
	if n := a.asked["k|Key|true"]; n != 1 || len(warnings) != 0 || len(notices) != 1 {
		t.Fatalf("asked %d, warnings %q, notices %q; want asked once, no warning, one notice", n, warnings, notices)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "secrets.enc"))
	if err != nil || bytes.Contains(raw, []byte("ans-k")) {
		t.Fatalf("the file = %q, %v: missing, or the answer in plain text", raw, err)
	}
}
