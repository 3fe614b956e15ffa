package app

import "sync"

// reloads are the app's live reloads (docs/app.md#live-reload): a watcher
// of the coworkers folder in use, which resolves the coworkers afresh
// after each change, and one of the servers file in use, which applies
// every edit of it at once.
//
// mu guards the two watchers. A new watcher is made holding no lock (its
// folders are walked) and swapped in under mu, where the one it replaces
// is stopped (no I/O) and a reload checks that it is still current before
// it acts and when it sends its list: so the list of an old folder never
// comes after the new one's, and a reload the swap overtook does nothing.
// The replaced watcher is closed after mu is let go.
type reloads struct {
	env      *env
	engine   *engine
	settings *settingsStore
	servers  *serversFile
	list     func(dir string) CoworkerList // the coworkers of dir, resolved

	mu        sync.Mutex
	coworkers *dirWatcher // nil when the folder cannot be watched
	file      *dirWatcher // the servers file's; nil when none is in use
	closed    bool        // shut down: no watcher is kept any more
}

// rewatchCoworkers watches the coworkers folder in use and sends
// EventCoworkersChanged after each change (live reload), resolving the
// bundles afresh.
func (r *reloads) rewatchCoworkers() {
	dir := r.settings.coworkersDir()
	w, err := watchDir(dir, func(closed func() bool) { r.coworkersChanged(closed, dir) })
	if err != nil {
		r.env.log.Warn("watch coworkers", "dir", dir, "err", err)
	}
	r.mu.Lock()
	old := r.swapLocked(&r.coworkers, w, dir == r.settings.coworkersDir())
	r.mu.Unlock()
	_ = old.Close()
}

// rewatchServers watches the servers file in use and applies every edit
// of it at once (live reload), announcing a new problem as the servers
// notice (serversFile.apply; one the file had before the edit is only in
// Settings) and sending the coworkers as resolved anew.
func (r *reloads) rewatchServers() {
	path := r.settings.get().ServersPath
	var w *dirWatcher
	if path != "" && r.engine.runtime() != nil {
		var err error
		if w, err = watchFile(path, r.serversChanged); err != nil {
			r.env.log.Warn("watch servers.json", "path", path, "err", err)
		}
	}
	r.mu.Lock()
	old := r.swapLocked(&r.file, w, path == r.settings.get().ServersPath)
	r.mu.Unlock()
	_ = old.Close()
}

// swapLocked makes w the watcher in slot when current (the folder or file
// it watches is still the one in use) and stops the one it replaces;
// otherwise, or after shutdown, it stops w. It returns the stopped one,
// for the caller to close once mu is let go. r.mu is held.
func (r *reloads) swapLocked(slot **dirWatcher, w *dirWatcher, current bool) *dirWatcher {
	if r.closed || !current {
		w.stop()
		return w
	}
	old := *slot
	*slot = w
	old.stop()
	return old
}

// coworkersChanged is a live reload of the coworkers folder dir.
func (r *reloads) coworkersChanged(closed func() bool, dir string) {
	r.mu.Lock()
	stop := closed()
	r.mu.Unlock()
	if stop {
		return
	}
	if rt := r.engine.runtime(); rt != nil {
		rt.ForgetChecks() // a provider may have been fixed meanwhile
	}
	r.emitReloaded(closed, dir, r.list(dir))
}

// serversChanged is a live reload of the servers file.
func (r *reloads) serversChanged(closed func() bool) {
	r.mu.Lock()
	stop := closed() // shutdown or another servers file overtook this reload
	r.mu.Unlock()
	if stop {
		return
	}
	r.servers.apply(true)
	dir := r.settings.coworkersDir()
	r.emitReloaded(closed, dir, r.list(dir))
}

// emitReloaded sends l, the list of the coworkers folder dir a live
// reload resolved, as EventCoworkersChanged, unless closed says the
// reload's watcher was stopped meanwhile or dir is no longer the folder in
// use: checked and sent under r.mu, where watchers are swapped (Emit does
// not block), so an old list never follows a new one.
func (r *reloads) emitReloaded(closed func() bool, dir string, l CoworkerList) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !closed() && dir == r.settings.coworkersDir() {
		r.env.emit.Emit(EventCoworkersChanged, l)
	}
}

// close stops both watchers for good (shutdown) and closes them.
func (r *reloads) close() {
	r.mu.Lock()
	r.closed = true
	c, f := r.coworkers, r.file
	r.coworkers, r.file = nil, nil
	c.stop()
	f.stop()
	r.mu.Unlock()
	_ = c.Close()
	_ = f.Close()
}
