package manifest

import (
	"errors"
	"strings"
	"testing"
)

// Structure problems of the schema and OpenWorker's own rules: one problem
// each, at the "@" mark.
var ruleCases = []mutation{
	// schema: required, unknown fields, versions
	{"\"author\": {\n    \"name\": \"Ann\",\n", "\"author\": @{\n", "author", `required field "name" is missing (add "name" here)`, false},
	{`"name": "demo",`, `"name": "demo", @"nmae": "x",`, "", `unknown field "nmae" (remove it; allowed fields: dxt_version, manifest_version, name,`, false},
	{`"type": "node",`, `"type": "node", @"cmd": "x",`, "server", `unknown field "cmd" (remove it; allowed fields: type, entry_point, mcp_config)`, false},
	{`"env": {"W": "1"}`, `"env": {"W": "1"}, @"cwd": "x"`, "server.mcp_config.platform_overrides.win32", `unknown field "cwd" (remove it; allowed fields: command, args, env)`, false},
	{`"manifest_version": "0.4"`, `"manifest_version": @"0.9"`, "manifest_version", `manifest version "0.9" is not supported (supported versions: 0.1, 0.2, 0.3, 0.4)`, false},
	{`"dxt_version": "0.4"`, `"dxt_version": @"0.3"`, "dxt_version", `"0.3" is not "0.4" (write "0.4")`, false},
	{`"type": "node"`, `"type": @"uv"`, "", "", false}, // valid in 0.4: no problem (msg "" checked below)
	// OpenWorker rules
	{`"name": "demo"`, `"name": @"../demo"`, "name", `"../demo" cannot be a folder name`, false},
	{`"name": "demo"`, `"name": @"a:b"`, "name", "cannot be a folder name", false},
	{`"name": "demo"`, `"name": @""`, "name", "must not be empty", false},
	{`"name": "demo"`, `"name": @"demo."`, "name", "cannot be a folder name on Windows", false},
	// Hostile names (TestHostileManifestNames): a hidden folder the store would never list, Windows devices.
	{`"name": "demo"`, `"name": @".demo"`, "name", `".demo" starts with a dot: a hidden folder`, false},
	{`"name": "demo"`, `"name": @".staging-1.0.0"`, "name", "starts with a dot", false},
	{`"name": "demo"`, `"name": @"CON"`, "name", `"CON" is a device name on Windows`, false},
	{`"name": "demo"`, `"name": @"aux.txt"`, "name", `"aux.txt" is a device name on Windows`, false},
	{`"name": "demo"`, `"name": @"com1"`, "name", "is a device name on Windows", false},
	{`"name": "demo"`, `"name": @"console"`, "", "", false},
	// A command inside the bundle that climbs out of it.
	{`"command": "node",`, `"command": @"${__dirname}/../../../bin/sh",`, "server.mcp_config.command", `"${__dirname}/../../../bin/sh" leaves the bundle folder (..)`, false},
	{`"command": "node.exe"`, `"command": @"server\\..\\..\\cmd.exe"`, "server.mcp_config.platform_overrides.win32.command", "leaves the bundle folder (..)", false},
	{`"command": "node",`, `"command": "/usr/bin/node",`, "", "", false}, // a program outside the bundle is shown at install, not refused
	// Sensitive values are one text in the keychain; Credential Manager ignores case.
	{`"title": "Size",`, `"title": "Size", "sensitive": @true,`, "user_config.size.sensitive", "a number field cannot be sensitive", false},
	{`"multiple": true, "required": true, "default": ["${HOME}"]`, `"multiple": true, "sensitive": @true, "required": true, "default": ["${HOME}"]`, "user_config.dirs.sensitive", "a multiple field cannot be sensitive", false},
	{`"size": {`, `@"Token": {"type": "string", "title": "T", "description": "d"}, "size": {`, "user_config.Token", `the key "Token" differs from "token" only in case`, false},
	{`"version": "1.0.0"`, `"version": @"one"`, "version", `"one" is not a semantic version`, false},
	{`"entry_point": "server/index.js"`, `"entry_point": @"/srv/index.js"`, "server.entry_point", "is an absolute path", false},
	{`"entry_point": "server/index.js"`, `"entry_point": @"C:\\srv\\index.js"`, "server.entry_point", "is an absolute path", false},
	{`"entry_point": "server/index.js"`, `"entry_point": @"server/../../x.js"`, "server.entry_point", "leaves the bundle folder", false},
	{`"entry_point": "server/index.js"`, `"entry_point": @""`, "server.entry_point", "is empty", false},
	{`"icon": "icon.png"`, `"icon": @"/abs/icon.png"`, "icon", "is an absolute path", false},
	{`"icon": "icon.png"`, `"icon": @"${__dirname}/icon.png"`, "icon", "uses a variable", false},
	{`"src": "icons/16.png"`, `"src": @"../16.png"`, "icons[0].src", "leaves the bundle folder", false},
	{`"command": "node",`, `"command": @" ",`, "server.mcp_config.command", "the command is empty", false},
	{`"args": ["${__dirname}/server/index.js", "${user_config.dirs}"]`, `"args": [@"${__dirnam}/server/index.js", "${user_config.dirs}"]`, "server.mcp_config.args[0]", "unknown variable ${__dirnam} (use ${__dirname}, ${HOME}, ${DESKTOP}, ${DOCUMENTS}, ${DOWNLOADS}, ${/}, ${pathSeparator} or ${user_config.KEY})", false},
	{`"args": ["${__dirname}/server/index.js", "${user_config.dirs}"]`, `"args": ["${__dirname}/server/index.js", @"${user_config.dir}"]`, "server.mcp_config.args[1]", `${user_config.dir} names no user_config field (add "dir" to user_config`, false},
	{`"env": {"TOKEN": "${user_config.token}"}`, `"env": {"TOKEN": @"${user_config.token"}`, "server.mcp_config.env.TOKEN", "opens ${ without a closing }", false},
	{`"command": "node.exe"`, `"command": @"${NODE}"`, "server.mcp_config.platform_overrides.win32.command", "unknown variable ${NODE}", false},
	{`"win32": {`, `@"windows": {`, "server.mcp_config.platform_overrides.windows", `unknown platform "windows"`, false},
	{`"node": ">=18.0.0"`, `"node": @"eighteen"`, "compatibility.runtimes.node", `"eighteen" is not a version range`, false},
	{`"default": ["${HOME}"]`, `"default": @"${HOME}"`, "", "", false}, // one string for a multiple field is allowed
	{`"default": ["${HOME}"]`, `"default": [@"${__dirname}/x"]`, "user_config.dirs.default[0]", "unknown variable ${__dirname}", false},
	{`"default": ["${HOME}"]`, `"default": [@"${user_config.token}"]`, "user_config.dirs.default[0]", "${user_config.token} cannot be used here", false},
	{`"multiple": true, "required": true, "default": ["${HOME}"]`, `"required": true, "default": @["${HOME}"]`, "user_config.dirs.default", `a list default needs "multiple": true`, false},
	{`"default": 5, "min": 1`, `"default": @"5", "min": 1`, "user_config.size.default", "the default of a number field must be a number, not a string", false},
	{`"default": 5, "min": 1`, `"default": @50, "min": 1`, "user_config.size.default", "the default 50 is above the maximum 10", false},
	{`"default": 5, "min": 1`, `"default": @true, "min": 1`, "user_config.size.default", "must not be a boolean", false},
	{`"default": 5, "min": 1`, `"min": @11`, "user_config.size.min", "min 11 is greater than max 10 (swap them)", false},
	{`"title": "Size",`, `"title": "Size", "multiple": @true,`, "user_config.size.multiple", "a number field cannot be multiple", false},
	{`"size": {`, `@"s}ize": {`, "user_config.s}ize", "cannot be used in ${user_config.KEY}", false},
}

