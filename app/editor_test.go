package app

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// templates are the examples a test's New coworker offers.
var templates = fstest.MapFS{
	"notes-keeper/coworker/manifest.md": {Data: []byte("---\nid: notes-keeper\nname: Notes keeper\ndescription: Keeps notes.\nversion: 1.0.0\n---\nYou keep notes.\n")},
	"notes-keeper/coworker/tools.json":  {Data: []byte(`{"version":3,"tools":["test.echo"]}`)},
	"README.md":                         {Data: []byte("not a template")},
}

// listedCoworker is the listed coworker with id, or nil.
func listedCoworker(l CoworkerList, id string) *CoworkerInfo {
	for i := range l.Coworkers {
		if l.Coworkers[i].ID == id {
			return &l.Coworkers[i]
		}
	}
	return nil
}

// TestEditorTemplateSaveChatEdit: New coworker from a template gives its
// fields under a free id and writes nothing; Save creates it, the live
// reload lists it, and a chat with it offers the model its tool under its
// instructions; an edit of the instructions saved over it is what the next
// chat's model is told.
func TestEditorTemplateSaveChatEdit(t *testing.T) {
	e := newTestEnv(t, envOpts{examples: templates, replies: []modeltest.Reply{{Text: "first"}, {Text: "second"}}})
	ed := e.app.Editor
	ts, err := ed.Templates()
	if err != nil || len(ts) != 1 || ts[0].ID != "notes-keeper" || ts[0].Name != "Notes keeper" || !slices.Equal(ts[0].Tools, []string{"test.echo"}) || ts[0].NeedsFolder {
		t.Fatalf("Templates = %+v, %v", ts, err)
	}
	writeBundle(t, e.bundles, "notes-keeper", "test.echo") // the template's id is taken: the new one gets another
	d, err := ed.NewCoworker("notes-keeper")
	if err != nil || !d.New || d.Draft.ID != "notes-keeper-2" || d.Draft.Instructions != "You keep notes." || d.Template != "notes-keeper" {
		t.Fatalf("NewCoworker = %+v, %v", d, err)
	}
	if _, err := os.Stat(filepath.Join(e.bundles, "notes-keeper-2")); !os.IsNotExist(err) {
		t.Fatalf("NewCoworker wrote the coworker: %v", err)
	}
	if ps, err := ed.CheckCoworker("", d.Draft); err != nil || len(ps) != 0 {
		t.Fatalf("CheckCoworker of the template's draft = %+v, %v", ps, err)
	}
	d.Draft.Name = "Meeting notes"
	saved, err := ed.SaveCoworker("", d.Draft)
	if err != nil || saved.ID != "notes-keeper-2" || saved.Dir != filepath.Join(e.bundles, "notes-keeper-2") {
		t.Fatalf("SaveCoworker = %+v, %v", saved, err)
	}
	e.rec.waitFor(t, EventCoworkersChanged, func(p any) bool { return listedCoworker(p.(CoworkerList), "notes-keeper-2") != nil })

	chat, err := e.app.Chats.OpenChat("notes-keeper-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.Send(chat.SessionID, "hello"); err != nil {
		t.Fatal(err)
	}
	reqs := e.model.Requests()
	if len(reqs) != 1 || !slices.Equal(reqs[0].ToolNames(), []string{"test__echo"}) || !strings.Contains(reqs[0].System, "You keep notes.") {
		t.Fatalf("the model was offered %v under %q", reqs[0].ToolNames(), reqs[0].System)
	}

	d, err = ed.EditCoworker(saved.Dir)
	if err != nil || d.New || len(d.Problems) != 0 || d.Draft.Name != "Meeting notes" {
		t.Fatalf("EditCoworker = %+v, %v", d, err)
	}
	d.Draft.Instructions = "You keep meeting notes, in bullet points."
	if _, err := ed.SaveCoworker(d.Dir, d.Draft); err != nil {
		t.Fatal(err)
	}
	chat2, err := e.app.Chats.OpenChat("notes-keeper-2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Chats.Send(chat2.SessionID, "again"); err != nil {
		t.Fatal(err)
	}
	if reqs = e.model.Requests(); len(reqs) != 2 || !strings.Contains(reqs[1].System, "in bullet points") || strings.Contains(reqs[1].System, "You keep notes.") {
		t.Fatalf("after the edit the model was told %q", reqs[len(reqs)-1].System)
	}
}

