package mcptest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadAppClient: the trailing export list becomes the ExtApps object;
// a file without one, without App, or missing is an error naming it.
func TestLoadAppClient(t *testing.T) {
	write := func(src string) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, AppClientFile), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	got, err := LoadAppClient(write("var qB=class{};var x$=1;\nexport{x$ as PostMessageTransport,qB as App, x$};\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "var qB=class{};var x$=1;\n\nconst ExtApps = {PostMessageTransport:x$,App:qB,x$:x$};\n"; string(got) != want {
		t.Errorf("LoadAppClient = %q; want %q", got, want)
	}
	for src, want := range map[string]string{
		"var a=1;":                            "does not end in an export list",
		"var a=1;export{a as B};":             "exports no App",
		"var a=1;export{a-b as App};":         `cannot read the export "a-b as App"`,
		"var a='</SCRIPT>';export{a as App};": `holds "</script"`,
	} {
		dir := write(src)
		if _, err := LoadAppClient(dir); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), dir) {
			t.Errorf("LoadAppClient(%q) = %v; want an error naming the file and %q", src, err, want)
		}
	}
	missing := t.TempDir()
	if _, err := LoadAppClient(missing); err == nil || !strings.Contains(err.Error(), filepath.Join(missing, AppClientFile)) || !strings.Contains(err.Error(), "install.sh") {
		t.Errorf("LoadAppClient(empty dir) = %v; want the path and install.sh", err)
	}
}

// TestBigPage: exactly BigViewBytes, over the 2 MiB bound, and HTML.
func TestBigPage(t *testing.T) {
	p := BigPage()
	if len(p) != BigViewBytes || len(p) <= 2<<20 || !strings.HasPrefix(p, "<!doctype html>") || !strings.HasSuffix(p, "-->\n") {
		t.Errorf("BigPage: %d bytes, starts %.20q, ends %q", len(p), p, p[len(p)-8:])
	}
}
