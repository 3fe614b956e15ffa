package manifest

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func mustParse(t *testing.T, doc string) *Manifest {
	t.Helper()
	m, err := Parse([]byte(doc), "manifest.json")
	if err != nil {
		t.Fatalf("Parse:\n%v", err)
	}
	return m
}

func parseFile(t *testing.T, name string) *Manifest {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return mustParse(t, string(data))
}

// launchDoc is a binary extension whose mcp_config is the args/env given.
func launchDoc(mcpConfig, userConfig string) string {
	return `{"manifest_version": "0.4", "name": "x", "version": "1.0.0", "description": "d", "author": {"name": "a"},
"server": {"type": "binary", "entry_point": "bin/srv", "mcp_config": ` + mcpConfig + `},
"user_config": {` + userConfig + `}}`
}

const launchFields = `
"dirs": {"type": "directory", "title": "Folders", "description": "d", "multiple": true},
"names": {"type": "string", "title": "Names", "description": "d", "multiple": true},
"token": {"type": "string", "title": "Token", "description": "d", "sensitive": true},
"n": {"type": "number", "title": "N", "description": "d", "default": 10},
"ratio": {"type": "number", "title": "Ratio", "description": "d", "default": 1.5},
"on": {"type": "boolean", "title": "On", "description": "d", "default": false}`

