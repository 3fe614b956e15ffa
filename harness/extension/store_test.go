package extension

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A record saved is read back with its folder; a broken record is listed
// as an error naming its file and left alone; Remove deletes the
// sensitive values, the record and every version.
func TestStoreRecords(t *testing.T) {
	sec := &MemorySecrets{}
	s := &Store{Dir: filepath.Join(t.TempDir(), "extensions"), Secrets: sec}
	if recs, errs := s.List(); len(recs) != 0 || len(errs) != 0 {
		t.Fatalf("List of a missing folder = %v, %v", recs, errs)
	}
	r := Record{Name: "notes", Version: "1.2.0", Namespace: "notes", InstalledAt: time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC),
		Values: map[string]any{"folder": "/tmp/x"}, Sensitive: []string{"api_key"}}
	if err := os.MkdirAll(filepath.Join(s.Dir, "notes", "1.2.0"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := s.save(r); err != nil {
		t.Fatal(err)
	}
	if err := sec.Set("notes", "api_key", "sk-secret"); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(filepath.Join(s.Dir, "notes", RecordFile)); strings.Contains(string(data), "sk-secret") {
		t.Fatal("a sensitive value reached installed.json")
	}
	got, err := s.Get("notes")
	if err != nil || got.Dir != filepath.Join(s.Dir, "notes", "1.2.0") || got.Values["folder"] != "/tmp/x" {
		t.Fatalf("Get = %+v, %v", got, err)
	}
	// A broken neighbour does not hide the good one.
	if err := os.MkdirAll(filepath.Join(s.Dir, "broken"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.Dir, "broken", RecordFile), []byte(`{"name":`), 0o600); err != nil {
		t.Fatal(err)
	}
	recs, errs := s.List()
	if len(recs) != 1 || recs[0].Name != "notes" || len(errs) != 1 || !strings.Contains(errs[0].Error(), filepath.Join("broken", RecordFile)) {
		t.Fatalf("List = %+v, %v", recs, errs)
	}
	if _, err := s.Remove("notes"); err != nil {
		t.Fatal(err)
	}
	if sec.Len() != 0 {
		t.Error("Remove left the sensitive value in the keychain")
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "notes")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Remove left the folder: %v", err)
	}
	var ni *NotInstalledError
	if _, err := s.Get("notes"); !errors.As(err, &ni) || !strings.Contains(err.Error(), "extension list") {
		t.Errorf("Get after Remove = %v", err)
	}
	// The broken one can be removed too.
	if _, err := s.Remove("broken"); err != nil {
		t.Errorf("Remove of a broken record = %v", err)
	}
}

func TestStoreRefusesPathNames(t *testing.T) {
	s := &Store{Dir: t.TempDir(), Secrets: &MemorySecrets{}}
	for _, n := range []string{"", ".", "..", "../x", `a\b`, "c:", "a\x00b", strings.Repeat("a", 129), "demo\u202e", "a\u200bb", "bad\xff"} {
		if _, err := s.Get(n); err == nil || !strings.Contains(err.Error(), "cannot be a folder name") {
			t.Errorf("Get(%q) = %v", n, err)
		}
		if _, err := s.Remove(n); err == nil {
			t.Errorf("Remove(%q) succeeded", n)
		}
	}
}

func TestNamespace(t *testing.T) {
	taken := map[string]bool{"notes": true, "notes_2": true}
	for _, tc := range []struct{ name, want, err string }{
		{"memory", "memory", ""},
		{"io.github.acme.files", "io_github_acme_files", ""},
		{"notes", "notes_3", ""},
		{"openworker", "", "reserved"},
		{"日本", "", "a namespace of your choice"},
	} {
		ns, err := Namespace(tc.name, func(s string) bool { return taken[s] })
		if ns != tc.want || (tc.err == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.err) {
			t.Errorf("Namespace(%q) = %q, %v; want %q, %q", tc.name, ns, err, tc.want, tc.err)
		}
	}
}
