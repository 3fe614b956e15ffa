package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/openworker/desktop/harness/bundle"
)

// watchDebounce collapses a burst of file events (an editor's save, a copied
// folder) into one reload.
const watchDebounce = 250 * time.Millisecond

// watchDepth is how deep under the bundles folder folders are watched:
// <bundles>/<id>/coworker/skills/<skill> is depth 4 (docs/bundles.md layout).
const watchDepth = 4

// dirWatcher calls onChange (at most once per watchDebounce) when anything
// under root changes. fsnotify is not recursive, so it watches root and its
// folders down to watchDepth, and re-adds them after each change.
//
// Neither stop nor Close waits for an onChange in progress, so they may be
// called holding a lock onChange takes: the app swaps its watchers under
// reloads.mu (another coworkers folder or servers file, shutdown) while a
// reload may be waiting for it. onChange gets closed, true once stop (or
// Close) has been called, and checks it under that same lock before it
// acts, so a reload that stop overtook does nothing. stop does no I/O;
// Close then releases the watched folders. (Close used to wait for the
// loop: a reload that fired as the app shut down waited for the app's
// lock, Close for the reload, and the app hung for good; the app tests'
// binary did under Wine, docs/app.md#live-reload.)
type dirWatcher struct {
	w        *fsnotify.Watcher
	root     string
	only     string // when set, the one file under root whose changes count
	onChange func(closed func() bool)
	done     chan struct{}
	// mu serializes adding folders and Close: fsnotify's Windows backend
	// loses an Add that races Close, which then waits forever for its
	// reply (fsnotify/fsnotify#704, open in v1.10.1; seen under Wine).
	mu       sync.Mutex
	released bool          // Close was called (under mu)
	stopOnce sync.Once     // closes done
	ended    chan struct{} // closed when the loop returns (tests wait for it)
	fired    atomic.Int32  // onChange calls begun (tests wait for one)
}

func watchDir(root string, onChange func(closed func() bool)) (*dirWatcher, error) {
	return newWatcher(root, "", onChange)
}

// newWatcher watches root (and, when only is "", its tree).
func newWatcher(root, only string, onChange func(closed func() bool)) (*dirWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	d := &dirWatcher{w: w, root: root, only: only, onChange: onChange, done: make(chan struct{}), ended: make(chan struct{})}
	if err := d.addTree(); err != nil {
		w.Close()
		return nil, err
	}
	go d.loop()
	return d, nil
}

// addTree watches root and its folders down to watchDepth, but for the
// folders whose name starts with "." (the loader ignores them, and the app
// stages a coworker being added in ".adding-…": a watch there holds a
// handle that keeps the staged folder from going, delete pending, under
// Wine, and can make renaming it fail on Windows). A linked coworker (a
// symbolic link in root, bundle.LinkTarget; docs/app.md#live-reload) is
// watched at its target, whose tree counts from depth 1 as the link's
// would: fsnotify and WalkDir do not follow links. Adding a watched folder
// again is harmless. After Close it adds nothing.
func (d *dirWatcher) addTree() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed() {
		return fsnotify.ErrClosed
	}
	if err := d.w.Add(d.root); err != nil {
		return err
	}
	if d.only != "" {
		return nil
	}
	for _, target := range d.addFolders(d.root, 0) {
		if st, err := os.Stat(target); err == nil && st.IsDir() && d.w.Add(target) == nil {
			d.addFolders(target, 1)
		}
	}
	return nil
}

// addFolders watches the folders under base (at depth start plus their
// depth under it) down to watchDepth, and returns the targets of the
// links directly in root (start 0) for addTree to watch.
func (d *dirWatcher) addFolders(base string, start int) (links []string) {
	_ = filepath.WalkDir(base, func(p string, e fs.DirEntry, err error) error {
		if err != nil || p == base {
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		at := start + depth(rel)
		if start == 0 && at == 1 && e.Type()&fs.ModeSymlink != 0 && !strings.HasPrefix(e.Name(), ".") {
			if target, ok := bundle.LinkTarget(p); ok {
				links = append(links, target)
			}
			return nil
		}
		if !e.IsDir() {
			return nil
		}
		if at > watchDepth || strings.HasPrefix(e.Name(), ".") {
			return filepath.SkipDir
		}
		_ = d.w.Add(p)
		return nil
	})
	return links
}

func depth(rel string) int {
	n := 1
	for _, c := range rel {
		if c == os.PathSeparator {
			n++
		}
	}
	return n
}

func (d *dirWatcher) loop() {
	defer close(d.ended)
	var timer *time.Timer
	var fire <-chan time.Time
	for {
		select {
		case <-d.done:
			if timer != nil {
				timer.Stop()
			}
			return
		case ev, ok := <-d.w.Events:
			if !ok {
				return
			}
			if ev.Op == fsnotify.Chmod || d.only != "" && filepath.Clean(ev.Name) != d.only {
				continue
			}
			if timer == nil {
				timer = time.NewTimer(watchDebounce)
			} else {
				timer.Reset(watchDebounce)
			}
			fire = timer.C
		case _, ok := <-d.w.Errors:
			if !ok {
				return
			}
		case <-fire:
			fire = nil
			if d.closed() {
				return
			}
			_ = d.addTree()
			d.fired.Add(1)
			d.onChange(d.closed)
		}
	}
}

// watchFile calls onChange (debounced as watchDir) when the file at path is
// written, replaced (an editor's save-by-rename), created or removed. It
// watches the file's folder, since a replaced file is a new inode.
func watchFile(path string, onChange func(closed func() bool)) (*dirWatcher, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return newWatcher(filepath.Dir(abs), filepath.Clean(abs), onChange)
}

// closed reports whether Close has been called.
func (d *dirWatcher) closed() bool {
	select {
	case <-d.done:
		return true
	default:
		return false
	}
}

// stop makes closed() true: the loop ends, and an onChange in progress
// sees it and does nothing. It does no I/O and does not wait, so it may be
// called holding any lock; a nil watcher and a second call are no-ops.
// Close releases the watched folders.
func (d *dirWatcher) stop() {
	if d != nil {
		d.stopOnce.Do(func() { close(d.done) })
	}
}

// Close stops watching (stop) and releases the watched folders. It does
// not wait for an onChange in progress (see dirWatcher): that one sees
// closed() true and the loop ends after it. Calling Close twice is an
// error; Close after stop is not.
func (d *dirWatcher) Close() error {
	if d == nil {
		return nil
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.released {
		return errors.New("watcher already closed")
	}
	d.released = true
	d.stop()
	return d.w.Close()
}
