package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const testBundles = "testdata/bundles"

func TestLoadGood(t *testing.T) {
	b, err := Load(filepath.Join(testBundles, "research"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(testBundles, "research")
	skills := filepath.Join(dir, "coworker", "skills")
	want := &Bundle{
		ID:           "research",
		Name:         "Research assistant",
		Description:  "Finds sources and summarizes them.\n",
		Version:      "1.2.0",
		Instructions: "# Research\n\nYou help the user research a topic. Cite every source.",
		Skills: []Skill{
			{Name: "citations", Description: "How to cite sources.", Body: "Cite sources as [n] with a list at the end.", Path: filepath.Join(skills, "citations", "SKILL.md")},
			{Name: "outline", Body: "Write an outline first.", Path: filepath.Join(skills, "outline", "SKILL.md")},
		},
		Policy: map[string]string{"example.web_search": "allow", "acer.battery_get": "deny", "*": "ask"},
		Tools:  Selection{Version: 3, Names: []string{"example.web_search", "acer.battery_get", "files.dir.list"}},
		Dir:    dir,
		Digest: wantDigest(t, dir, "coworker/manifest.md", "coworker/skills/citations/SKILL.md", "coworker/skills/outline/SKILL.md", "coworker/tools.json"),
		// outline's SKILL.md has no front matter: it loads, with a notice.
		Notices: []Notice{{File: filepath.Join(skills, "outline", "SKILL.md"), Line: 1, Col: 1,
			Msg: "SKILL.md has no front matter; the Agent Skills specification asks for a name and a description",
			Fix: `begin SKILL.md with front matter: a line "---", "name: outline", "description: " what the skill does and when to use it, and a line "---"`}},
	}
	if d := cmp.Diff(want, b, ignorePos); d != "" {
		t.Errorf("Load(research) (-want +got):\n%s", d)
	}
	if got := b.Tools.Explicit(); !cmp.Equal(got, want.Tools.Names) {
		t.Errorf("Explicit() = %v", got)
	}
	if got := b.Tools.WholeProviders(); got != nil {
		t.Errorf("WholeProviders() = %v, want nil for v3", got)
	}
}

// wantDigest recomputes the digest from the files, independently of digest().
func wantDigest(t *testing.T, dir string, rels ...string) string {
	t.Helper()
	var buf []byte
	for _, rel := range rels { // rels are given sorted
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		buf = append(buf, fmt.Sprintf("%s\x00%d\x00", rel, len(data))...)
		buf = append(buf, data...)
	}
	sum := sha256.Sum256(buf)
	return "sha256:" + hex.EncodeToString(sum[:])
}

func TestLoadLegacyAndVariants(t *testing.T) {
	v1, err := Load(filepath.Join(testBundles, "legacy-v1"))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(Selection{Version: 1, Providers: []string{"acer", "lights"}}, v1.Tools, ignorePos); d != "" {
		t.Errorf("v1 selection (-want +got):\n%s", d)
	}
	if got := v1.Tools.WholeProviders(); !cmp.Equal(got, []string{"acer", "lights"}) || v1.Tools.Explicit() != nil {
		t.Errorf("v1 WholeProviders = %v, Explicit = %v", got, v1.Tools.Explicit())
	}
	v2, err := Load(filepath.Join(testBundles, "legacy-v2"))
	if err != nil {
		t.Fatal(err)
	}
	want2 := Selection{Version: 2, MCP: map[string][]string{"lights": {"on", "off"}, "acer": {"battery_get", "fan.speed"}}}
	if d := cmp.Diff(want2, v2.Tools, ignorePos); d != "" {
		t.Errorf("v2 selection (-want +got):\n%s", d)
	}
	if got, want := v2.Tools.Explicit(), []string{"acer.battery_get", "acer.fan.speed", "lights.on", "lights.off"}; !cmp.Equal(got, want) {
		t.Errorf("v2 Explicit = %v, want %v", got, want)
	}
	if v2.Version != "0.9.1" || v2.Skills != nil || len(v2.Policy) != 0 {
		t.Errorf("v2 bundle = %+v", v2)
	}

	crlf, err := Load(filepath.Join(testBundles, "crlf"))
	if err != nil {
		t.Fatal(err)
	}
	if crlf.Name != "Windows user" || crlf.Instructions != "Lines end with CRLF." {
		t.Errorf("crlf = %q %q", crlf.Name, crlf.Instructions)
	}

	u, err := Load(filepath.Join(testBundles, "unicode-name"))
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "مساعد 🤖 Ünïcode" || u.Description != "يساعد في البحث 🔎" {
		t.Errorf("unicode name/description not kept verbatim: %q %q", u.Name, u.Description)
	}

	all, err := Load(filepath.Join(testBundles, "all-skills"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range all.Skills {
		names = append(names, s.Name+"="+s.Description+"/"+s.Body)
	}
	if want := []string{"alpha=First./Alpha.", "zeta=/Zeta."}; !cmp.Equal(names, want) {
		t.Errorf("skills without a list = %v, want %v", names, want)
	}
}

func TestLoadErrors(t *testing.T) {
	const (
		m = "coworker/manifest.md"
		j = "coworker/tools.json"
	)
	tests := []struct {
		dir, file string // bundle folder; file relative to it
		line, col int
		frag      string
	}{
		{"bad-json", j, 3, 19, "invalid JSON: invalid character '\"' after array element"},
		{"unknown-field", j, 3, 3, `unknown field "tool"; version 3 holds only "version" and "tools"`},
		{"version-9", j, 1, 26, "version 9 is not supported; use 3"},
		{"dup-name", j, 4, 3, `"ex.a" is listed twice (first at line 2, column 3)`},
		{"Bad_ID", m, 2, 5, `id "Bad_ID" is not valid; use 1 to 64 lowercase letters`},
		{"id-mismatch", m, 2, 5, `id "something-else" differs from its folder name "id-mismatch"`},
		{"no-manifest", m, 0, 0, "manifest.md is missing; every bundle needs coworker/manifest.md"},
		{"unclosed", m, 1, 1, "the front matter opened on line 1 is not closed"},
		{"yaml-syntax", m, 3, 7, "front matter: sequence end token ']' not found"},
		{"unknown-key", m, 4, 1, `front matter: unknown field "temperature"; allowed fields: id, name, description, version, skills, policy, sampling, requires_sandbox, model, folder`},
		{"missing-skill", m, 6, 5, `skill "absent" has no coworker/skills/absent/SKILL.md`},
		{"empty-body", m, 4, 1, "manifest.md has no instructions after the front matter; write what the coworker does"},
		{"non-ascii-tool", j, 2, 21, `name "ex.wéb" is not ASCII (byte 4 is 0xc3)`},
		{"v1-bad-ns", j, 1, 32, `namespace "openworker" is reserved`},
		{"v2-dup-tool", j, 3, 12, `"a" is listed twice (first at line 2, column 12)`},
		{"v2-bad-ns", j, 2, 3, `namespace "ac er" has ' ' at byte 2`},
		{"v3-unqualified", j, 1, 26, `tool name "web_search" is not qualified`},
		{"v3-with-mcp", j, 1, 29, `unknown field "mcp"; version 3 holds only "version" and "tools"`},
		{"alias-collide", j, 3, 3, `"a__b.c" and "a.b__c" (line 2, column 3) have the same model alias "a__b__c"`},
		{"bad-policy", m, 6, 9, `policy for "ex.b" is "maybe"; use ask, allow or deny`},
		{"bad-policy-name", m, 5, 3, `policy: tool name "web_search" is not qualified`},
		{"policy-unselected", m, 6, 3, `policy names "device.sytem_info_get", which tools.json does not select; a policy applies only to selected tools`},
		{"nul-name", m, 3, 7, "name holds the control character U+0000 at byte 3"},
		{"rtl-override", m, 3, 7, "name holds the bidirectional formatting character U+202E at byte 8"},
		{"no-tools", j, 0, 0, `tools.json is missing; every bundle needs coworker/tools.json; for a coworker without tools write {"version": 3, "tools": []}`},
		{"wrong-type", j, 1, 25, `"tools" must be an array, not a string`},
		{"version-string", j, 1, 13, `"version" must be a number, not a string`},
		{"dup-yaml-key", m, 4, 1, `front matter: mapping key "name" already defined at line 3, column 1`},
		{"no-front-matter", m, 1, 1, "manifest.md does not start with YAML front matter"},
		{"no-id", m, 2, 1, `front matter has no id; add a line like "id: no-id"`},
		{"float-version", m, 4, 10, `front matter: version must be text, not float; quote it: version: "1.0"`},
		{"yaml-alias", m, 2, 5, "front matter: YAML anchors are not allowed here"},
		{"skill-name-differs", "coworker/skills/one/SKILL.md", 2, 7, `skill name "two" differs from its folder name "one"`},
		{"skill-bad-folder", m, 4, 10, `skill "../escape" is not a valid skill folder name`},
		{"skill-dup", m, 4, 15, `skill "one" is listed twice (first at line 4, column 10)`},
		{"skill-empty", "coworker/skills/one/SKILL.md", 3, 1, "SKILL.md has no instructions"},
		{"skill-no-file", "coworker/skills/one", 0, 0, `skill "one" has no coworker/skills/one/SKILL.md`},
		{"list-front-matter", m, 2, 1, "front matter must be a mapping, not sequence"},
		{"nul-body", m, 5, 4, "manifest.md holds a NUL byte or invalid UTF-8"},
		{"folder-relative", m, 4, 9, `folder "notes/work" is not an absolute path; write the full path of the folder`},
		{"folder-tilde", m, 4, 9, `folder "~/Notes" is not an absolute path; write the full path, e.g. folder: "`},
		{"model-multiline", m, 4, 8, "model holds the control character U+000A at byte 3"},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			dir := filepath.Join(testBundles, tc.dir)
			b, err := Load(dir)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("Load = %v, %v; want a *LoadError", b, err)
			}
			file := filepath.Join(dir, filepath.FromSlash(tc.file))
			if le.Dir != dir || le.File != file || le.Line != tc.line || le.Col != tc.col || !strings.Contains(le.Error(), tc.frag) {
				t.Errorf("Load(%s) = %q\nwant %s:%d:%d containing %q", tc.dir, le, file, tc.line, tc.col, tc.frag)
			}
			if b != nil {
				t.Errorf("Load returned a bundle with an error")
			}
		})
	}
}

func TestLoadDirMixed(t *testing.T) {
	set, err := LoadDir(testBundles)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range set.Bundles {
		ids = append(ids, b.ID)
	}
	if want := []string{"all-skills", "crlf", "legacy-v1", "legacy-v2", "research", "skill-spec", "unicode-name"}; !cmp.Equal(ids, want) {
		t.Errorf("bundles = %v, want %v", ids, want)
	}
	entries, err := os.ReadDir(testBundles)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			dirs = append(dirs, e.Name())
		}
	}
	if got, want := len(set.Errors), len(dirs)-len(ids); got != want {
		t.Errorf("%d errors for %d bad folders", got, want)
	}
	seen := map[string]bool{}
	for i, e := range set.Errors {
		if seen[e.Dir] {
			t.Errorf("two errors for %s", e.Dir)
		}
		seen[e.Dir] = true
		if i > 0 && set.Errors[i-1].Dir >= e.Dir {
			t.Errorf("errors not sorted by folder: %s before %s", set.Errors[i-1].Dir, e.Dir)
		}
	}
	if b, ok := set.Get("research"); !ok || b.Name != "Research assistant" {
		t.Errorf("Get(research) = %v, %v", b, ok)
	}
	if _, ok := set.Get("bad-json"); ok {
		t.Error("Get found a bad bundle")
	}
}

func TestLoadDirMissing(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "nope")
	_, err := LoadDir(missing)
	if err == nil || !strings.Contains(err.Error(), missing) || !strings.Contains(err.Error(), "does not exist") {
		t.Errorf("LoadDir(missing) = %v", err)
	}
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadDir(f); err == nil || !strings.Contains(err.Error(), f) {
		t.Errorf("LoadDir(file) = %v", err)
	}
	empty, err := LoadDir(t.TempDir())
	if err != nil || len(empty.Bundles) != 0 || len(empty.Errors) != 0 {
		t.Errorf("LoadDir(empty) = %+v, %v", empty, err)
	}
}

// The sample bundles shipped with the product must load.
func TestExampleBundlesLoad(t *testing.T) {
	set, err := LoadDir(filepath.Join("..", "..", "examples", "coworkers"))
	if err != nil {
		t.Skipf("no examples: %v", err)
	}
	for _, e := range set.Errors {
		t.Errorf("example bundle: %v", e)
	}
	if len(set.Bundles) == 0 {
		t.Error("no example bundle loaded")
	}
}
