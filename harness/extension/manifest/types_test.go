package manifest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// mutation replaces old (which must occur once in testdata/base-0.4.json)
// with new; "@" in new marks where the one expected problem is reported.
type mutation struct {
	old, new string
	path     string // Problem.Path
	msg      string // a part of Problem.String()
	whole    bool   // replaces a container (or the version): not combined with the others
}

var wrongTypes = []mutation{
	{`"manifest_version": "0.4"`, `"manifest_version": @4`, "manifest_version", "must be a string, not a number", true},
	{`"dxt_version": "0.4"`, `"dxt_version": @0.4`, "dxt_version", "must be a string, not a number", false},
	{`"$schema": "https://example.com/schema.json"`, `"$schema": @1`, "$schema", "must be a string, not a number", false},
	{`"name": "demo"`, `"name": @1`, "name", "must be a string, not a number", false},
	{`"display_name": "Démo"`, `"display_name": @true`, "display_name", "must be a string, not a boolean", false},
	{`"version": "1.0.0"`, `"version": @[]`, "version", "must be a string, not an array", false},
	{`"description": "A demo extension"`, `"description": @{}`, "description", "must be a string, not an object", false},
	{`"long_description": "Longer text"`, `"long_description": @2`, "long_description", "must be a string", false},
	{`"name": "Ann"`, `"name": @null`, "author.name", "must be a string, not null", false},
	{`"email": "ann@example.com"`, `"email": @1`, "author.email", "must be a string", false},
	{`"email": "ann@example.com"`, `"email": @"ann at example"`, "author.email", "is not a valid email address", false},
	{`"url": "https://example.com/ann"`, `"url": @false`, "author.url", "must be a string, not a boolean", false},
	{`"url": "https://example.com/ann"`, `"url": @"ann"`, "author.url", "is not a valid URL", false},
	{`"type": "git"`, `"type": @1`, "repository.type", "must be a string", false},
	{`"url": "https://example.com/demo.git"`, `"url": @[]`, "repository.url", "must be a string", false},
	{`"homepage": "https://example.com/home"`, `"homepage": @1`, "homepage", "must be a string", false},
	{`"documentation": "https://example.com/docs"`, `"documentation": @"docs"`, "documentation", "is not a valid URL", false},
	{`"support": "https://example.com/support"`, `"support": @{}`, "support", "must be a string, not an object", false},
	{`"icon": "icon.png"`, `"icon": @7`, "icon", "must be a string", false},
	{`"src": "icons/16.png"`, `"src": @16`, "icons[0].src", "must be a string", false},
	{`"size": "16x16"`, `"size": @"big"`, "icons[0].size", `"big" does not match`, false},
	{`"theme": "light"`, `"theme": @""`, "icons[0].theme", "must not be empty", false},
	{`"screenshots": ["shot.png"]`, `"screenshots": [@1]`, "screenshots[0]", "must be a string", false},
	{`"resources": "loc/${locale}.json"`, `"resources": @"loc/en.json"`, "localization.resources", "${locale}", false},
	{`"default_locale": "en"`, `"default_locale": @"not a locale"`, "localization.default_locale", "does not match", false},
	{`"type": "node"`, `"type": @"ruby"`, "server.type", `"ruby" is not one of python, node, binary, uv`, false},
	{`"entry_point": "server/index.js"`, `"entry_point": @1`, "server.entry_point", "must be a string", false},
	{`"command": "node",`, `"command": @["node"],`, "server.mcp_config.command", "must be a string, not an array", false},
	{`"args": ["${__dirname}/server/index.js", "${user_config.dirs}"]`, `"args": ["${__dirname}/server/index.js", @2]`, "server.mcp_config.args[1]", "must be a string", false},
	{`"env": {"TOKEN": "${user_config.token}"}`, `"env": {"TOKEN": @true}`, "server.mcp_config.env.TOKEN", "must be a string, not a boolean", false},
	{`"command": "node.exe"`, `"command": @1`, "server.mcp_config.platform_overrides.win32.command", "must be a string", false},
	{`"args": ["${__dirname}\\server\\index.js"]`, `"args": @"x"`, "server.mcp_config.platform_overrides.win32.args", "must be an array", false},
	{`"env": {"W": "1"}`, `"env": {"W": @1}`, "server.mcp_config.platform_overrides.win32.env.W", "must be a string", false},
	{`"name": "search"`, `"name": @false`, "tools[0].name", "must be a string", false},
	{`"description": "Search things"`, `"description": @0`, "tools[0].description", "must be a string", false},
	{`"tools_generated": false`, `"tools_generated": @"no"`, "tools_generated", "must be a boolean, not a string (write true or false", false},
	{`"name": "poem"`, `"name": @1`, "prompts[0].name", "must be a string", false},
	{`"description": "Write a poem"`, `"description": @1`, "prompts[0].description", "must be a string", false},
	{`"arguments": ["topic"]`, `"arguments": [@1]`, "prompts[0].arguments[0]", "must be a string", false},
	{`"text": "A poem on ${arguments.topic}"`, `"text": @[]`, "prompts[0].text", "must be a string", false},
	{`"prompts_generated": false`, `"prompts_generated": @0`, "prompts_generated", "must be a boolean", false},
	{`"keywords": ["demo"]`, `"keywords": @"demo"`, "keywords", "must be an array, not a string", false},
	{`"license": "MIT"`, `"license": @1`, "license", "must be a string", false},
	{`"privacy_policies": ["https://example.com/privacy"]`, `"privacy_policies": [@"privacy"]`, "privacy_policies[0]", "is not a valid URL", false},
	{`"claude_desktop": ">=0.10.0"`, `"claude_desktop": @1`, "compatibility.claude_desktop", "must be a string", false},
	{`"platforms": ["darwin", "win32", "linux"]`, `"platforms": ["darwin", @"windows", "linux"]`, "compatibility.platforms[1]", `"windows" is not one of darwin, win32, linux`, false},
	{`"node": ">=18.0.0"`, `"node": @18`, "compatibility.runtimes.node", "must be a string", false},
	{`"python": ">=3.8"`, `"python": @3.8`, "compatibility.runtimes.python", "must be a string", false},
	{`"type": "directory"`, `"type": @"folder"`, "user_config.dirs.type", `"folder" is not one of string, number, boolean, directory, file`, false},
	{`"title": "Folders"`, `"title": @1`, "user_config.dirs.title", "must be a string", false},
	{`"description": "Folders to use"`, `"description": @1`, "user_config.dirs.description", "must be a string", false},
	{`"multiple": true`, `"multiple": @"yes"`, "user_config.dirs.multiple", "must be a boolean", false},
	{`"required": true`, `"required": @1`, "user_config.dirs.required", "must be a boolean", false},
	{`"default": ["${HOME}"]`, `"default": @{"a": 1}`, "user_config.dirs.default", "must be a string, a number, a boolean or an array of strings, not an object", false},
	{`"sensitive": true`, `"sensitive": @"true"`, "user_config.token.sensitive", "must be a boolean, not a string", false},
	{`"min": 1`, `"min": @"1"`, "user_config.size.min", "must be a number, not a string (write a number, without quotes)", false},
	{`"max": 10`, `"max": @true`, "user_config.size.max", "must be a number", false},
	{`"_meta": {"com.example": {"k": "v"}}`, `"_meta": {"com.example": @"v"}`, "_meta.com.example", "must be an object", false},
	// containers of the wrong type
	{"\"author\": {\n    \"name\": \"Ann\",\n    \"email\": \"ann@example.com\",\n    \"url\": \"https://example.com/ann\"\n  }", `"author": @"Ann"`, "author", "must be an object, not a string", true},
	{`"repository": {"type": "git", "url": "https://example.com/demo.git"}`, `"repository": @"git"`, "repository", "must be an object", true},
	{`"icons": [{"src": "icons/16.png", "size": "16x16", "theme": "light"}]`, `"icons": @{}`, "icons", "must be an array, not an object", true},
	{`"localization": {"resources": "loc/${locale}.json", "default_locale": "en"}`, `"localization": @[]`, "localization", "must be an object", true},
	{`"tools": [{"name": "search", "description": "Search things"}]`, `"tools": [@"search"]`, "tools[0]", "must be an object, not a string", true},
	{"\"runtimes\": {\"node\": \">=18.0.0\", \"python\": \">=3.8\"}\n  }", `"runtimes": @[]
  }`, "compatibility.runtimes", "must be an object, not an array", true},
	{`"_meta": {"com.example": {"k": "v"}}`, `"_meta": @1`, "_meta", "must be an object", true},
}

