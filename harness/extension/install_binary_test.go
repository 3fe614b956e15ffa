//go:build unix

package extension_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/extensiontest"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/mcp"
)

const echoToken = "tok-echo-5c19e2"

// TestInstallBinaryExtension: a Go MCP server (extensiontest/cmd/echoserver,
// built with go build) packed as a binary extension by the official mcpb
// CLI, once with its executable bit lost (mode 0o644 in the zip) and
// unsigned, once as an author packs it (0o755) and self-signed. Install
// gives the lost bit back; the server starts with ${__dirname} and the
// user_config values substituted (the sensitive one from the keychain);
// the upgrade keeps the values; installing the older file again is
// allowed and said (Inspection.Older); Source is stored absolute; Remove
// takes the folder and the secret.
func TestInstallBinaryExtension(t *testing.T) {
	lost := extensiontest.Echo(t, "1.0.0", 0o644, false)
	signed := extensiontest.Echo(t, "1.1.0", 0o755, true)
	secrets := &extension.MemorySecrets{}
	s := &extension.Store{Dir: filepath.Join(t.TempDir(), "extensions"), Secrets: secrets}
	home := t.TempDir()
	host := manifest.HostAt("", home)

	// The packer kept the mode it was given: the entry point is not
	// executable in the archive.
	arc, err := archive.Open(lost)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(arc.Entries(), func(e archive.Entry) bool { return e.Name == extensiontest.EchoServer })
	if i < 0 || arc.Entries()[i].Mode.Perm()&0o111 != 0 {
		t.Fatalf("the archive's entries = %+v; want %s without its executable bit", arc.Entries(), extensiontest.EchoServer)
	}

	t.Chdir(filepath.Dir(lost)) // a relative path, as typed in a shell
	in, err := s.Inspect(filepath.Base(lost), extension.InspectOptions{Runtimes: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if in.Namespace != "echo" || in.Runtime.Name != "" || in.Signature.Status != archive.Unsigned || in.Older || len(in.Blocking)+len(in.Warnings) != 0 {
		t.Fatalf("Inspect = %+v", in)
	}
	rec, err := s.Install(in, map[string]any{"prefix": "hey", "token": echoToken, "repeat": 2.0}, host)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Source != lost || !filepath.IsAbs(rec.Source) {
		t.Errorf("Source = %q, want the absolute %q", rec.Source, lost)
	}
	bin := filepath.Join(rec.Dir, filepath.FromSlash(extensiontest.EchoServer))
	if fi, err := os.Stat(bin); err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("the installed entry point: %v, %v; want mode 0755", fi, err)
	}
	callEcho(t, s, rec, host, "hey: ping ping", home)
	noSecret(t, s.Dir)

	// The signed upgrade keeps the values.
	in2, err := s.Inspect(signed, extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if in2.Signature.Status != archive.SelfSigned || !strings.Contains(in2.Signature.Subject, "Self-Signed") || in2.Installed == nil || in2.Older {
		t.Fatalf("Inspect of the signed upgrade = %+v", in2)
	}
	rec2, err := s.Install(in2, map[string]any{"prefix": "ho"}, host)
	if err != nil {
		t.Fatal(err)
	}
	if rec2.Version != "1.1.0" || rec2.Signature != "self-signed" || rec2.Values["repeat"] != 2.0 {
		t.Fatalf("upgraded record = %+v", rec2)
	}
	callEcho(t, s, rec2, host, "ho: ping ping", home)

	// The older file again: said, not refused.
	in3, err := s.Inspect(lost, extension.InspectOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !in3.Older || len(in3.Blocking) != 0 || len(in3.Warnings) != 1 || !strings.Contains(in3.Warnings[0], "version 1.0.0, older than the installed 1.1.0") {
		t.Fatalf("Inspect of the older file: Older %v, Blocking %q, Warnings %q", in3.Older, in3.Blocking, in3.Warnings)
	}
	if rec3, err := s.Install(in3, nil, host); err != nil || rec3.Version != "1.0.0" {
		t.Fatalf("Install of the older file = %+v, %v", rec3, err)
	}
	if got, _ := s.Get("echo"); got.Version != "1.0.0" {
		t.Fatalf("installed after the downgrade: %+v", got)
	}

	if _, err := s.Remove("echo"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(s.Dir, "echo")); !errors.Is(err, os.ErrNotExist) || secrets.Len() != 0 {
		t.Fatalf("after Remove: folder %v, %d secrets", err, secrets.Len())
	}
}

// callEcho starts the extension's provider from its record and calls both
// tools: echo answers want; settings shows ${__dirname}, the folder default
// ${HOME} (home) and the token's digest (the token itself never comes back).
func callEcho(t *testing.T, s *extension.Store, rec extension.Record, host manifest.Host, want, home string) {
	t.Helper()
	srv, err := s.Server(rec, host)
	if err != nil {
		t.Fatal(err)
	}
	if srv.Program != filepath.Join(rec.Dir, filepath.FromSlash(extensiontest.EchoServer)) || !slices.Equal(srv.Args, []string{"--dir", rec.Dir, "--repeat", "2"}) || srv.Env["ECHO_TOKEN"] != echoToken {
		t.Fatalf("Server = %+v", srv)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second) // a hang guard: it starts a process
	defer cancel()
	p, err := mcp.Connect(ctx, srv, &mcp.Options{StartTimeout: 60 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	out, err := p.CallTool(ctx, "echo", json.RawMessage(`{"text":"ping"}`), nil)
	if err != nil || out.ModelText() != want {
		t.Fatalf("echo = %v, %v; want %q", out, err, want)
	}
	out, err = p.CallTool(ctx, "settings", json.RawMessage(`{}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(echoToken))
	wantSettings := fmt.Sprintf("dir=%s prefix=%s workdir=%s token_len=%d token_sha256=%s", rec.Dir, strings.TrimSuffix(want, ": ping ping"), home, len(echoToken), hex.EncodeToString(sum[:])[:12])
	if out.ModelText() != wantSettings {
		t.Errorf("settings = %q\nwant       %q", out.ModelText(), wantSettings)
	}
}

// noSecret: no file under dir holds the echo token.
func noSecret(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), echoToken) {
				t.Errorf("%s holds the sensitive value", p)
			}
		}
		return nil
	})
}
