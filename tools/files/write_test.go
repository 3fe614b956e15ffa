package files

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestWrite(t *testing.T) {
	cs, root := serveRoot(t)
	var w WriteResult
	ok(t, cs, "file_write", map[string]any{"path": "notes/2026/today.md", "content": "# Today\n"}, &w)
	if w.Path != "notes/2026/today.md" || !w.Created || w.Bytes != 8 || w.MadeFolders != "notes/2026" {
		t.Errorf("write = %+v", w)
	}
	if got := readFile(t, filepath.Join(root, "notes", "2026", "today.md")); got != "# Today\n" {
		t.Errorf("file = %q", got)
	}
	// An existing file is never replaced without overwrite.
	msg := refused(t, cs, "file_write", map[string]any{"path": "notes/2026/today.md", "content": "gone"},
		`"notes/2026/today.md" already exists (8 bytes`, "was left as it is", "overwrite: true")
	_ = msg
	if got := readFile(t, filepath.Join(root, "notes", "2026", "today.md")); got != "# Today\n" {
		t.Errorf("file after the refused write = %q", got)
	}
	// With overwrite it is replaced, keeping its permissions.
	if runtime.GOOS != "windows" {
		os.Chmod(filepath.Join(root, "notes", "2026", "today.md"), 0o600)
	}
	ok(t, cs, "file_write", map[string]any{"path": "notes/2026/today.md", "content": "# New\n", "overwrite": true}, &w)
	if w.Created || w.Bytes != 6 {
		t.Errorf("overwrite = %+v", w)
	}
	if got := readFile(t, filepath.Join(root, "notes", "2026", "today.md")); got != "# New\n" {
		t.Errorf("file after overwrite = %q", got)
	}
	if st, _ := os.Stat(filepath.Join(root, "notes", "2026", "today.md")); runtime.GOOS != "windows" && st.Mode().Perm() != 0o600 {
		t.Errorf("mode after overwrite = %v, want 0600 kept", st.Mode())
	}
	// Not a folder, not the root, not inside a file, not too big.
	refused(t, cs, "file_write", map[string]any{"path": "notes", "content": "x", "overwrite": true}, `"notes" is a folder`)
	refused(t, cs, "file_write", map[string]any{"path": "", "content": "x"}, "path is the folder itself")
	refused(t, cs, "file_write", map[string]any{"path": "notes/2026/today.md/inner.txt", "content": "x"}, `"notes/2026/today.md" is a file, so "notes/2026/today.md/inner.txt" cannot be made inside it`)
	refused(t, cs, "file_write", map[string]any{"path": "big.txt", "content": strings.Repeat("x", MaxWriteBytes+1)}, "content is 4.0 MiB, over the 4.0 MiB")
	noStrays(t, root)
}

// noStrays fails when a temporary file of an atomic write is left.
func noStrays(t *testing.T, root string) {
	t.Helper()
	filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err == nil && strings.Contains(de.Name(), ".tmp-") {
			t.Errorf("a temporary file was left: %s", p)
		}
		return nil
	})
}

