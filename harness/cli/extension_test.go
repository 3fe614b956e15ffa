package cli_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `extension list` shows what is installed (and a broken record as a
// problem, without hiding the rest); `extension remove` deletes it.
func TestExtensionListAndRemove(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "extensions")
	if code, out := runCLI(t, "extension", "list", "--extensions", dir); code != 0 || !strings.Contains(out, "no extensions installed in "+dir) {
		t.Fatalf("list of nothing = %d %q", code, out)
	}
	for name, rec := range map[string]string{
		"notes":  `{"name":"notes","version":"1.0.0","namespace":"notes","signature":"self-signed","signer":"CN=Ada","installed_at":"2026-12-01T00:00:00Z"}`,
		"broken": `{"name": 3}`,
	} {
		if err := os.MkdirAll(filepath.Join(dir, name, "1.0.0"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name, "installed.json"), []byte(rec), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	code, stdout, stderr := runCLISplit(t, "extension", "list", "--extensions", dir)
	if code != 0 || !strings.Contains(stdout, "notes  1.0.0    notes      self-signed (CN=Ada)") || !strings.Contains(stderr, filepath.Join("broken", "installed.json")) {
		t.Fatalf("list = %d\n%s\n%s", code, stdout, stderr)
	}
	if code, out := runCLI(t, "extension", "list", "--extensions", dir, "--json"); code != 0 || !strings.Contains(out, `"dir": `+jsonText(t, filepath.Join(dir, "notes", "1.0.0"))) || !strings.Contains(out, `"problems"`) {
		t.Fatalf("list --json = %d %s", code, out)
	}
	if code, out := runCLI(t, "extension", "remove", "notes", "--extensions", dir); code != 0 || !strings.Contains(out, "removed notes 1.0.0") {
		t.Fatalf("remove = %d %q", code, out)
	}
	if code, out := runCLI(t, "extension", "remove", "notes", "--extensions", dir); code != 2 || !strings.Contains(out, `no extension "notes" is installed`) {
		t.Fatalf("remove again = %d %q", code, out)
	}
	if code, out := runCLI(t, "extension", "remove", "..", "--extensions", dir); code != 2 || !strings.Contains(out, "cannot be a folder name") {
		t.Fatalf("remove .. = %d %q", code, out)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the extensions folder is gone: %v", err)
	}
}

// jsonText is s as a JSON string ("C:\\Users\\…" for a Windows path).
func jsonText(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
