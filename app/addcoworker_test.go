package app

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// srcBundle writes a bundle <root>/<id> outside any coworkers folder.
func srcBundle(t *testing.T, id string, tools ...string) string {
	t.Helper()
	root := t.TempDir()
	writeBundle(t, root, id, tools...)
	return filepath.Join(root, id)
}

func names(l CoworkerList) []string {
	var out []string
	for _, c := range l.Coworkers {
		out = append(out, c.ID)
	}
	return out
}

// leftovers lists the temporary folders an add left in dir.
func leftovers(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".adding-") {
			out = append(out, e.Name())
		}
	}
	return out
}

func TestAddCoworkerCopies(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	src := srcBundle(t, "notes", "test.echo")
	if err := os.MkdirAll(filepath.Join(src, "coworker", "skills", "tidy"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "coworker", "skills", "tidy", "SKILL.md"), []byte("Keep notes tidy.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := e.app.Coworkers.PreviewCoworker(src)
	if err != nil {
		t.Fatal(err)
	}
	if p.ID != "notes" || p.Name != "Test notes" || !slices.Equal(p.Tools, []string{"test.echo"}) || p.Refused != "" || p.Exists || len(p.Errors) != 0 {
		t.Fatalf("preview = %+v", p)
	}
	if p.Dest != filepath.Join(e.bundles, "notes") {
		t.Errorf("dest = %s", p.Dest)
	}
	if _, err := os.Stat(p.Dest); !os.IsNotExist(err) {
		t.Fatalf("the preview wrote %s", p.Dest)
	}
	l, err := e.app.Coworkers.AddCoworker(src, AddCopy, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(l), "notes") {
		t.Fatalf("list after add = %v", names(l))
	}
	st, err := os.Lstat(p.Dest)
	if err != nil || !st.IsDir() {
		t.Fatalf("%s is not a folder: %v %v", p.Dest, st, err)
	}
	if b, err := os.ReadFile(filepath.Join(p.Dest, "coworker", "skills", "tidy", "SKILL.md")); err != nil || string(b) != "Keep notes tidy.\n" {
		t.Errorf("skill copied = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(src, "coworker", "manifest.md")); err != nil {
		t.Errorf("the source was touched: %v", err)
	}
	if left := leftovers(t, e.bundles); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

func TestAddCoworkerLinks(t *testing.T) {
	if !canLink {
		t.Skip("linking is not offered on " + runtime.GOOS)
	}
	e := newTestEnv(t, envOpts{})
	src := srcBundle(t, "linked", "test.echo")
	l, err := e.app.Coworkers.AddCoworker(src, AddLink, false)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(names(l), "linked") {
		t.Fatalf("list = %v", names(l))
	}
	dest := filepath.Join(e.bundles, "linked")
	if to, err := os.Readlink(dest); err != nil || to != src {
		t.Fatalf("%s -> %q, %v; want a link to %s", dest, to, err, src)
	}
	// The link's own entry in the coworkers folder (dragged from a file
	// manager showing that folder) is refused, link or copy: adding it
	// over itself would make it a link to itself.
	for _, mode := range []string{AddLink, AddCopy} {
		if _, err := e.app.Coworkers.AddCoworker(dest, mode, true); err == nil || !strings.Contains(err.Error(), "in the coworkers folder") {
			t.Errorf("re-adding %s (%s) = %v; want it refused as in the coworkers folder already", dest, mode, err)
		}
	}
	if to, err := os.Readlink(dest); err != nil || to != src {
		t.Fatalf("after the refused re-add: %s -> %q, %v; want the link to %s kept", dest, to, err, src)
	}
	// An edit of the original shows: it is the same folder.
	writeBundle(t, filepath.Dir(src), "linked", "test.echo", "test.other")
	if p, _ := previewBundle(dest, t.TempDir()); !slices.Equal(p.Tools, []string{"test.echo", "test.other"}) {
		t.Errorf("through the link: %v", p.Tools)
	}
	// Replacing the linked coworker with a copy removes the link, never
	// the folder it points to.
	if _, err := e.app.Coworkers.AddCoworker(srcBundle(t, "linked", "test.echo"), AddCopy, true); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(dest); err != nil || st.Mode()&os.ModeSymlink != 0 {
		t.Errorf("after replace: %v %v, want a folder", st, err)
	}
	if _, err := os.Stat(filepath.Join(src, "coworker", "manifest.md")); err != nil {
		t.Errorf("replacing the link touched its target: %v", err)
	}
	if _, err := e.app.Coworkers.AddCoworker(src, "move", false); err == nil || !strings.Contains(err.Error(), `"copy" or "link"`) {
		t.Errorf("unknown mode: %v", err)
	}
}

func TestAddCoworkerIDClash(t *testing.T) {
	e := newTestEnv(t, envOpts{}) // has "helper" selecting test.echo
	src := srcBundle(t, "helper") // a newer helper without tools
	p, _ := e.app.Coworkers.PreviewCoworker(src)
	if !p.Exists || p.Refused != "" {
		t.Fatalf("preview = %+v, want Exists", p)
	}
	_, err := e.app.Coworkers.AddCoworker(src, AddCopy, false)
	if err == nil || !strings.Contains(err.Error(), "exists already") || !strings.Contains(err.Error(), "replace it") {
		t.Fatalf("clash without replace: %v", err)
	}
	old, _ := os.ReadFile(filepath.Join(e.bundles, "helper", "coworker", "tools.json"))
	if !strings.Contains(string(old), "test.echo") {
		t.Fatalf("the existing helper changed: %s", old)
	}
	if _, err := e.app.Coworkers.AddCoworker(src, AddCopy, true); err != nil {
		t.Fatal(err)
	}
	now, _ := os.ReadFile(filepath.Join(e.bundles, "helper", "coworker", "tools.json"))
	if strings.Contains(string(now), "test.echo") {
		t.Errorf("not replaced: %s", now)
	}
	if left := leftovers(t, e.bundles); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

func TestAddCoworkerRefuses(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	plain := t.TempDir()
	file := filepath.Join(t.TempDir(), "notes.zip")
	if err := os.WriteFile(file, []byte("PK"), 0o644); err != nil {
		t.Fatal(err)
	}
	holder := t.TempDir() // a coworkers folder of its own
	writeBundle(t, holder, "one")
	sub := srcBundle(t, "deep")
	// A bundle whose folder holds the coworkers folder of another app.
	outer := srcBundle(t, "outer")
	inner := filepath.Join(outer, "coworkers")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	holds, err := previewBundle(outer, inner)
	if err != nil || !strings.Contains(holds.Refused, "is inside "+outer) {
		t.Errorf("a bundle holding the coworkers folder: %+v %v", holds, err)
	}
	if err := addBundle(outer, inner, AddCopy, false); err == nil {
		t.Error("a bundle holding the coworkers folder was copied into it")
	}
	cases := []struct {
		name, path string
		want       []string
	}{
		{"not a bundle", plain, []string{"is not a coworker bundle", filepath.Join(plain, "coworker", "manifest.md") + " is missing"}},
		{"a file", file, []string{file + " is a file, not a folder"}},
		{"a coworkers folder", holder, []string{"holds coworkers but is not one itself"}},
		{"already inside", filepath.Join(e.bundles, "helper"), []string{"is in the coworkers folder " + e.bundles + " already"}},
		{"the coworker/ folder", filepath.Join(sub, "coworker"), []string{"is the coworker/ folder of a bundle", "add its parent " + sub}},
		{"missing", filepath.Join(plain, "gone"), []string{"does not exist"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := e.app.Coworkers.PreviewCoworker(c.path)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(p.Refused, w) {
					t.Errorf("refused = %q, want %q in it", p.Refused, w)
				}
			}
			if _, err := e.app.Coworkers.AddCoworker(c.path, AddCopy, true); err == nil || err.Error() != p.Refused {
				t.Errorf("add = %v, want the preview's reason", err)
			}
			// Only the coworker/ folder of a bundle names a folder to use instead, and that one previews as addable.
			if c.name != "the coworker/ folder" {
				if p.UseInstead != "" {
					t.Errorf("use_instead = %q, want none", p.UseInstead)
				}
				return
			}
			if p.UseInstead != sub {
				t.Fatalf("use_instead = %q, want the bundle %s", p.UseInstead, sub)
			}
			if q, err := e.app.Coworkers.PreviewCoworker(p.UseInstead); err != nil || q.Refused != "" || q.Source != sub || q.UseInstead != "" {
				t.Errorf("preview of the parent = %+v, %v; want the bundle, not refused", q, err)
			}
		})
	}
	if left := leftovers(t, e.bundles); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
}

func TestAddCoworkerWithLoadError(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	src := srcBundle(t, "typo")
	bad := filepath.Join(src, "coworker", "tools.json")
	if err := os.WriteFile(bad, []byte("{\"version\": 3,\n \"tool\": []}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _ := e.app.Coworkers.PreviewCoworker(src)
	if p.Refused != "" || len(p.Errors) != 1 || p.Errors[0].File != bad || p.Errors[0].Line != 2 || p.Errors[0].Fix == "" {
		t.Fatalf("preview = %+v, want one error at %s:2 with a fix", p, bad)
	}
	l, err := e.app.Coworkers.AddCoworker(src, AddCopy, false)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, b := range l.Broken {
		found = found || b.File == filepath.Join(e.bundles, "typo", "coworker", "tools.json")
	}
	if !found || slices.Contains(names(l), "typo") {
		t.Errorf("a broken bundle added is listed broken: %+v", l.Broken)
	}
}

func TestAddCoworkerLinkLoopAndLinksOut(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need developer mode on Windows")
	}
	e := newTestEnv(t, envOpts{})
	loop := srcBundle(t, "loopy")
	if err := os.Symlink("again", filepath.Join(loop, "coworker", "again")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Coworkers.AddCoworker(loop, AddCopy, false); err == nil || !strings.Contains(err.Error(), "leads nowhere or loops") {
		t.Errorf("loop: %v", err)
	}
	out := srcBundle(t, "leaky")
	secret := filepath.Join(t.TempDir(), "secret")
	_ = os.WriteFile(secret, []byte("x"), 0o600)
	if err := os.Symlink(secret, filepath.Join(out, "coworker", "notes.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Coworkers.AddCoworker(out, AddCopy, false); err == nil || !strings.Contains(err.Error(), "leads out of the bundle") {
		t.Errorf("link out: %v", err)
	}
	for _, id := range []string{"loopy", "leaky"} {
		if _, err := os.Lstat(filepath.Join(e.bundles, id)); !os.IsNotExist(err) {
			t.Errorf("a failed copy left %s: %v", id, err)
		}
	}
	if left := leftovers(t, e.bundles); len(left) != 0 {
		t.Errorf("temporary folders left: %v", left)
	}
	// A link inside the bundle is copied as a link that still resolves.
	in := srcBundle(t, "inner")
	if err := os.Symlink(filepath.Join(in, "coworker", "manifest.md"), filepath.Join(in, "coworker", "README.md")); err != nil {
		t.Fatal(err)
	}
	if _, err := e.app.Coworkers.AddCoworker(in, AddCopy, false); err != nil {
		t.Fatal(err)
	}
	got, err := filepath.EvalSymlinks(filepath.Join(e.bundles, "inner", "coworker", "README.md"))
	if err != nil || got != realPath(filepath.Join(e.bundles, "inner", "coworker", "manifest.md")) {
		t.Errorf("inner link resolves to %s, %v", got, err)
	}
	// The source folder itself a link loop.
	self := filepath.Join(t.TempDir(), "self")
	_ = os.Symlink(self, self)
	if p, _ := e.app.Coworkers.PreviewCoworker(self); p.Refused == "" {
		t.Errorf("a looping source is not refused: %+v", p)
	}
}

func TestBundleFolderHint(t *testing.T) {
	root := t.TempDir()
	writeBundle(t, root, "research", "test.echo")
	b := filepath.Join(root, "research")
	if h := bundleFolderHint(b); h == nil || h.Kind != HintBundle || h.Parent != root || !strings.Contains(h.Message, "its parent "+root+" is the coworkers folder") {
		t.Errorf("bundle: %+v", h)
	}
	if h := bundleFolderHint(filepath.Join(b, "coworker")); h == nil || h.Kind != HintCoworkerSubfolder || h.Parent != root || h.Bundle != b {
		t.Errorf("coworker/: %+v", h)
	}
	if h := bundleFolderHint(root); h != nil {
		t.Errorf("a coworkers folder: %+v", h)
	}

	// The app does not switch to a bundle, and says what to use instead.
	e := newTestEnv(t, envOpts{})
	l, err := e.app.Coworkers.SetCoworkersDir(b)
	if err != nil {
		t.Fatal(err)
	}
	if l.Hint == nil || l.Hint.Parent != root || l.Dir != e.bundles {
		t.Fatalf("SetCoworkersDir(bundle) = dir %s hint %+v", l.Dir, l.Hint)
	}
	s, _ := LoadSettings(e.app.paths.Settings)
	if s.CoworkersDir == b {
		t.Error("the bundle was saved as the coworkers folder")
	}
	l, err = e.app.Coworkers.SetCoworkersDir(l.Hint.Parent)
	if err != nil || l.Hint != nil || !slices.Contains(names(l), "research") {
		t.Errorf("the parent: %v, hint %+v, %v", err, l.Hint, names(l))
	}
	// A list of a folder that is a bundle (from --coworkers) has the hint,
	// not "…/coworker/coworker/manifest.md is missing".
	l = e.app.Coworkers.list(filepath.Join(b, "coworker"))
	if l.Hint == nil || len(l.Broken) != 0 {
		t.Errorf("list of coworker/: %+v", l)
	}
}

// pickDir is a Dialogs that answers every folder question with path.
type pickDir struct{ path, title string }

func (p *pickDir) ChooseDirectory(title, _ string) (string, error) {
	p.title = title
	return p.path, nil
}
func (p *pickDir) ChooseFile(string, string) (string, error) { return "", nil }

// TestPickersGiveTheFolderAndTheHint: "Add coworker…" returns the folder
// picked and writes nothing; "Choose folder…" on a bundle's coworker/
// folder keeps the folder in use and names the coworkers folder.
func TestPickersGiveTheFolderAndTheHint(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	src := srcBundle(t, "picked", "test.echo")
	pick := &pickDir{path: src}
	e.app.dialogs = pick
	got, err := e.app.Coworkers.ChooseCoworkerBundle()
	if err != nil || got != src || pick.title != "Choose a coworker folder to add" {
		t.Fatalf("ChooseCoworkerBundle = %q, %v (title %q)", got, err, pick.title)
	}
	if _, err := os.Lstat(filepath.Join(e.bundles, "picked")); !os.IsNotExist(err) {
		t.Errorf("picking wrote into the coworkers folder: %v", err)
	}
	pick.path = filepath.Join(src, "coworker")
	l, err := e.app.Coworkers.ChooseCoworkersDir()
	if err != nil {
		t.Fatal(err)
	}
	if l.Dir != e.bundles || l.Hint == nil || l.Hint.Kind != HintCoworkerSubfolder || l.Hint.Parent != filepath.Dir(src) {
		t.Fatalf("ChooseCoworkersDir(coworker/) = dir %s, hint %+v", l.Dir, l.Hint)
	}
	for _, b := range l.Broken {
		if strings.Contains(b.File, filepath.Join("coworker", "coworker")) {
			t.Errorf("misleading error: %+v", b)
		}
	}
}