// Writes that race: concurrent overwrites leave one whole content, never
// a mix; concurrent creates of one new file let exactly one through;
// concurrent edits of one file all land (none is lost).
func TestWritesThatRace(t *testing.T) {
	cs, root := serveRoot(t)
	const n = 12
	contents := make([]string, n)
	for i := range contents {
		contents[i] = strings.Repeat(fmt.Sprintf("writer %02d\n", i), 20000) // 200 KB each
	}
	writeFile(t, filepath.Join(root, "shared.txt"), "original\n")
	var wg sync.WaitGroup
	reader := func() {
		defer wg.Done()
		for range 20 {
			b, err := os.ReadFile(filepath.Join(root, "shared.txt"))
			if err != nil {
				t.Errorf("reading during the writes: %v", err)
				return
			}
			if s := string(b); s != "original\n" && !isOneOf(s, contents) {
				t.Errorf("a reader saw a mixed or partial file of %d bytes", len(s))
				return
			}
		}
	}
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok(t, cs, "file_write", map[string]any{"path": "shared.txt", "content": contents[i], "overwrite": true}, nil)
		}()
	}
	// A reader during the writes sees an old or a new file, whole. (Not on
	// Windows: a reader's open file there makes a rename over it fail,
	// which the write reports, leaving the file as it was.)
	if runtime.GOOS != "windows" {
		wg.Add(1)
		go reader()
	}
	wg.Wait()
	if got := readFile(t, filepath.Join(root, "shared.txt")); !isOneOf(got, contents) {
		t.Errorf("after the racing writes the file is none of the written contents (%d bytes)", len(got))
	}

	var created, refusedN int
	var mu sync.Mutex
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := call(t, cs, "file_write", map[string]any{"path": "new.txt", "content": contents[i]})
			mu.Lock()
			defer mu.Unlock()
			if res.IsError {
				if !strings.Contains(text(res), "already exists") && !strings.Contains(text(res), "made by someone else") {
					t.Errorf("a losing create says %q", text(res))
				}
				refusedN++
			} else {
				created++
			}
		}()
	}
	wg.Wait()
	if created != 1 || refusedN != n-1 {
		t.Errorf("racing creates: %d created, %d refused; want 1 and %d", created, refusedN, n-1)
	}

	writeFile(t, filepath.Join(root, "log.md"), "# Log\nEND\n")
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ok(t, cs, "file_edit", map[string]any{"path": "log.md", "old_text": "END\n", "new_text": fmt.Sprintf("entry %02d\nEND\n", i)}, nil)
		}()
	}
	wg.Wait()
	got := readFile(t, filepath.Join(root, "log.md"))
	for i := range n {
		if !strings.Contains(got, fmt.Sprintf("entry %02d\n", i)) {
			t.Errorf("edit %d was lost:\n%s", i, got)
		}
	}
	noStrays(t, root)
}

func isOneOf(s string, set []string) bool {
	for _, x := range set {
		if s == x {
			return true
		}
	}
	return false
}

func TestEdit(t *testing.T) {
	cs, root := serveRoot(t)
	path := filepath.Join(root, "plan.md")
	orig := "# Plan\n- buy milk\n- call Ann\n- buy milk\n"
	writeFile(t, path, orig)
	// Zero matches: nothing changes.
	refused(t, cs, "file_edit", map[string]any{"path": "plan.md", "old_text": "buy bread", "new_text": "x"},
		`old_text was not found in "plan.md", so nothing was changed`, "copy the text exactly")
	// Two matches without replace_all: nothing changes; the lines are named.
	refused(t, cs, "file_edit", map[string]any{"path": "plan.md", "old_text": "- buy milk", "new_text": "- buy oat milk"},
		`old_text occurs 2 times in "plan.md" (at lines 2, 4), so nothing was changed`, "replace_all")
	refused(t, cs, "file_edit", map[string]any{"path": "plan.md", "old_text": "", "new_text": "x"}, "old_text is empty")
	refused(t, cs, "file_edit", map[string]any{"path": "plan.md", "old_text": "Plan", "new_text": "Plan"}, "the same")
	refused(t, cs, "file_edit", map[string]any{"path": "nope.md", "old_text": "a", "new_text": "b"}, `"nope.md" does not exist`)
	if got := readFile(t, path); got != orig {
		t.Fatalf("file changed by refused edits: %q", got)
	}
	// One match: changed, with a unified diff.
	res := ok(t, cs, "file_edit", map[string]any{"path": "plan.md", "old_text": "- call Ann\n", "new_text": "- call Ann at 5\n"}, nil)
	want := "# Plan\n- buy milk\n- call Ann at 5\n- buy milk\n"
	if got := readFile(t, path); got != want {
		t.Errorf("after the edit: %q", got)
	}
	out := text(res)
	for _, w := range []string{"Edited plan.md: 1 replacement.", "--- a/plan.md", "+++ b/plan.md", "@@ -1,4 +1,4 @@", "-- call Ann\n", "+- call Ann at 5\n"} {
		if !strings.Contains(out, w) {
			t.Errorf("edit result does not hold %q:\n%s", w, out)
		}
	}
	// replace_all changes every one.
	res = ok(t, cs, "file_edit", map[string]any{"path": "plan.md", "old_text": "milk", "new_text": "oat milk", "replace_all": true}, nil)
	if got := readFile(t, path); got != "# Plan\n- buy oat milk\n- call Ann at 5\n- buy oat milk\n" || !strings.Contains(text(res), "2 replacements") {
		t.Errorf("replace_all: %q\n%s", got, text(res))
	}
	// CRLF files: a hint when old_text has "\n" line ends.
	writeFile(t, filepath.Join(root, "dos.txt"), "one\r\ntwo\r\n")
	refused(t, cs, "file_edit", map[string]any{"path": "dos.txt", "old_text": "one\ntwo", "new_text": "x"}, `lines end with "\r\n"`)
	noStrays(t, root)
}

