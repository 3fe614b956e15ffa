//go:build unix

package extension_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/mcp/launch"
)

const token = "tok-secret-8f2a61"

// TestInstallMemoryExtension: server-memory packed by the official mcpb
// CLI installs, runs as an MCP provider with its user_config (the data
// folder in its env, the sensitive token from the keychain and never in a
// file), upgrades keeping its values, and is removed with its secrets.
func TestInstallMemoryExtension(t *testing.T) {
	ctx := context.Background()
	secrets := &extension.MemorySecrets{}
	s := &extension.Store{Dir: filepath.Join(t.TempDir(), "extensions"), Secrets: secrets}
	host := manifest.HostAt("", t.TempDir())
	runtimes := extension.FindRuntimes(ctx, launch.Search{Path: os.Getenv("PATH")})
	if !strings.HasPrefix(runtimes["node"], "v") {
		t.Fatalf("FindRuntimes = %v, want node's version", runtimes)
	}

	file := extensiontest.Memory(t, "1.0.0", true)
	in, err := s.Inspect(file, extension.InspectOptions{Runtimes: runtimes, Taken: func(ns string) bool { return ns == "device" }})
	if err != nil {
		t.Fatal(err)
	}
	if in.Namespace != "memory" || in.Installed != nil || in.Signature.Status != archive.SelfSigned || in.Runtime.Name != "node" ||
		len(in.Blocking) != 0 || len(in.Warnings) != 0 || in.Manifest.Title() != "Memory (test)" {
		t.Fatalf("Inspect = %+v", in)
	}
	// A required value left out: nothing is written.
	if _, err := s.Install(in, map[string]any{"api_token": token}, host); err == nil || !strings.Contains(err.Error(), "user_config.data_dir") {
		t.Fatalf("Install without data_dir = %v", err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "memory", "1.0.0")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a refused install left its folder: %v", err)
	}
	data := t.TempDir()
	rec, err := s.Install(in, map[string]any{"data_dir": data, "api_token": token}, host)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Dir != filepath.Join(s.Dir, "memory", "1.0.0") || rec.Signature != "self-signed" || rec.Values["data_dir"] != data || len(rec.Sensitive) != 1 {
		t.Fatalf("record = %+v", rec)
	}
	if v, _ := secrets.Get("memory", "api_token"); v != token {
		t.Fatalf("the token in the keychain = %q", v)
	}
	noToken(t, s.Dir)

	callMemory(t, s, rec, host, data)

	// An upgrade keeps the values; the old version stays until Prune.
	in2, err := s.Inspect(extensiontest.Memory(t, "1.1.0", false), extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in2.Installed == nil || in2.Installed.Version != "1.0.0" || in2.Namespace != "memory" || in2.Signature.Status != archive.Unsigned {
		t.Fatalf("Inspect of the upgrade = %+v", in2)
	}
	rec2, err := s.Install(in2, nil, host)
	if err != nil {
		t.Fatal(err)
	}
	if rec2.Version != "1.1.0" || rec2.Values["data_dir"] != data {
		t.Fatalf("upgraded record = %+v", rec2)
	}
	if _, err := os.Stat(rec.Dir); err != nil {
		t.Fatalf("the old version's folder is gone before Prune: %v", err)
	}
	if errs := s.Prune(); len(errs) != 0 {
		t.Fatal(errs)
	}
	if _, err := os.Stat(rec.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Prune left the old version: %v", err)
	}
	callMemory(t, s, rec2, host, data)
	noToken(t, s.Dir)

	if _, err := s.Remove("memory"); err != nil {
		t.Fatal(err)
	}
	if secrets.Len() != 0 {
		t.Error("Remove left the token in the keychain")
	}
	if recs, errs := s.List(); len(recs) != 0 || len(errs) != 0 {
		t.Errorf("List after Remove = %v, %v", recs, errs)
	}
}

// callMemory starts the extension's provider and creates an entity: the
// memory file lands in the data folder its user_config names, and the
// token the server was given is redacted from what it sends back.
func callMemory(t *testing.T, s *extension.Store, rec extension.Record, host manifest.Host, data string) {
	t.Helper()
	srv, err := s.Server(rec, host)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Namespace != "memory" || srv.Program != "node" || srv.Env["API_TOKEN"] != token || len(srv.Secrets) != 1 {
		t.Fatalf("Server = %+v", srv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second) // a hang guard: it starts a process
	defer cancel()
	p, err := mcp.Connect(ctx, srv, &mcp.Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	name := "Ada " + rec.Version
	args, _ := json.Marshal(map[string]any{"entities": []map[string]any{{"name": name, "entityType": "person", "observations": []string{"token " + token}}}})
	out, err := p.CallTool(ctx, "create_entities", args, nil)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.ModelText(), token) || !strings.Contains(out.ModelText(), "[redacted]") {
		t.Errorf("create_entities = %s; want the token redacted", out.ModelText())
	}
	b, err := os.ReadFile(filepath.Join(data, "memory.jsonl"))
	if err != nil || !strings.Contains(string(b), name) {
		t.Fatalf("memory file in the data folder: %q, %v", b, err)
	}
}

// noToken: no file under dir holds the token.
func noToken(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), token) {
				t.Errorf("%s holds the sensitive value", p)
			}
		}
		return nil
	})
}

// failingSecrets refuses to save, as a machine without a keychain does.
type failingSecrets struct{ extension.MemorySecrets }

func (*failingSecrets) Set(string, string, string) error { return errors.New("no keychain here") }

// TestInstallLeavesNothingWhenTheKeychainFails: a new install whose
// sensitive value cannot be saved leaves no folder behind (so nothing
// half-installed that list and remove cannot see); a name that differs
// from an installed one only in case is refused.
func TestInstallLeavesNothingWhenTheKeychainFails(t *testing.T) {
	s := &extension.Store{Dir: filepath.Join(t.TempDir(), "extensions"), Secrets: &failingSecrets{}}
	host := manifest.HostAt("", t.TempDir())
	in, err := s.Inspect(extensiontest.Memory(t, "1.0.0", false), extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Install(in, map[string]any{"data_dir": t.TempDir(), "api_token": token}, host); err == nil || !strings.Contains(err.Error(), "no keychain here") {
		t.Fatalf("Install = %v", err)
	}
	// Only the folder's lock file (empty; List skips it) may remain.
	if ents, _ := os.ReadDir(s.Dir); len(ents) != 1 || ents[0].Name() != ".lock" || ents[0].IsDir() {
		t.Fatalf("a failed install left %v in the extensions folder", ents)
	}
	if err := os.MkdirAll(filepath.Join(s.Dir, "Memory"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Inspect(in.Path, extension.InspectOptions{}); err == nil || !strings.Contains(err.Error(), "only in case or Unicode form") {
		t.Fatalf("Inspect with Memory installed = %v", err)
	}
}