func TestRules(t *testing.T) {
	base := loadBase(t)
	for _, mu := range ruleCases {
		t.Run(mu.path+"="+mu.new, func(t *testing.T) {
			doc, line, col := apply(t, base, mu)
			_, err := Parse([]byte(doc), "manifest.json")
			if mu.msg == "" {
				if err != nil {
					t.Fatalf("want no problem, got:\n%v", err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if len(e.Problems) != 1 {
				t.Fatalf("want 1 problem, got %d:\n%v", len(e.Problems), err)
			}
			p := e.Problems[0]
			if p.Path != mu.path || p.Line != line || p.Col != col || !strings.Contains(p.String(), mu.msg) {
				t.Fatalf("got %d:%d %s\nwant %d:%d %s: …%s…", p.Line, p.Col, p, line, col, mu.path, mu.msg)
			}
		})
	}
}

func TestParseFileProblems(t *testing.T) {
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	huge := `{"manifest_version": "0.4", "long_description": "` + strings.Repeat("x", MaxSize) + `"}`
	cases := []struct {
		name, doc, want string
	}{
		{"empty", "", "manifest.json:1:1: file is empty (write a JSON object)"},
		{"syntax", "{\n  \"name\": \"x\",\n}", "manifest.json:3:1: invalid JSON"},
		{"duplicate", "{\n  \"name\": \"a\",\n  \"name\": \"b\"\n}", `manifest.json:3:3: duplicate key "name" (first at line 2, column 3)`},
		{"duplicate nested", `{"server": {"type": "node", "type": "binary"}}`, `manifest.json:1:29: duplicate key "type"`},
		{"array", `["manifest_version"]`, "manifest.json:1:1: the manifest must be a JSON object, not an array"},
		{"no version", `{"name": "x"}`, `manifest.json:1:1: manifest_version is missing (add "manifest_version": "0.4"; supported versions: 0.1, 0.2, 0.3, 0.4)`},
		{"version type", `{"manifest_version": 0.4}`, "manifest.json:1:22: manifest_version: must be a string, not a number"},
		{"dxt unknown", `{"dxt_version": "1.0"}`, `manifest.json:1:17: dxt_version: manifest version "1.0" is not supported`},
		{"deep", deep, "manifest.json:1:65: values are nested more than 64 deep (flatten the file)"},
		{"huge", huge, "manifest.json: the file is 1048627 bytes; the limit is 1048576 bytes (1 MiB) (make it smaller)"},
		{"huge number", `{"manifest_version":"0.4","name":"x","version":"1.0.0","description":"d","author":{"name":"a"},"server":{"type":"binary","entry_point":"e","mcp_config":{"command":"c"}},"keywords":[],"_meta":{"a":{"b":1e400}}}`,
			"manifest.json:1:202: _meta.a.b: the number 1e400 is too large (write a smaller number)"},
		{"not utf-8", "{\n  \"name\": \"x\xff\"}", "manifest.json:2:13: the file is not valid UTF-8 here (save it as UTF-8)"},
		{"trailing", `{"manifest_version": "0.4"} {}`, "manifest.json:1:29: unexpected data after the top-level value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Parse([]byte(c.doc), "manifest.json")
			var e *Error
			if !errors.As(err, &e) || len(e.Problems) != 1 {
				t.Fatalf("want one problem, got %v", err)
			}
			if !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got  %s\nwant %s…", err, c.want)
			}
		})
	}
}

// A manifest missing every required field gets one problem per field.
func TestParseMissingRequired(t *testing.T) {
	_, err := Parse([]byte(`{"manifest_version": "0.3", "server": {"mcp_config": {}}}`), "manifest.json")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatal(err)
	}
	want := []string{
		`manifest.json:1:1: required field "name" is missing (add "name" here)`,
		`manifest.json:1:1: required field "version" is missing`,
		`manifest.json:1:1: required field "description" is missing`,
		`manifest.json:1:1: required field "author" is missing`,
		`manifest.json:1:39: server: required field "type" is missing`,
		`manifest.json:1:39: server: required field "entry_point" is missing`,
		`manifest.json:1:54: server.mcp_config: required field "command" is missing`,
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("missing %q in\n%v", w, err)
		}
	}
	if len(e.Problems) != len(want) {
		t.Errorf("%d problems, want %d:\n%v", len(e.Problems), len(want), err)
	}
}

// More than MaxProblems problems: the list is cut and the rest counted.
func TestParseManyProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"manifest_version": "0.4", "name": "x", "version": "1.0.0", "description": "d", "author": {"name": "a"},
"server": {"type": "binary", "entry_point": "e", "mcp_config": {"command": "c"}}, "keywords": [`)
	for i := 0; i < 150; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("1")
	}
	b.WriteString("]}")
	_, err := Parse([]byte(b.String()), "manifest.json")
	var e *Error
	if !errors.As(err, &e) || len(e.Problems) != MaxProblems || e.More != 50 {
		t.Fatalf("got %d problems, %d more: %v", len(e.Problems), e.More, err)
	}
	if !strings.HasSuffix(err.Error(), "manifest.json: and 50 more problems") {
		t.Fatalf("Error() ends %q", err.Error()[len(err.Error())-60:])
	}
}
