//go:build unix

package archive

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/internal/npmtest"
)

// mcpbCLI runs the pinned official MCPB CLI from a mirror of its own
// (npmtest.MCPB), so each test has its own self-signed certificate.
type mcpbCLI struct {
	t    *testing.T
	node string
	args []string
}

func newMCPB(t *testing.T) *mcpbCLI {
	node, args := npmtest.MCPB(t)
	return &mcpbCLI{t: t, node: node, args: args}
}

// run runs mcpb with args in dir and returns its output; it fails t when
// mcpb fails, unless mayFail.
func (m *mcpbCLI) run(mayFail bool, args ...string) string {
	m.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second) // a hang guard: node starts
	defer cancel()
	cmd := exec.CommandContext(ctx, m.node, append(slices.Clone(m.args), args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil && !mayFail {
		m.t.Fatalf("mcpb %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// testFiles is the folder the tests pack: a node server with an
// executable script, nested folders and a non-ASCII name.
var testFiles = map[string]struct {
	data string
	mode fs.FileMode
}{
	"manifest.json": {`{"manifest_version":"0.3","name":"hello","version":"1.0.0","description":"A test.",` +
		`"author":{"name":"OpenWorker tests"},"server":{"type":"node","entry_point":"server/index.js",` +
		`"mcp_config":{"command":"node","args":["${__dirname}/server/index.js"]}}}`, 0o644},
	"server/index.js":        {"#!/usr/bin/env node\nconsole.log('hello')\n", 0o755},
	"server/lib/util.js":     {"module.exports = 1\n", 0o644},
	"assets/caf\u00e9.txt":   {"café\n", 0o644},
	"bin/server-linux-amd64": {"\x7fELF not really\n", 0o755},
}

// packed packs testFiles with `mcpb pack` and returns the .mcpb's path.
func packed(t *testing.T, m *mcpbCLI) string {
	t.Helper()
	src := filepath.Join(t.TempDir(), "hello")
	for name, f := range testFiles {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(f.data), f.mode); err != nil {
			t.Fatal(err)
		}
		os.Chmod(p, f.mode) // past the umask
	}
	out := filepath.Join(t.TempDir(), "hello.mcpb")
	m.run(false, "pack", src, out)
	return out
}

// TestPackedByMCPB opens and unpacks an archive the official CLI packed:
// unsigned, the manifest's bytes, every file with its content, executable
// bits kept, and nothing beside dest.
func TestPackedByMCPB(t *testing.T) {
	m := newMCPB(t)
	path := packed(t, m)
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if s := a.Signature(); s.Status != Unsigned || s.Problem != "" {
		t.Errorf("signature = %+v, want unsigned", s)
	}
	man, err := a.Manifest()
	if err != nil || string(man) != testFiles["manifest.json"].data {
		t.Errorf("manifest = %q, %v", man, err)
	}
	var names []string
	for _, e := range a.Entries() {
		if !e.Mode.IsDir() {
			names = append(names, e.Name)
			if f := testFiles[e.Name]; e.Size != int64(len(f.data)) || e.Mode != f.mode {
				t.Errorf("entry %s: size %d mode %v, want %d %v", e.Name, e.Size, e.Mode, len(f.data), f.mode)
			}
		}
	}
	slices.Sort(names)
	want := make([]string, 0, len(testFiles))
	for n := range testFiles {
		want = append(want, n)
	}
	slices.Sort(want)
	if !slices.Equal(names, want) {
		t.Errorf("entries %q, want %q", names, want)
	}
	parent := t.TempDir()
	dest := filepath.Join(parent, "hello", "1.0.0")
	os.Mkdir(filepath.Dir(dest), 0o755)
	if err := a.Unpack(dest); err != nil {
		t.Fatal(err)
	}
	for name, f := range testFiles {
		p := filepath.Join(dest, filepath.FromSlash(name))
		b, err := os.ReadFile(p)
		st, _ := os.Stat(p)
		if err != nil || string(b) != f.data || st.Mode() != f.mode {
			t.Errorf("%s: %q %v %v, want %q %v", name, b, st.Mode(), err, f.data, f.mode)
		}
	}
	if got := listTree(t, parent); len(got) != len(listTree(t, dest))+2 {
		t.Errorf("beside dest: %q", got) // hello, hello/1.0.0 and its tree only
	}
	wantRefusal(t, a.Unpack(dest), ErrDestination, path, "")
}

// TestSelfSignedByMCPB signs with `mcpb sign --self-signed`: the archive
// is self-signed by mcpb's certificate and still unpacks; a byte flipped
// in the zip, in the signature or in the length field makes it invalid;
// `mcpb unsign` makes it unsigned again.
func TestSelfSignedByMCPB(t *testing.T) {
	m := newMCPB(t)
	path := packed(t, m)
	zipBytes, _ := os.ReadFile(path)
	m.run(false, "sign", path, "--self-signed")
	signed, _ := os.ReadFile(path)
	if !bytes.HasPrefix(signed, zipBytes) || !bytes.HasSuffix(signed, []byte(sigFooter)) {
		t.Fatalf("mcpb sign did not append a block to the zip")
	}
	t.Logf("mcpb verify says: %s", strings.TrimSpace(m.run(true, "verify", path)))
	a, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	s := a.Signature()
	const subject = "CN=MCPB Self-Signed Certificate,O=MCPB Extensions,C=US"
	if s.Status != SelfSigned || s.Subject != subject || s.Issuer != subject ||
		s.SubjectCN != "MCPB Self-Signed Certificate" || s.Problem != "" {
		t.Errorf("signature = %+v, want self-signed by %s", s, subject)
	}
	if d := time.Until(s.NotAfter); d < 3000*24*time.Hour || d > 3660*24*time.Hour {
		t.Errorf("NotAfter = %v, want in about ten years (openssl -days 3650)", s.NotAfter)
	}
	if err := a.Unpack(filepath.Join(t.TempDir(), "dest")); err != nil {
		t.Fatal(err)
	}

	flip := func(name string, at int, wantProblem string) {
		t.Run(name, func(t *testing.T) {
			b := slices.Clone(signed)
			b[at] ^= 0x01
			a, err := Open(save(t, b))
			if err != nil {
				t.Fatal(err)
			}
			s := a.Signature()
			if s.Status != Invalid || !strings.Contains(s.Problem, wantProblem) {
				t.Errorf("signature = %+v, want invalid: %s", s, wantProblem)
			}
		})
	}
	flip("zip byte", 40, "changed after it was signed")          // inside the first entry's data
	flip("central directory", len(zipBytes)-30, "changed after") // the end-of-directory record
	flip("signature", len(signed)-len(sigFooter)-20, "does not verify")
	flip("length field", len(zipBytes)+len(sigHeader), "length field")

	m.run(false, "unsign", path)
	a, err = Open(path)
	if err != nil || a.Signature().Status != Unsigned {
		t.Errorf("after mcpb unsign: %v %+v, want unsigned", err, a.Signature())
	}
}
