package extension

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/extension/manifest"
)

// zipBundle is extensiontest.Zip: an .mcpb written with archive/zip.
var zipBundle = func(t *testing.T, name, version string, edit func(m map[string]any)) string {
	return extensiontest.Zip(t, name, version, edit)
}

func testHost(t *testing.T) manifest.Host {
	home := t.TempDir()
	return manifest.Host{GOOS: "", Home: home, Desktop: home, Documents: home, Downloads: home}
}

// Installs of one file by several processes at once (here Stores of the
// same folder, each with its own lock handle) take turns: every one
// succeeds, and the record names a complete version folder. Without the
// folder's lock they shared one staging folder and one could remove the
// folder another had just put in place.
func TestHostileConcurrentInstalls(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "extensions")
	file := zipBundle(t, "race", "1.0.0", nil)
	host := testHost(t)
	var wg sync.WaitGroup
	errs := make([]error, 16)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := &Store{Dir: dir, Secrets: &MemorySecrets{}}
			in, err := s.Inspect(file, InspectOptions{})
			if err == nil {
				_, err = s.Install(in, nil, host)
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("install %d: %v", i, err)
		}
	}
	s := &Store{Dir: dir}
	r, err := s.Get("race")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(r.Dir, "server", "run.sh")); err != nil {
		t.Fatalf("the record names %s, which is not complete: %v", r.Dir, err)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, "race"))
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != "1.0.0 installed.json" {
		t.Errorf("the extension's folder holds %q, want the version and its record only", names)
	}
}

// A careless user's hand edits: a record whose namespace is no namespace
// is refused naming installed.json and the fix; a version folder deleted
// by hand makes only that provider broken, naming the folder and the file
// to install again, and the same file installs again over it.
func TestHostileHandEditedStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "extensions")
	s := &Store{Dir: dir, Secrets: &MemorySecrets{}}
	host := testHost(t)
	for _, name := range []string{"kept", "gone", "edited"} {
		in, err := s.Inspect(zipBundle(t, name, "1.0.0", nil), InspectOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Install(in, nil, host); err != nil {
			t.Fatal(err)
		}
	}
	recFile := filepath.Join(dir, "edited", RecordFile)
	raw, _ := os.ReadFile(recFile)
	os.WriteFile(recFile, []byte(strings.Replace(string(raw), `"namespace": "edited"`, `"namespace": "shell.exec"`, 1)), 0o600)
	gone, _ := s.Get("gone")
	if err := os.RemoveAll(gone.Dir); err != nil {
		t.Fatal(err)
	}
	servers, broken := s.Servers(host)
	if len(servers) != 1 || servers[0].Namespace != "kept" {
		t.Fatalf("servers = %+v", servers)
	}
	var msgs []string
	for _, b := range broken {
		msgs = append(msgs, b.Err.Error())
	}
	all := strings.Join(msgs, "\n")
	for _, want := range []string{
		recFile + `: namespace "shell.exec" has '.' at byte 5`, "remove extension edited and install it again",
		"extension gone: the folder of version 1.0.0, " + gone.Dir + ", is missing; install the extension again (from " + gone.Source + ": its settings are kept), or remove it",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("broken:\n%s\nwant %q", all, want)
		}
	}
	in, err := s.Inspect(gone.Source, InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(in, nil, host); err != nil {
		t.Fatalf("install over the deleted folder: %v", err)
	}
	if servers, _ := s.Servers(host); len(servers) != 2 {
		t.Errorf("after the install again: %d servers", len(servers))
	}
}

// Without a keychain (Linux with no D-Bus session, as over ssh), installing
// an extension with a sensitive setting fails before anything is written,
// naming the setting and what to start; the value is never in the error.
func TestHostileNoKeychain(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the Secret Service is Linux's")
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	dir := filepath.Join(t.TempDir(), "extensions")
	s := &Store{Dir: dir} // the OS keychain
	file := zipBundle(t, "secretive", "1.0.0", func(m map[string]any) {
		m["user_config"] = map[string]any{"token": map[string]any{"type": "string", "title": "Token", "description": "d", "sensitive": true, "required": true}}
	})
	in, err := s.Inspect(file, InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	const secret = "sk-never-shown-2718"
	_, err = s.Install(in, map[string]any{"token": secret}, testHost(t))
	if err == nil || !strings.Contains(err.Error(), "extension secretive: read token from the keychain") ||
		!strings.Contains(err.Error(), "start a Secret Service") || strings.Contains(err.Error(), secret) {
		t.Fatalf("Install = %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "secretive")); !os.IsNotExist(err) {
		t.Errorf("a failed install left its folder: %v", err)
	}
}

// An upgrade whose field changes type does not carry the old value into
// the new version (where it would fail every start): Inspect warns that it
// is not kept, the field is asked again, and a field the new version
// dropped leaves the record.
func TestHostileUpgradeChangesASetting(t *testing.T) {
	s := &Store{Dir: filepath.Join(t.TempDir(), "extensions"), Secrets: &MemorySecrets{}}
	host := testHost(t)
	field := func(typ string) map[string]any {
		return map[string]any{"type": typ, "title": "N", "description": "d", "required": true}
	}
	v1 := zipBundle(t, "upg", "1.0.0", func(m map[string]any) {
		m["user_config"] = map[string]any{"n": field("string"), "k": map[string]any{"type": "string", "title": "K", "description": "d"}}
	})
	in, err := s.Inspect(v1, InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(in, map[string]any{"n": "hello", "k": "kept"}, host); err != nil {
		t.Fatal(err)
	}
	v2 := zipBundle(t, "upg", "2.0.0", func(m map[string]any) { m["user_config"] = map[string]any{"n": field("number")} })
	if in, err = s.Inspect(v2, InspectOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(in.Warnings) != 1 || in.Warnings[0] != "the setting n of the installed version, hello, is no number value of this version: it is not kept; give it again" {
		t.Errorf("warnings = %q", in.Warnings)
	}
	if _, err := s.Install(in, nil, host); err == nil || !strings.Contains(err.Error(), "user_config.n (N): a value is required") {
		t.Fatalf("Install without n = %v", err)
	}
	rec, err := s.Install(in, map[string]any{"n": 3}, host)
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Values) != 1 || rec.Values["n"] != 3.0 {
		t.Errorf("values = %v", rec.Values)
	}
}
