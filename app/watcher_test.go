package app

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// waitFired waits until w's loop has begun an onChange call.
func waitFired(t *testing.T, w *dirWatcher) {
	t.Helper()
	deadline := time.After(hangGuard)
	for w.fired.Load() == 0 {
		select {
		case <-deadline:
			t.Fatalf("no reload of %s within %v", w.root, hangGuard)
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// waitClosed runs f (a Close, or the app's swap of a watcher, called
// holding the lock mu) and fails when it does not return within
// hangGuard, unlocking mu first so that the test's clean-up can run.
func waitClosed(t *testing.T, what string, mu *sync.Mutex, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(hangGuard):
		mu.Unlock()
		t.Fatalf("%s did not return within %v: it waits for the reload, which waits for the lock its caller holds", what, hangGuard)
	}
}

// TestWatcherClosedWhileAReloadWaitsForTheLock: Close, called holding the
// lock a reload in progress waits for, returns (it used to wait for the
// reload: a deadlock, the app binary's hang under Wine), and the reload
// then sees closed and does nothing; the loop ends.
func TestWatcherClosedWhileAReloadWaitsForTheLock(t *testing.T) {
	dir := t.TempDir()
	var mu sync.Mutex
	acted := make(chan bool, 1)
	w, err := watchDir(dir, func(closed func() bool) {
		mu.Lock()
		defer mu.Unlock()
		acted <- !closed()
	})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("x"), 0o644); err != nil {
		mu.Unlock()
		t.Fatal(err)
	}
	waitFired(t, w)
	var closeErr error
	waitClosed(t, "Close", &mu, func() { closeErr = w.Close() })
	mu.Unlock()
	if closeErr != nil {
		t.Fatalf("Close: %v", closeErr)
	}
	select {
	case a := <-acted:
		if a {
			t.Fatal("the reload acted after Close: closed() was false")
		}
	case <-time.After(hangGuard):
		t.Fatal("the reload never ran after the lock was free")
	}
	select {
	case <-w.ended:
	case <-time.After(hangGuard):
		t.Fatal("the watcher's loop did not end after Close")
	}
	if err := w.Close(); err == nil {
		t.Error("a second Close: no error")
	}
}

// TestCoworkersFolderChangedWhileAReloadWaits: the coworkers folder is
// switched (the watcher swapped under reloads.mu, as SetCoworkersDir and
// SaveSettings do through rewatchCoworkers) while a live reload of the
// old folder waits for reloads.mu: the switch returns, the old folder's
// list is never sent, and the new folder reloads live.
func TestCoworkersFolderChangedWhileAReloadWaits(t *testing.T) {
	e := newTestEnv(t, envOpts{})
	r := e.app.reloads
	other := t.TempDir()
	writeBundle(t, other, "elsewhere", "test.echo")
	r.mu.Lock()
	old := r.coworkers
	writeBundle(t, e.bundles, "newcomer", "test.echo")
	waitFired(t, old)
	e.app.settings.mu.Lock()
	e.app.settings.inUse.CoworkersDir = other
	e.app.settings.mu.Unlock()
	w, err := watchDir(other, func(closed func() bool) { r.coworkersChanged(closed, other) })
	if err != nil {
		r.mu.Unlock()
		t.Fatal(err)
	}
	var stopped *dirWatcher
	waitClosed(t, "the switch (swapLocked)", &r.mu, func() { stopped = r.swapLocked(&r.coworkers, w, true) })
	r.mu.Unlock()
	if stopped != old {
		t.Fatal("the switch did not replace the old folder's watcher")
	}
	if err := stopped.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-old.ended:
	case <-time.After(hangGuard):
		t.Fatal("the old folder's watcher did not end")
	}
	for _, p := range e.rec.all(EventCoworkersChanged) {
		t.Errorf("a list was sent for the reload the switch overtook: %+v", p)
	}
	writeBundle(t, other, "latecomer", "test.echo")
	e.rec.waitFor(t, EventCoworkersChanged, func(p any) bool {
		l := p.(CoworkerList)
		for _, c := range l.Coworkers {
			if l.Dir == other && c.ID == "latecomer" {
				return true
			}
		}
		return false
	})
}

// TestWatcherSkipsDotFolders: folders whose name starts with "." (the
// loader ignores them; ".adding-…" stages a coworker being added) are not
// watched, at any depth; the others down to watchDepth are.
func TestWatcherSkipsDotFolders(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{".adding-notes-1/notes/coworker", "notes/coworker/skills/tidy/deep", "notes/.git/objects"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w, err := watchDir(dir, func(func() bool) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	got := map[string]bool{}
	for _, p := range w.w.WatchList() {
		rel, _ := filepath.Rel(dir, p)
		got[filepath.ToSlash(rel)] = true
	}
	for _, want := range []string{".", "notes", "notes/coworker", "notes/coworker/skills", "notes/coworker/skills/tidy"} {
		if !got[want] {
			t.Errorf("%s not watched (watched: %v)", want, got)
		}
	}
	for _, not := range []string{".adding-notes-1", ".adding-notes-1/notes", "notes/.git", "notes/coworker/skills/tidy/deep"} {
		if got[not] {
			t.Errorf("%s watched (watched: %v)", not, got)
		}
	}
}

// TestWatcherFollowsLinkedCoworkers: a coworker added as a link (a
// symbolic link in the coworkers folder) is watched at its target: an
// edit of its manifest, and of a file in its skills folder, reloads; a
// link made after the watcher started is picked up after the reload its
// creation causes.
func TestWatcherFollowsLinkedCoworkers(t *testing.T) {
	root, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "linked")
	skill := filepath.Join(target, "coworker", "skills", "notes")
	if err := os.MkdirAll(skill, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(root, "linked")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	w, err := watchDir(root, func(func() bool) {})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	edit := func(path string) {
		t.Helper()
		before := w.fired.Load()
		if err := os.WriteFile(path, []byte("edited"), 0o644); err != nil {
			t.Fatal(err)
		}
		deadline := time.After(hangGuard)
		for w.fired.Load() == before {
			select {
			case <-deadline:
				t.Fatalf("no reload within %v after writing %s (behind a link)", hangGuard, path)
			case <-time.After(10 * time.Millisecond):
			}
		}
	}
	edit(filepath.Join(target, "coworker", "manifest.md"))
	edit(filepath.Join(skill, "SKILL.md"))

	// A second linked coworker, linked while the watcher runs.
	later := filepath.Join(elsewhere, "later")
	if err := os.MkdirAll(filepath.Join(later, "coworker"), 0o755); err != nil {
		t.Fatal(err)
	}
	before := w.fired.Load()
	if err := os.Symlink(later, filepath.Join(root, "later")); err != nil {
		t.Fatal(err)
	}
	deadline := time.After(hangGuard)
	for w.fired.Load() == before {
		select {
		case <-deadline:
			t.Fatalf("no reload within %v after linking %s", hangGuard, later)
		case <-time.After(10 * time.Millisecond):
		}
	}
	edit(filepath.Join(later, "coworker", "manifest.md"))
}