func TestLaunchSubstitution(t *testing.T) {
	tmp := t.TempDir()
	a, b := filepath.Join(tmp, "a"), filepath.Join(tmp, "b c")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	linux := HostAt("linux", "/home/ann")
	windows := HostAt("windows", `C:\Users\Ann`)
	cases := []struct {
		name   string
		config string
		host   Host
		dir    string
		values map[string]any
		want   Launch
	}{
		{
			name:   "dirname and folders",
			config: `{"command": "${__dirname}/bin/srv", "args": ["--home=${HOME}", "${DESKTOP}", "${DOCUMENTS}", "${DOWNLOADS}", "a${/}b${pathSeparator}c"]}`,
			host:   linux, dir: "/opt/ext/x/1.0.0",
			want: Launch{Command: "/opt/ext/x/1.0.0/bin/srv", Args: []string{"--home=/home/ann", "/home/ann/Desktop", "/home/ann/Documents", "/home/ann/Downloads", "a/b/c"}, Dir: "/opt/ext/x/1.0.0"},
		},
		{
			name:   "windows paths",
			config: `{"command": "${__dirname}${/}bin${/}srv.exe", "args": ["${__dirname}/server/index.js", "${HOME}${pathSeparator}x", "${DOWNLOADS}"]}`,
			host:   windows, dir: `C:\Users\Ann\AppData\Roaming\OpenWorker\extensions\x\1.0.0`,
			want: Launch{
				Command: `C:\Users\Ann\AppData\Roaming\OpenWorker\extensions\x\1.0.0\bin\srv.exe`,
				Args:    []string{`C:\Users\Ann\AppData\Roaming\OpenWorker\extensions\x\1.0.0/server/index.js`, `C:\Users\Ann\x`, `C:\Users\Ann\Downloads`},
				Dir:     `C:\Users\Ann\AppData\Roaming\OpenWorker\extensions\x\1.0.0`,
			},
		},
		{
			name:   "windows binary gets .exe, relative command inside the folder",
			config: `{"command": "bin/srv", "args": []}`,
			host:   windows, dir: `D:\ext`,
			want: Launch{Command: `D:\ext\bin\srv.exe`, Args: []string{}, Dir: `D:\ext`},
		},
		{
			name:   "relative command inside the folder on linux",
			config: `{"command": "bin/srv"}`,
			host:   linux, dir: "/e",
			want: Launch{Command: "/e/bin/srv", Args: []string{}, Dir: "/e"},
		},
		{
			name:   "multiple expands to several args; list inside a string is joined",
			config: `{"command": "srv", "args": ["--dirs", "${user_config.dirs}", "--all=${user_config.dirs}", "${user_config.names}"], "env": {"DIRS": "${user_config.dirs}"}}`,
			host:   linux, dir: "/e",
			values: map[string]any{"dirs": []any{a, b}, "names": []string{"x", "y z"}},
			want: Launch{Command: "srv", Args: []string{"--dirs", a, b, "--all=" + a + ":" + b, "x", "y z"},
				Env: map[string]string{"DIRS": a + ":" + b}, Dir: "/e"},
		},
		{
			name:   "empty and missing optional values",
			config: `{"command": "srv", "args": ["${user_config.dirs}", "--token", "${user_config.token}"], "env": {"T": "${user_config.token}"}}`,
			host:   linux, dir: "/e",
			values: map[string]any{"dirs": []string{}},
			want:   Launch{Command: "srv", Args: []string{"--token", ""}, Env: map[string]string{"T": ""}, Dir: "/e"},
		},
		{
			name:   "numbers and booleans as text; defaults",
			config: `{"command": "srv", "args": ["${user_config.n}", "${user_config.ratio}", "${user_config.on}"]}`,
			host:   linux, dir: "/e",
			values: map[string]any{"on": true},
			want:   Launch{Command: "srv", Args: []string{"10", "1.5", "true"}, Dir: "/e"},
		},
		{
			name:   "a value is never substituted again",
			config: `{"command": "srv", "args": ["${user_config.token}"]}`,
			host:   linux, dir: "/e",
			values: map[string]any{"token": "${HOME}$x${user_config.n}"},
			want:   Launch{Command: "srv", Args: []string{"${HOME}$x${user_config.n}"}, Dir: "/e"},
		},
		{
			name: "platform_overrides replace command, args and env whole",
			config: `{"command": "srv", "args": ["a"], "env": {"A": "1", "B": "2"},
			  "platform_overrides": {"win32": {"command": "${__dirname}\\bin\\srv.exe", "env": {"W": "${HOME}"}}, "linux": {"args": []}}}`,
			host: windows, dir: `C:\e`,
			want: Launch{Command: `C:\e\bin\srv.exe`, Args: []string{"a"}, Env: map[string]string{"W": `C:\Users\Ann`}, Dir: `C:\e`},
		},
		{
			name:   "platform_overrides for linux only clear args",
			config: `{"command": "srv", "args": ["a"], "env": {"A": "1"}, "platform_overrides": {"win32": {"command": "x.exe"}, "linux": {"args": []}}}`,
			host:   linux, dir: "/e",
			want: Launch{Command: "srv", Args: []string{}, Env: map[string]string{"A": "1"}, Dir: "/e"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := mustParse(t, launchDoc(c.config, launchFields))
			got, err := m.Launch(LaunchInput{Host: c.host, Dir: c.dir, Values: c.values})
			if err != nil {
				t.Fatal(err)
			}
			if got.Args == nil {
				got.Args = []string{}
			}
			if c.want.Args == nil {
				c.want.Args = []string{}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

func TestLaunchErrors(t *testing.T) {
	m := mustParse(t, launchDoc(`{"command": "srv", "args": ["${HOME}/x"]}`, `"k": {"type": "string", "title": "K", "description": "d", "required": true}`))
	cases := []struct {
		name string
		in   LaunchInput
		want string
	}{
		{"required value missing", LaunchInput{Host: HostAt("linux", "/h"), Dir: "/e"}, "user_config.k (K): a value is required (fill it in)"},
		{"relative folder", LaunchInput{Host: HostAt("linux", "/h"), Dir: "e", Values: map[string]any{"k": "v"}}, `the extension folder "e" is not an absolute path`},
		{"home unknown", LaunchInput{Host: Host{GOOS: "linux"}, Dir: "/e", Values: map[string]any{"k": "v"}}, "server.mcp_config.args: ${HOME}: the home folder is not known on this computer"},
		{"windows folder on linux", LaunchInput{Host: HostAt("linux", "/h"), Dir: `C:\e`, Values: map[string]any{"k": "v"}}, "is not an absolute path"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := m.Launch(c.in)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want …%s…", err, c.want)
			}
		})
	}
	// A hand-built manifest (Parse refuses this) with an unknown variable.
	m.Server.MCPConfig.Args = []string{"${NOPE}"}
	_, err := m.Launch(LaunchInput{Host: HostAt("linux", "/h"), Dir: "/e", Values: map[string]any{"k": "v"}})
	if err == nil || !strings.Contains(err.Error(), "unknown variable ${NOPE} (use ${__dirname}") {
		t.Fatalf("got %v", err)
	}
	var ve *ValuesError
	_, err = m.Launch(LaunchInput{Host: HostAt("linux", "/h"), Dir: "/e"})
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValuesError, got %T %v", err, err)
	}
}

// Without mcp_config (only a hand-built Manifest) the command comes from
// server.type and entry_point.
func TestLaunchDerived(t *testing.T) {
	cases := []struct {
		typ, goos string
		want      Launch
	}{
		{TypeNode, "linux", Launch{Command: "node", Args: []string{"/e/srv/main"}, Dir: "/e"}},
		{TypePython, "darwin", Launch{Command: "python3", Args: []string{"/e/srv/main"}, Dir: "/e"}},
		{TypePython, "windows", Launch{Command: "python", Args: []string{`C:\e\srv\main`}, Dir: `C:\e`}},
		{TypeUV, "linux", Launch{Command: "uv", Args: []string{"run", "--directory", "/e", "srv/main"}, Dir: "/e"}},
		{TypeBinary, "linux", Launch{Command: "/e/srv/main", Args: []string{}, Dir: "/e"}},
		{TypeBinary, "windows", Launch{Command: `C:\e\srv\main.exe`, Args: []string{}, Dir: `C:\e`}},
	}
	for _, c := range cases {
		t.Run(c.typ+"/"+c.goos, func(t *testing.T) {
			m := &Manifest{Name: "x", Version: "1.0.0", Server: Server{Type: c.typ, EntryPoint: "srv/main"}}
			got, err := m.Launch(LaunchInput{Host: HostAt(c.goos, "/h"), Dir: c.want.Dir})
			if err != nil {
				t.Fatal(err)
			}
			if got.Args == nil {
				got.Args = []string{}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got  %#v\nwant %#v", got, c.want)
			}
		})
	}
}

func TestLaunchExamples(t *testing.T) {
	m := parseFile(t, "valid/memory-node-0.2.json")
	docs := t.TempDir()
	host := Host{GOOS: "linux", Home: "/home/ann", Documents: docs}
	got, err := m.Launch(LaunchInput{Host: host, Dir: "/x/memory/0.6.3", Values: map[string]any{"token": "s3cret"}})
	if err != nil {
		t.Fatal(err)
	}
	want := Launch{
		Command: "node",
		Args:    []string{"/x/memory/0.6.3/node_modules/@modelcontextprotocol/server-memory/dist/index.js"},
		Env:     map[string]string{"MEMORY_FILE_PATH": docs + "/memory.json", "API_TOKEN": "s3cret"},
		Dir:     "/x/memory/0.6.3",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %#v\nwant %#v", got, want)
	}
}
