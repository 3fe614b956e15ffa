package files

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// These tests attack the confinement (docs/files.md#confinement): every
// tool is called with paths that leave the root, and the folder beside it
// must come out byte for byte as it went in.

const secret = "TOP SECRET: outside the root\n"

// jail serves a files server on base/root, with base/outside beside it
// holding secret.txt and a folder; it checks at the end of the test that
// nothing in outside was read into a result or changed.
func jail(t *testing.T) (cs *sdk.ClientSession, root, outside string) {
	t.Helper()
	base := t.TempDir()
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	writeFile(t, filepath.Join(outside, "secret.txt"), secret)
	writeFile(t, filepath.Join(outside, "folder", "deep.txt"), secret)
	writeFile(t, filepath.Join(root, "inside.txt"), "inside\n")
	before := snapshot(t, outside)
	cs, _ = connect(t, Options{Roots: []string{root}})
	t.Cleanup(func() {
		if after := snapshot(t, outside); !reflect.DeepEqual(before, after) {
			t.Errorf("the folder outside the root changed:\nbefore %q\nafter  %q", before, after)
		}
	})
	return cs, root, outside
}

// snapshot is every file, folder and link under dir with its content.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case de.Type()&fs.ModeSymlink != 0:
			m[rel] = "link"
		case de.IsDir():
			m[rel] = "folder"
		default:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			m[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// noSecret fails when a result holds the outside file's content.
func noSecret(t *testing.T, msg string) {
	t.Helper()
	if strings.Contains(msg, "TOP SECRET") {
		t.Errorf("a result holds the outside file's content: %s", msg)
	}
}

// everyTool calls every tool with p as its path (and as each of
// file_move's two paths) and wants each refused with want in the message.
func everyTool(t *testing.T, cs *sdk.ClientSession, p string, want ...string) {
	t.Helper()
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"file_read", map[string]any{"path": p}},
		{"files_list", map[string]any{"path": p}},
		{"file_info", map[string]any{"path": p}},
		{"files_search", map[string]any{"path": p, "text": "SECRET"}},
		{"file_write", map[string]any{"path": p, "content": "pwned", "overwrite": true}},
		{"file_edit", map[string]any{"path": p, "old_text": "TOP SECRET", "new_text": "pwned"}},
		{"folder_make", map[string]any{"path": p}},
		{"file_move", map[string]any{"from": p, "to": "stolen.txt"}},
		{"file_move", map[string]any{"from": "inside.txt", "to": p, "overwrite": true}},
	}
	for _, c := range calls {
		noSecret(t, refused(t, cs, c.tool, c.args, want...))
	}
}

func TestTraversalRefused(t *testing.T) {
	cs, root, outside := jail(t)
	for _, p := range []string{
		"../outside/secret.txt",
		"a/../../outside/secret.txt",
		"./../outside",
		"..",
		`..\outside\secret.txt`,
		`a\..\..\outside\secret.txt`,
		"inside.txt/../../outside/secret.txt",
	} {
		everyTool(t, cs, p, strconv.Quote(p), `leads outside the folder`, "give a path inside it")
	}
	for _, p := range []string{
		filepath.Join(outside, "secret.txt"),
		outside,
		filepath.Join(root, "..", "outside", "secret.txt"),
		filepath.Dir(root),
	} {
		everyTool(t, cs, p, strconv.Quote(p), "is outside the folders this server works in", root)
	}
	if runtime.GOOS == "windows" {
		everyTool(t, cs, `\Windows\win.ini`, "neither a full path nor relative")
		everyTool(t, cs, `C:secret.txt`, "neither a full path nor relative")
	} else {
		everyTool(t, cs, "/etc/passwd", "is outside the folders this server works in")
	}
	// The file inside is untouched by the refused moves and writes.
	if got := readFile(t, filepath.Join(root, "inside.txt")); got != "inside\n" {
		t.Errorf("inside.txt = %q after the refused calls", got)
	}
	// An absolute path inside the root, and one with ".." that stays in
	// it, are fine.
	var info Info
	ok(t, cs, "file_info", map[string]any{"path": filepath.Join(root, "inside.txt")}, &info)
	if info.Path != "inside.txt" || info.Kind != "text" {
		t.Errorf("file_info(absolute inside) = %+v", info)
	}
	ok(t, cs, "file_info", map[string]any{"path": "a/../inside.txt"}, &info)
	ok(t, cs, "file_info", map[string]any{"path": `a\..\inside.txt`}, &info)
}