// loadBase returns testdata/base-0.4.json, which mcpb validate accepts.
func loadBase(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile("testdata/base-0.4.json")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// apply applies mu to doc and returns the text and the 1-based line and
// column of its "@" mark.
func apply(t *testing.T, doc string, mu mutation) (string, int, int) {
	t.Helper()
	if n := strings.Count(doc, mu.old); n != 1 {
		t.Fatalf("%q occurs %d times in the base manifest", mu.old, n)
	}
	i := strings.Index(doc, mu.old)
	at := i + strings.Index(mu.new, "@")
	doc = doc[:i] + strings.Replace(mu.new, "@", "", 1) + doc[i+len(mu.old):]
	line := strings.Count(doc[:at], "\n") + 1
	col := utf8.RuneCountInString(doc[strings.LastIndex(doc[:at], "\n")+1:at]) + 1
	return doc, line, col
}

func TestBaseManifestParses(t *testing.T) {
	m, err := Parse([]byte(loadBase(t)), "manifest.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Title() != "Démo" || len(m.UserConfig) != 3 || m.UserConfig[0].Key != "dirs" || m.UserConfig[2].Key != "size" {
		t.Fatalf("got %+v", m)
	}
}

// Every field with a wrong value gets exactly one problem, at the value's
// line and column, naming the field.
func TestWrongTypeEachField(t *testing.T) {
	base := loadBase(t)
	for _, mu := range wrongTypes {
		t.Run(mu.path+"="+mu.new, func(t *testing.T) {
			doc, line, col := apply(t, base, mu)
			_, err := Parse([]byte(doc), "manifest.json")
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
			want := "manifest.json:" + itoa(line) + ":" + itoa(col) + ": " + mu.path + ": "
			if !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("Error() = %q, want prefix %q", err.Error(), want)
			}
		})
	}
}

// All the field mutations at once: every one is reported, in file order.
func TestWrongTypeEveryFieldAtOnce(t *testing.T) {
	doc := loadBase(t)
	var want []string
	for _, mu := range wrongTypes {
		if mu.whole || strings.Count(doc, mu.old) != 1 {
			continue
		}
		var line, col int
		doc, line, col = apply(t, doc, mu)
		want = append(want, itoa(line)+":"+itoa(col)+" "+mu.path)
	}
	_, err := Parse([]byte(doc), "manifest.json")
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	got := map[string]bool{}
	for _, p := range e.Problems {
		got[itoa(p.Line)+":"+itoa(p.Col)+" "+p.Path] = true
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("missing problem %s", w)
		}
	}
	if len(e.Problems) != len(want) {
		t.Errorf("%d problems for %d mutations:\n%v", len(e.Problems), len(want), err)
	}
	if len(want) < 40 {
		t.Fatalf("only %d mutations combined", len(want))
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
