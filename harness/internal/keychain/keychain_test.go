package keychain

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/zalando/go-keyring"
)

var errNoBus = errors.New("dial unix /run/user/0/bus: connect: no such file or directory")

// docs/mcp.md#without-a-keychain: with no OS keychain, a secret goes to
// the encrypted file (0600, its key 0600 next to it), the person is told
// once, and the value is read back, never written in plain text, and
// deleted.
func TestFallbackFile(t *testing.T) {
	keyring.MockInitWithError(errNoBus)
	dir := filepath.Join(t.TempDir(), "OpenWorker")
	var notices []string
	k := New(Options{Dir: dir, Notice: func(m string) { notices = append(notices, m) }})
	if _, err := k.Get("svc", "acct"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get before = %v, want ErrNotFound", err)
	}
	const secret = "s3cret-value-that-must-not-show"
	if err := k.Set("svc", "acct", secret); err != nil {
		t.Fatal(err)
	}
	if err := k.Set("svc", "other", "two"); err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 || !strings.Contains(notices[0], filepath.Join(dir, FileName)) || !strings.Contains(notices[0], filepath.Join(dir, KeyName)) ||
		!strings.Contains(notices[0], "no such file or directory") || !strings.Contains(notices[0], "anything that runs as you can read them") {
		t.Fatalf("notices = %q, want one naming both files, the keychain's failure and what it protects", notices)
	}
	if k.Where() != filepath.Join(dir, FileName) {
		t.Errorf("Where = %q", k.Where())
	}
	for _, name := range []string{FileName, KeyName} {
		st, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
			t.Errorf("%s has mode %v, want 0600", name, st.Mode().Perm())
		}
	}
	raw, _ := os.ReadFile(filepath.Join(dir, FileName))
	if bytes.Contains(raw, []byte(secret)) || bytes.Contains(raw, []byte("acct")) {
		t.Fatalf("the file holds the secret or its account in plain text: %s", raw)
	}
	// A new Keychain (a new process) reads it back and says nothing.
	k2 := New(Options{Dir: dir, Notice: func(m string) { notices = append(notices, m) }})
	if v, err := k2.Get("svc", "acct"); err != nil || v != secret {
		t.Fatalf("Get = %q, %v", v, err)
	}
	if err := k2.Set("svc", "acct", "changed"); err != nil {
		t.Fatal(err)
	}
	if len(notices) != 1 {
		t.Fatalf("told again: %q", notices)
	}
	if err := k2.Delete("svc", "acct"); err != nil {
		t.Fatal(err)
	}
	if _, err := k2.Get("svc", "acct"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get after Delete = %v", err)
	}
	if v, err := k2.Get("svc", "other"); err != nil || v != "two" {
		t.Fatalf("the other secret = %q, %v", v, err)
	}
	if err := k2.Delete("svc", "never-there"); err != nil {
		t.Fatalf("Delete of a missing secret = %v", err)
	}
}

// With an OS keychain nothing goes to a file; a copy kept in the file
// while the keychain was away is read until replaced, then dropped.
func TestKeychainFirst(t *testing.T) {
	dir := t.TempDir()
	keyring.MockInitWithError(errNoBus)
	if err := New(Options{Dir: dir}).Set("svc", "old", "from-the-file"); err != nil {
		t.Fatal(err)
	}
	keyring.MockInit()
	told := false
	k := New(Options{Dir: dir, Notice: func(string) { told = true }})
	if err := k.Set("svc", "acct", "v"); err != nil {
		t.Fatal(err)
	}
	if v, err := keyring.Get("svc", "acct"); err != nil || v != "v" {
		t.Fatalf("not in the OS keychain: %q, %v", v, err)
	}
	if v, err := k.Get("svc", "old"); err != nil || v != "from-the-file" {
		t.Fatalf("the file's copy = %q, %v", v, err)
	}
	if err := k.Set("svc", "old", "now-in-the-keychain"); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := k.file().get("svc", "old"); ok {
		t.Error("the file still holds the secret the keychain now keeps")
	}
	if told || k.Where() != "the OS keychain" {
		t.Errorf("told %v, Where %q", told, k.Where())
	}
}

// Without a folder for the file, a missing keychain is an error that
// says what to run.
func TestNoFallbackFolder(t *testing.T) {
	keyring.MockInitWithError(errNoBus)
	k := New(Options{})
	err := k.Set("svc", "acct", "v")
	if err == nil || !strings.Contains(err.Error(), "Secret Service") {
		t.Fatalf("Set = %v", err)
	}
	if _, err := k.Get("svc", "acct"); err == nil || errors.Is(err, ErrNotFound) {
		t.Fatalf("Get = %v, want the keychain's failure", err)
	}
}

// A file that the key does not open (another key) is an error naming
// both files, never a silent empty store that the next write would
// replace.
func TestWrongKey(t *testing.T) {
	keyring.MockInitWithError(errNoBus)
	dir := t.TempDir()
	k := New(Options{Dir: dir})
	if err := k.Set("svc", "acct", "v"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, KeyName), []byte(strings.Repeat("ab", 32)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := k.Get("svc", "acct")
	if err == nil || !strings.Contains(err.Error(), FileName) || !strings.Contains(err.Error(), KeyName) {
		t.Fatalf("Get = %v", err)
	}
	if err := k.Set("svc", "x", "y"); err == nil {
		t.Fatal("Set over a file it cannot open succeeded")
	}
}

// Two Keychains on one folder (two processes) writing at once lose
// nothing: the lock file orders their read-modify-write.
func TestConcurrentWriters(t *testing.T) {
	keyring.MockInitWithError(errNoBus)
	dir := t.TempDir()
	a, b := New(Options{Dir: dir}), New(Options{Dir: dir})
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := a
			if i%2 == 1 {
				k = b
			}
			if err := k.Set("svc", fmt.Sprint("acct", i), fmt.Sprint(i)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for i := range 20 {
		if v, err := a.Get("svc", fmt.Sprint("acct", i)); err != nil || v != fmt.Sprint(i) {
			t.Errorf("acct%d = %q, %v", i, v, err)
		}
	}
}

// Reading with no file yet creates nothing: a check or a run that only
// looks for a sign-in leaves the folder as it was.
func TestReadCreatesNothing(t *testing.T) {
	keyring.MockInitWithError(errNoBus)
	dir := filepath.Join(t.TempDir(), "OpenWorker")
	k := New(Options{Dir: dir})
	if _, err := k.Get("svc", "acct"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("Get = %v", err)
	}
	if err := k.Delete("svc", "acct"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the folder was made: %v", err)
	}
}