func TestSymlinkEscapeRefused(t *testing.T) {
	cs, root, outside := jail(t)
	symlink(t, filepath.Join("..", "outside", "secret.txt"), filepath.Join(root, "rel-file-link.txt"))
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "abs-file-link.txt"))
	symlink(t, filepath.Join("..", "outside"), filepath.Join(root, "rel-folder-link"))
	symlink(t, outside, filepath.Join(root, "abs-folder-link"))
	writeFile(t, filepath.Join(root, "sub", "x.txt"), "x")
	symlink(t, filepath.Join("..", "..", "outside"), filepath.Join(root, "sub", "deeper-link"))

	for _, p := range []string{"rel-file-link.txt", "abs-file-link.txt"} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"file_read", map[string]any{"path": p}},
			{"file_edit", map[string]any{"path": p, "old_text": "TOP SECRET", "new_text": "pwned"}},
		} {
			noSecret(t, refused(t, cs, c.tool, c.args, p))
		}
		// Writing over a link is refused without following it.
		noSecret(t, refused(t, cs, "file_write", map[string]any{"path": p, "content": "pwned", "overwrite": true}, p, "symbolic link"))
	}
	for _, p := range []string{
		"rel-folder-link/secret.txt", "abs-folder-link/secret.txt", "sub/deeper-link/secret.txt",
		"rel-folder-link/folder/deep.txt", "rel-folder-link/new.txt",
	} {
		everyTool(t, cs, p, p, "leads outside the folder", "through a symbolic link")
	}
	for _, p := range []string{"rel-folder-link", "abs-folder-link", "sub/deeper-link"} {
		noSecret(t, refused(t, cs, "files_list", map[string]any{"path": p}, p, "leads outside the folder"))
		noSecret(t, refused(t, cs, "files_search", map[string]any{"path": p, "text": "SECRET"}, p, "leads outside the folder"))
	}
	// A listing shows the links and says they cannot be used; a search
	// from the root neither follows them nor reads the file links.
	var l Listing
	ok(t, cs, "files_list", map[string]any{}, &l)
	links := 0
	for _, e := range l.Entries {
		if e.Type == "link" {
			links++
			if !strings.Contains(e.Note, "leads outside the folder") {
				t.Errorf("entry %+v does not say it leads outside", e)
			}
		}
	}
	if links != 4 {
		t.Errorf("listing has %d links, want 4: %+v", links, l.Entries)
	}
	res := ok(t, cs, "files_search", map[string]any{"text": "SECRET"}, nil)
	noSecret(t, text(res))
	var sr SearchResult
	ok(t, cs, "files_search", map[string]any{"name": "*.txt"}, &sr)
	for _, m := range sr.Matches {
		if strings.Contains(m.Path, "secret") || strings.Contains(m.Path, "deep") {
			t.Errorf("search by name went through a link: %+v", m)
		}
	}
	// Moving the link itself inside the root is fine: it is a name.
	ok(t, cs, "file_move", map[string]any{"from": "rel-folder-link", "to": "renamed-link"}, nil)
	noSecret(t, refused(t, cs, "file_read", map[string]any{"path": "renamed-link/secret.txt"}, "leads outside the folder"))
}