func TestMoveAndMkdir(t *testing.T) {
	cs, root := serveRoot(t)
	writeFile(t, filepath.Join(root, "a.txt"), "A")
	writeFile(t, filepath.Join(root, "b.txt"), "B")
	writeFile(t, filepath.Join(root, "docs", "x.md"), "X")
	var m MoveResult
	ok(t, cs, "file_move", map[string]any{"from": "a.txt", "to": "archive/2026/a.txt"}, &m)
	if m.To != "archive/2026/a.txt" || m.Replaced || m.MadeFolders != "archive/2026" {
		t.Errorf("move = %+v", m)
	}
	if got := readFile(t, filepath.Join(root, "archive", "2026", "a.txt")); got != "A" {
		t.Errorf("moved file = %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "a.txt")); !os.IsNotExist(err) {
		t.Errorf("a.txt still there after the move: %v", err)
	}
	// Onto an existing file: refused without overwrite; both stay.
	refused(t, cs, "file_move", map[string]any{"from": "b.txt", "to": "archive/2026/a.txt"}, `"archive/2026/a.txt" already exists, so nothing was moved`, "overwrite: true")
	if readFile(t, filepath.Join(root, "b.txt")) != "B" || readFile(t, filepath.Join(root, "archive", "2026", "a.txt")) != "A" {
		t.Error("a refused move changed a file")
	}
	ok(t, cs, "file_move", map[string]any{"from": "b.txt", "to": "archive/2026/a.txt", "overwrite": true}, &m)
	if !m.Replaced || readFile(t, filepath.Join(root, "archive", "2026", "a.txt")) != "B" {
		t.Errorf("overwrite move = %+v", m)
	}
	// Folders: renamed whole, never replaced, never into themselves.
	ok(t, cs, "file_move", map[string]any{"from": "docs", "to": "papers"}, nil)
	if readFile(t, filepath.Join(root, "papers", "x.md")) != "X" {
		t.Error("folder move lost its content")
	}
	refused(t, cs, "file_move", map[string]any{"from": "papers", "to": "papers/inner"}, "cannot be moved into itself")
	refused(t, cs, "file_move", map[string]any{"from": "papers/x.md", "to": "archive", "overwrite": true}, `"archive" is a folder, which is never replaced`, "archive/x.md")
	refused(t, cs, "file_move", map[string]any{"from": "", "to": "x"}, "cannot be moved")
	refused(t, cs, "file_move", map[string]any{"from": "missing.txt", "to": "x"}, `"missing.txt" does not exist`)
	// Renaming only the case of a name.
	writeFile(t, filepath.Join(root, "Readme.md"), "R")
	ok(t, cs, "file_move", map[string]any{"from": "Readme.md", "to": "README.md"}, nil)
	if readFile(t, filepath.Join(root, "README.md")) != "R" {
		t.Error("case rename lost the file")
	}

	var mk MkdirResult
	ok(t, cs, "folder_make", map[string]any{"path": "new/deep/folder"}, &mk)
	if !mk.Created || mk.Path != "new/deep/folder" {
		t.Errorf("mkdir = %+v", mk)
	}
	if st, err := os.Stat(filepath.Join(root, "new", "deep", "folder")); err != nil || !st.IsDir() {
		t.Errorf("folder not made: %v", err)
	}
	ok(t, cs, "folder_make", map[string]any{"path": "new/deep/folder"}, &mk)
	if mk.Created {
		t.Error("an existing folder was reported made")
	}
	refused(t, cs, "folder_make", map[string]any{"path": "README.md"}, `"README.md" is a file, not a folder`)
	noStrays(t, root)
}

func TestListAndSearch(t *testing.T) {
	cs, root := serveRoot(t)
	writeFile(t, filepath.Join(root, "b.md"), "beta\nshopping: milk\n")
	writeFile(t, filepath.Join(root, "a.txt"), "alpha\n")
	writeFile(t, filepath.Join(root, "sub", "c.md"), "gamma\nMilk again\n")
	writeFile(t, filepath.Join(root, ".git", "config"), "milk in git\n")
	var l Listing
	ok(t, cs, "files_list", map[string]any{}, &l)
	var names []string
	for _, e := range l.Entries {
		names = append(names, e.Name+":"+e.Type)
	}
	if strings.Join(names, " ") != ".git:folder sub:folder a.txt:file b.md:file" || l.Total != 4 || l.Truncated || len(l.Roots) != 1 || l.Roots[0] != root {
		t.Errorf("listing = %v %+v", names, l)
	}
	if l.Entries[3].Size != 20 || l.Entries[3].Modified == "" {
		t.Errorf("entry = %+v", l.Entries[3])
	}
	ok(t, cs, "files_list", map[string]any{"limit": 2}, &l)
	if len(l.Entries) != 2 || !l.Truncated || l.Total != 4 {
		t.Errorf("limited listing = %+v", l)
	}
	refused(t, cs, "files_list", map[string]any{"path": "a.txt"}, `"a.txt" is a file, not a folder`)

	var sr SearchResult
	ok(t, cs, "files_search", map[string]any{"name": "*.md"}, &sr)
	if len(sr.Matches) != 2 || sr.Matches[0].Path != "b.md" || sr.Matches[1].Path != "sub/c.md" {
		t.Errorf("search *.md = %+v", sr)
	}
	ok(t, cs, "files_search", map[string]any{"text": "milk"}, &sr)
	if len(sr.Matches) != 2 || sr.Matches[0] != (Match{Path: "b.md", Type: "file", Line: 2, Text: "shopping: milk"}) || sr.Matches[1].Path != "sub/c.md" {
		t.Errorf("search milk (ignoring case, skipping .git) = %+v", sr)
	}
	ok(t, cs, "files_search", map[string]any{"text": "milk", "case_sensitive": true}, &sr)
	if len(sr.Matches) != 1 {
		t.Errorf("case-sensitive search = %+v", sr)
	}
	ok(t, cs, "files_search", map[string]any{"text": `^(alpha|gamma)$`, "regex": true, "name": "*"}, &sr)
	if len(sr.Matches) != 2 {
		t.Errorf("regex search = %+v", sr)
	}
	ok(t, cs, "files_search", map[string]any{"name": "sub/*.md"}, &sr)
	if len(sr.Matches) != 1 || sr.Matches[0].Path != "sub/c.md" {
		t.Errorf("path glob = %+v", sr)
	}
	ok(t, cs, "files_search", map[string]any{"name": "*", "limit": 1}, &sr)
	if len(sr.Matches) != 1 || !sr.Truncated {
		t.Errorf("limited search = %+v", sr)
	}
	refused(t, cs, "files_search", map[string]any{}, "give name")
	refused(t, cs, "files_search", map[string]any{"text": "(", "regex": true}, "not a regular expression")
}