// TestEditorBrokenCoworker: a coworker whose tools.json does not parse
// opens in the editor with its fields and the problem in "tools", as
// check words it; saving a draft that does not load is refused and
// leaves the files as they were; saving the draft as read writes a
// coworker that loads.
func TestEditorBrokenCoworker(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	ed := e.app.Editor
	writeBundle(t, e.bundles, "broken", "test.echo")
	toolsPath := filepath.Join(e.bundles, "broken", "coworker", "tools.json")
	bad := []byte("{\"version\": 3,\n \"tools\": [\"test.echo\",]}\n")
	if err := os.WriteFile(toolsPath, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ed.EditCoworker(filepath.Join(e.bundles, "broken"))
	if err != nil {
		t.Fatal(err)
	}
	if d.Draft.Name != "Test broken" || len(d.Problems) == 0 || d.Problems[0].Field != bundle.FieldTools || d.Problems[0].Line != 2 || !strings.Contains(d.Problems[0].Message, "invalid JSON") {
		t.Fatalf("EditCoworker of a broken coworker = %+v", d)
	}
	manifest, _ := os.ReadFile(filepath.Join(e.bundles, "broken", "coworker", "manifest.md"))
	empty := d.Draft
	empty.Name = ""
	if _, err := ed.SaveCoworker(d.Dir, empty); err == nil {
		t.Fatal("a draft without a name was saved")
	} else if ps, _ := ed.CheckCoworker(d.Dir, empty); len(ps) == 0 || ps[0].Field != bundle.FieldName {
		t.Errorf("CheckCoworker of a draft without a name = %+v", ps)
	}
	if now, _ := os.ReadFile(toolsPath); string(now) != string(bad) {
		t.Errorf("a refused save changed tools.json: %q", now)
	}
	if now, _ := os.ReadFile(filepath.Join(e.bundles, "broken", "coworker", "manifest.md")); string(now) != string(manifest) {
		t.Errorf("a refused save changed manifest.md: %q", now)
	}
	d.Draft.Tools = []string{"test.echo"}
	if _, err := ed.SaveCoworker(d.Dir, d.Draft); err != nil {
		t.Fatal(err)
	}
	if _, err := bundle.Load(d.Dir); err != nil {
		t.Fatalf("after the save: %v", err)
	}
	again, _ := ed.EditCoworker(d.Dir)
	if len(again.Problems) != 0 {
		t.Errorf("problems after the fix: %+v", again.Problems)
	}
}

// TestEditorDeleteRestoreDuplicate: Delete moves a coworker to the trash
// (the list no longer has it), Restore puts it back; Duplicate copies it,
// skills and all, under a free id as "NAME (copy)"; a folder outside the
// coworkers folder is refused.
func TestEditorDeleteRestoreDuplicate(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	ed := e.app.Editor
	dir := filepath.Join(e.bundles, "helper")
	skill := filepath.Join(dir, "coworker", "skills", "tone")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("---\nname: tone\ndescription: How to sound.\n---\nBe brief.\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	dup, err := ed.DuplicateCoworker(dir)
	if err != nil || dup.Draft.ID != "helper-copy" || dup.Draft.Name != "Test helper (copy)" || len(dup.Problems) != 0 ||
		len(dup.Skills) != 1 || dup.Skills[0].Name != "tone" || dup.Skills[0].Description != "How to sound." {
		t.Fatalf("DuplicateCoworker = %+v, %v", dup, err)
	}
	if b, err := bundle.Load(dup.Dir); err != nil || b.ID != "helper-copy" || len(b.Skills) != 1 {
		t.Fatalf("the copy: %+v, %v", b, err)
	}
	if left, _ := filepath.Glob(filepath.Join(e.bundles, ".adding-*")); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}

	tr, err := ed.DeleteCoworker(dir)
	if err != nil || tr.ID != "helper" || tr.Name != "Test helper" || !strings.Contains(tr.Token, bundle.TrashFolder) {
		t.Fatalf("DeleteCoworker = %+v, %v", tr, err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Fatalf("the coworker is still there: %v", err)
	}
	if l, _ := e.app.Coworkers.Coworkers(); listedCoworker(l, "helper") != nil {
		t.Fatal("a deleted coworker is listed")
	}
	l, err := ed.RestoreCoworker(tr.ID, tr.Token)
	if err != nil || listedCoworker(l, "helper") == nil {
		t.Fatalf("RestoreCoworker = %+v, %v", l, err)
	}
	if _, err := ed.RestoreCoworker(tr.ID, tr.Token); err == nil {
		t.Error("a coworker was restored twice")
	}

	outside := t.TempDir()
	writeBundle(t, outside, "stranger", "test.echo")
	for _, call := range []func() error{
		func() error { _, err := ed.EditCoworker(filepath.Join(outside, "stranger")); return err },
		func() error { _, err := ed.DeleteCoworker(filepath.Join(outside, "stranger")); return err },
		func() error {
			_, err := ed.SaveCoworker(filepath.Join(outside, "stranger"), bundle.Draft{})
			return err
		},
		func() error { _, err := ed.EditCoworker(filepath.Join(e.bundles, bundle.TrashFolder)); return err },
	} {
		if err := call(); err == nil || !strings.Contains(err.Error(), "not a coworker") {
			t.Errorf("outside the coworkers folder: %v", err)
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "stranger")); err != nil {
		t.Errorf("a coworker outside the folder was touched: %v", err)
	}
}

// TestGiveTools: tools go to a new coworker named after their provider,
// which loads and selects exactly them, or are added to an existing one
// (once: giving them again adds nothing); no tools, or a coworker that
// does not load, are refused.
func TestGiveTools(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	ed := e.app.Editor
	g, err := ed.GiveTools("", "Echo", []string{"test.echo", " test.echo "})
	if err != nil || !g.Created || g.ID != "echo" || !slices.Equal(g.Added, []string{"test.echo"}) {
		t.Fatalf("GiveTools to a new coworker = %+v, %v", g, err)
	}
	b, err := bundle.Load(g.Dir)
	if err != nil || b.Name != "Echo" || !slices.Equal(b.Tools.Explicit(), []string{"test.echo"}) || !strings.Contains(b.Instructions, "`test__echo`") {
		t.Fatalf("the new coworker: %+v, %v", b, err)
	}
	writeBundle(t, e.bundles, "plain")
	if err := os.WriteFile(filepath.Join(e.bundles, "plain", "coworker", "tools.json"), []byte(`{"version":3,"tools":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err = ed.GiveTools(filepath.Join(e.bundles, "plain"), "", []string{"test.echo"})
	if err != nil || g.Created || !slices.Equal(g.Added, []string{"test.echo"}) {
		t.Fatalf("GiveTools to an existing coworker = %+v, %v", g, err)
	}
	if b, err := bundle.Load(g.Dir); err != nil || !slices.Equal(b.Tools.Explicit(), []string{"test.echo"}) || b.Instructions != "You are a test coworker." {
		t.Fatalf("after giving: %+v, %v", b, err)
	}
	if g, err = ed.GiveTools(g.Dir, "", []string{"test.echo"}); err != nil || len(g.Added) != 0 {
		t.Errorf("giving a tool again = %+v, %v", g, err)
	}
	if _, err := ed.GiveTools("", "Nothing", nil); err == nil {
		t.Error("no tools were given without an error")
	}
	os.WriteFile(filepath.Join(e.bundles, "plain", "coworker", "tools.json"), []byte("{"), 0o644)
	if _, err := ed.GiveTools(filepath.Join(e.bundles, "plain"), "", []string{"test.echo"}); err == nil || !strings.Contains(err.Error(), "fix it in the editor first") {
		t.Errorf("giving to a broken coworker: %v", err)
	}
}

// TestEditorToolCatalog: the native test tool is listed as built in,
// with its effect.
func TestEditorToolCatalog(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	cat, err := e.app.Editor.ToolCatalog(nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cat, func(p ToolProvider) bool { return p.Namespace == "test" })
	if i < 0 || cat[i].Kind != ProviderBuiltIn || len(cat[i].Tools) != 1 || cat[i].Tools[0].Name != "test.echo" || cat[i].Tools[0].Effect != "read_only" {
		t.Fatalf("ToolCatalog = %+v", cat)
	}
	if only, err := e.app.Editor.ToolCatalog([]string{"nosuch"}); err != nil || len(only) != 0 {
		t.Errorf("ToolCatalog(nosuch) = %+v, %v", only, err)
	}
}

// TestCoworkerModel: a coworker whose manifest names a model gets its
// chats from the configured provider under that name; the others, the
// model of Settings.
func TestCoworkerModel(t *testing.T) {
	e := newTestEnv(t, envOpts{replies: []modeltest.Reply{{Text: "a"}, {Text: "b"}}})
	d, err := e.app.Editor.NewCoworker("")
	if err != nil {
		t.Fatal(err)
	}
	d.Draft.Name, d.Draft.Instructions, d.Draft.Tools, d.Draft.Model = "Big thinker", "Think.", []string{"test.echo"}, "bigger-model"
	if _, err := e.app.Editor.SaveCoworker("", d.Draft); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"big-thinker", "helper"} {
		c, err := e.app.Chats.OpenChat(id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.app.Chats.Send(c.SessionID, "hi"); err != nil {
			t.Fatal(err)
		}
	}
	reqs := e.model.Requests()
	if len(reqs) != 2 || reqs[0].Model != "bigger-model" || reqs[1].Model != "scripted" {
		t.Fatalf("models asked: %+v", reqs)
	}
	var de *bundle.DraftError
	d.Draft.ID, d.Draft.Model = "", strings.Repeat("m", 200)
	if _, err := e.app.Editor.SaveCoworker("", d.Draft); !errors.As(err, &de) {
		t.Errorf("a model name of 200 characters: %v", err)
	}
}

// TestServersInUse: Settings lists the servers file's MCP servers, one
// reached at a URL with its host and one whose entry is broken with the
// reason; the built-in providers are not listed, and nothing is started.
func TestServersInUse(t *testing.T) {
	servers := filepath.Join(t.TempDir(), "servers.json")
	body := `{"servers": {
  "kit": {"transport": "streamable_http", "url": "https://mcp.example.com/mcp"},
  "typo": {"transport": "stdio", "comand": "x"}}}`
	if err := os.WriteFile(servers, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	e := newTestEnv(t, envOpts{cfg: config{Servers: servers}})
	got := e.app.Servers.ServersInUse()
	if len(got) != 2 || got[0].Namespace != "kit" || got[0].Source != "servers.json:2" || got[0].Remote != "mcp.example.com" || got[0].Broken != "" ||
		got[1].Namespace != "typo" || !strings.Contains(got[1].Broken, "comand") {
		t.Fatalf("ServersInUse = %+v", got)
	}
}

// TestEditorUnknownKey: a manifest with a key OpenWorker does not know
// opens with it in OtherKeys and its problem in that field; saved without
// it, the coworker loads and the rest of the front matter is kept.
func TestEditorUnknownKey(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	dir := filepath.Join(e.bundles, "helper")
	manifest := filepath.Join(dir, "coworker", "manifest.md")
	b, _ := os.ReadFile(manifest)
	if err := os.WriteFile(manifest, []byte(strings.Replace(string(b), "version: 1.0.0\n", "version: 1.0.0\ncolour: blue\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := e.app.Editor.EditCoworker(dir)
	if err != nil || !slices.Equal(d.Draft.OtherKeys, []string{"colour"}) || len(d.Problems) == 0 || d.Problems[0].Field != bundle.FieldOtherKeys {
		t.Fatalf("EditCoworker = %+v, %v", d, err)
	}
	d.Draft.OtherKeys = nil
	if _, err := e.app.Editor.SaveCoworker(dir, d.Draft); err != nil {
		t.Fatal(err)
	}
	got, err := bundle.Load(dir)
	if err != nil || got.Description != "a test coworker" {
		t.Fatalf("after removing the key: %+v, %v", got, err)
	}
	if now, _ := os.ReadFile(manifest); strings.Contains(string(now), "colour") {
		t.Errorf("the key is still there: %s", now)
	}
}