// A link made, or a folder swapped for a link, after the model listed the
// folder is refused when it is opened.
func TestSymlinkAfterListingRefused(t *testing.T) {
	cs, root, outside := jail(t)
	writeFile(t, filepath.Join(root, "docs", "a.txt"), "a")
	var l Listing
	ok(t, cs, "files_list", map[string]any{"path": "docs"}, &l)
	if len(l.Entries) != 1 || l.Entries[0].Path != "docs/a.txt" || l.Entries[0].Type != "file" {
		t.Fatalf("listing = %+v", l)
	}
	// a.txt becomes a link to the secret; docs becomes a link to outside.
	os.Remove(filepath.Join(root, "docs", "a.txt"))
	symlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "docs", "a.txt"))
	noSecret(t, refused(t, cs, "file_read", map[string]any{"path": "docs/a.txt"}, "docs/a.txt", "leads outside the folder"))
	if err := os.Rename(filepath.Join(root, "docs"), filepath.Join(root, "old-docs")); err != nil {
		t.Fatal(err)
	}
	symlink(t, outside, filepath.Join(root, "docs"))
	everyTool(t, cs, "docs/secret.txt", "docs/secret.txt", "leads outside the folder")
	noSecret(t, refused(t, cs, "files_list", map[string]any{"path": "docs"}, "docs", "leads outside the folder"))
}

func TestControlCharactersRefused(t *testing.T) {
	cs, root, _ := jail(t)
	for _, p := range []string{"a\x01b.txt", "line\nbreak.txt", "tab\there", "del\x7f.txt", "esc\x1b[31m.txt", "c1\u0085.txt"} {
		everyTool(t, cs, p, strconv.Quote(p), "control character", "give the path without it")
	}
	everyTool(t, cs, "nul\x00.txt", strconv.Quote("nul\x00.txt"), "NUL byte", "give the path without it")
	everyTool(t, cs, "inside.txt\x00../../outside/secret.txt", "NUL byte", "give the path without it")
	refused(t, cs, "files_search", map[string]any{"name": "*\x00*"}, "NUL byte")
	refused(t, cs, "files_search", map[string]any{"name": "[", "text": "x"}, "is not a glob")
	// Nothing was made in the root.
	des, _ := os.ReadDir(root)
	if len(des) != 1 {
		t.Errorf("the root holds %d entries after the refused calls, want 1 (inside.txt)", len(des))
	}
	// A file with a control character in its name made by someone else is
	// listed (its name escaped in JSON) but cannot be opened.
	if runtime.GOOS != "windows" {
		writeFile(t, filepath.Join(root, "odd\x01name.txt"), "odd")
		var l Listing
		ok(t, cs, "files_list", map[string]any{}, &l)
		found := false
		for _, e := range l.Entries {
			found = found || e.Name == "odd\x01name.txt"
		}
		if !found {
			t.Errorf("listing = %+v, want the odd name", l.Entries)
		}
	}
}

// With no --root, a client that offers no roots (the harness without a
// workspace: no roots capability) and one that offers an empty list both
// get a tool error from every tool.
func TestNoFolderToWorkIn(t *testing.T) {
	for _, c := range []struct {
		name string
		caps *sdk.ClientCapabilities
		want string
	}{
		{"no roots capability", &sdk.ClientCapabilities{}, "the client offers no roots"},
		{"empty roots list", nil, "the client offers an empty roots list"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			srv, err := NewServer(Options{})
			if err != nil {
				t.Fatal(err)
			}
			st, ct := sdk.NewInMemoryTransports()
			ss, err := srv.Connect(ctx, st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Wait()
			cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "0"}, &sdk.ClientOptions{Capabilities: c.caps}).Connect(ctx, ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			for _, tc := range []struct {
				tool string
				args map[string]any
			}{
				{"files_list", nil},
				{"file_read", map[string]any{"path": "a.txt"}},
				{"files_search", map[string]any{"name": "*"}},
				{"file_info", map[string]any{"path": "a.txt"}},
				{"file_write", map[string]any{"path": "a.txt", "content": "x"}},
				{"file_edit", map[string]any{"path": "a.txt", "old_text": "x", "new_text": "y"}},
				{"file_move", map[string]any{"from": "a.txt", "to": "b.txt"}},
				{"folder_make", map[string]any{"path": "a"}},
			} {
				refused(t, cs, tc.tool, tc.args, "no folder to work in: ", c.want, "--root DIR", "workspace")
			}
		})
	}
}
