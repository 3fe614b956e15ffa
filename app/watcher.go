package app

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// watchDebounce collapses a burst of file events (an editor's save, a copied
// folder) into one reload.
const watchDebounce = 250 * time.Millisecond

// watchDepth is how deep under the bundles folder folders are watched:
// <bundles>/<id>/coworker/skills/<skill> is depth 4 (docs/bundles.md layout).
const watchDepth = 4

// dirWatcher calls onChange (at most once per watchDebounce) when anything
// under root changes. fsnotify is not recursive, so it watches root and its
// folders down to watchDepth, and re-adds them after each change. Close
// stops it; onChange is never called after Close returns.
type dirWatcher struct {
	w        *fsnotify.Watcher
	root     string
	only     string // when set, the one file under root whose changes count
	onChange func()
	done     chan struct{}
	wg       sync.WaitGroup
}

func watchDir(root string, onChange func()) (*dirWatcher, error) {
	return newWatcher(root, "", onChange)
}

// newWatcher watches root (and, when only is "", its tree).
func newWatcher(root, only string, onChange func()) (*dirWatcher, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	d := &dirWatcher{w: w, root: root, only: only, onChange: onChange, done: make(chan struct{})}
	if err := d.addTree(); err != nil {
		w.Close()
		return nil, err
	}
	d.wg.Add(1)
	go d.loop()
	return d, nil
}

// addTree watches root and its folders down to watchDepth. Adding a watched
// folder again is harmless.
func (d *dirWatcher) addTree() error {
	if err := d.w.Add(d.root); err != nil {
		return err
	}
	if d.only != "" {
		return nil
	}
	_ = filepath.WalkDir(d.root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.IsDir() || p == d.root {
			return nil
		}
		rel, _ := filepath.Rel(d.root, p)
		if depth(rel) > watchDepth {
			return filepath.SkipDir
		}
		_ = d.w.Add(p)
		return nil
	})
	return nil
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
	defer d.wg.Done()
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
			_ = d.addTree()
			d.onChange()
		}
	}
}

// watchFile calls onChange (debounced as watchDir) when the file at path is
// written, replaced (an editor's save-by-rename), created or removed. It
// watches the file's folder, since a replaced file is a new inode.
func watchFile(path string, onChange func()) (*dirWatcher, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	return newWatcher(filepath.Dir(abs), filepath.Clean(abs), onChange)
}

// Close stops watching and waits for the loop to end.
func (d *dirWatcher) Close() error {
	if d == nil {
		return nil
	}
	select {
	case <-d.done:
		return errors.New("watcher already closed")
	default:
	}
	close(d.done)
	err := d.w.Close()
	d.wg.Wait()
	return err
}
