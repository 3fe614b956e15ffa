package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func hostGOOS() string { return runtime.GOOS }

func TestRuntime(t *testing.T) {
	cases := []struct {
		file, goos string
		want       Runtime
	}{
		{"valid/memory-node-0.2.json", "linux", Runtime{Name: "node", Title: "Node.js", Range: ">=18.0.0", URL: "https://nodejs.org/"}},
		{"valid/python-dxt-0.1.json", "darwin", Runtime{Name: "python", Title: "Python", Range: ">=3.8,<4.0", URL: "https://www.python.org/downloads/"}},
		{"valid/uv-0.4.json", "windows", Runtime{Name: "uv", Title: "uv", URL: "https://docs.astral.sh/uv/getting-started/installation/"}},
		{"valid/binary-0.3.json", "windows", Runtime{}},
	}
	for _, c := range cases {
		if got := parseFile(t, c.file).Runtime(c.goos); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.file, got, c.want)
		}
	}
	// The command decides over server.type: a "binary" server run by npx.
	m := mustParse(t, launchDoc(`{"command": "npx.exe", "args": ["-y", "pkg"]}`, ""))
	if got := m.Runtime("windows"); got.Name != "node" {
		t.Fatalf("npx.exe: %+v", got)
	}
}

func TestProblems(t *testing.T) {
	node := parseFile(t, "valid/memory-node-0.2.json")
	py := parseFile(t, "valid/python-dxt-0.1.json")
	bin := parseFile(t, "valid/binary-0.3.json")
	cases := []struct {
		name string
		m    *Manifest
		env  Env
		want []string
	}{
		{"node found", node, Env{GOOS: "linux", Runtimes: map[string]string{"node": "v20.11.0"}}, nil},
		{"node missing", node, Env{GOOS: "linux", Runtimes: map[string]string{"python": "3.12"}},
			[]string{"this extension needs Node.js >=18.0.0, which was not found (install it from https://nodejs.org/)"}},
		{"node too old", node, Env{GOOS: "darwin", Runtimes: map[string]string{"node": "v16.20.2"}},
			[]string{"this extension needs Node.js >=18.0.0; the one found is 16.20.2 (install a matching version from https://nodejs.org/)"}},
		{"node unreadable", node, Env{GOOS: "linux", Runtimes: map[string]string{"node": "weird"}},
			[]string{`this extension needs Node.js >=18.0.0; the version of the one found ("weird") could not be read (install it from https://nodejs.org/)`}},
		{"runtimes not looked up", node, Env{GOOS: "linux"}, nil},
		{"python range with comma", py, Env{GOOS: "linux", Runtimes: map[string]string{"python": "Python 3.12.1"}}, nil},
		{"python 4", py, Env{GOOS: "linux", Runtimes: map[string]string{"python": "Python 4.0.0"}},
			[]string{"this extension needs Python >=3.8,<4.0; the one found is 4.0.0"}},
		{"python prerelease", py, Env{GOOS: "darwin", Runtimes: map[string]string{"python": "Python 3.13.0rc1"}}, nil},
		{"wrong platform", py, Env{GOOS: "windows", Runtimes: map[string]string{"python": "3.11.4"}},
			[]string{"this extension runs on macOS (darwin) or Linux (linux) only, not on Windows (win32) (use it on one of those)"}},
		{"binary needs no runtime", bin, Env{GOOS: "windows", Runtimes: map[string]string{}}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := c.m.Problems(c.env)
			if len(got) != len(c.want) {
				t.Fatalf("got %q, want %q", got, c.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Fatalf("got  %q\nwant %q…", got[i], c.want[i])
				}
			}
		})
	}
}

func TestProblemsEntryPoint(t *testing.T) {
	dir := t.TempDir()
	bin := parseFile(t, "valid/binary-0.3.json") // entry_point server/echo
	env := Env{Dir: dir}
	if got := bin.Problems(env); len(got) != 1 || got[0] != "the entry point server/echo is not in the extension (its author must add it to the bundle)" {
		t.Fatalf("missing: %q", got)
	}
	if err := os.MkdirAll(filepath.Join(dir, "server", "echo"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := bin.Problems(env); len(got) != 1 || !strings.Contains(got[0], "is not a file") {
		t.Fatalf("folder: %q", got)
	}
	if err := os.Remove(filepath.Join(dir, "server", "echo")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "server", "echo"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := bin.Problems(env); len(got) != 0 {
		t.Fatalf("present: %q", got)
	}
}
