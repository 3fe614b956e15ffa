package app

import (
	"errors"
	"sync"

	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// serversState is the servers file as last applied. Its cfg is not
// changed once kept (a new read makes a new one), so a copy of the state
// may be read holding no lock.
type serversState struct {
	loaded    string      // the servers.json whose providers are in use
	err       error       // the last problem reading it, or nil
	whole     bool        // err is about the whole file (nothing of it was read)
	runtimeOK bool        // the runtime took the servers of the last read (err is the file's only)
	cfg       *mcp.Config // the servers file as last read (its inputs, notices); nil when none
}

// serversFile applies the servers file of the settings and the installed
// extensions to the runtime (docs/servers.md, docs/extensions.md#running)
// and keeps the servers banner.
//
// Applying reads the file, the keychain (its inputs) and the extensions
// folder, and ends the provider processes no generation uses
// (harness.Runtime.SetServers): it runs holding no lock. Runs never
// overlap, so generations are made in the order of the changes: apply
// starts a run when none is going, and a request that comes while one is
// going is served by the next run, which reads the settings as they are
// then (requests that wait together share it). mu guards the state, the
// banner and that bookkeeping, held only to read or keep them.
type serversFile struct {
	env      *env
	engine   *engine
	settings *settingsStore

	// writeMu makes one import into the servers file or one extension
	// install at a time: plan, compare and write as one step. Only those
	// writers take it (across their writes); no read does.
	writeMu sync.Mutex

	mu       sync.Mutex
	st       serversState
	shown    Notice        // the servers banner last sent to the window
	asked    uint64        // apply requests so far
	done     uint64        // requests served by runs that ended
	running  bool          // a run is going
	announce bool          // a request not yet served asked to announce
	ended    chan struct{} // closed (and replaced) when a run ends
}

// state returns the servers file as last applied.
func (f *serversFile) state() serversState {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.st
}

// start applies the servers file at start and, when it has a problem,
// keeps the servers banner with the start notices (sent with Info).
func (f *serversFile) start(notices *noticeBoard) {
	next := f.load(f.state())
	n := next.notice()
	f.mu.Lock()
	f.st = next
	if next.err != nil {
		f.shown = n
	}
	f.mu.Unlock()
	if next.err != nil {
		notices.add(n)
	}
}

// apply applies the servers file of the settings in use again and
// returns once a run that began after the call has ended. With announce
// (an edit of the file on disk) a problem the file did not have before
// the run is raised as the servers banner; otherwise (an action in
// Settings, whose view shows the problem) a banner already shown is only
// replaced or removed, so a stale one never stays after the file loads
// cleanly.
func (f *serversFile) apply(announce bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked++
	mine := f.asked
	f.announce = f.announce || announce
	for f.done < mine {
		if f.running {
			f.waitLocked()
			continue
		}
		f.running = true
		serves, ann := f.asked, f.announce
		f.announce = false
		f.mu.Unlock()
		f.run(ann)
		f.mu.Lock()
		f.done = serves
		f.endLocked()
	}
}

// change runs write and, when it worked, a run of apply that does not
// announce (the change was made in Settings, whose view shows a problem),
// with no other run between them: a live reload the write causes comes
// after and finds the providers as applied. It returns write's error.
func (f *serversFile) change(write func() error) error {
	f.mu.Lock()
	for f.running {
		f.waitLocked()
	}
	f.running = true
	f.mu.Unlock()
	err := write()
	if err == nil {
		f.run(false)
	}
	f.mu.Lock()
	f.endLocked()
	f.mu.Unlock()
	return err
}

// waitLocked waits for the run going to end; f.mu is held, and let go
// while waiting.
func (f *serversFile) waitLocked() {
	if f.ended == nil {
		f.ended = make(chan struct{})
	}
	ended := f.ended
	f.mu.Unlock()
	<-ended
	f.mu.Lock()
}

// endLocked ends the run going and wakes those waiting; f.mu is held.
func (f *serversFile) endLocked() {
	f.running = false
	if f.ended != nil {
		close(f.ended)
		f.ended = nil
	}
}

// run is one run of apply: runs never overlap, so the state before it is
// the state it read.
func (f *serversFile) run(announce bool) {
	prev := f.state()
	before := prev.notice()
	next := f.load(prev)
	after := next.notice()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.st = next
	none := f.shown.Message == "" // no servers banner is shown
	switch {
	case after == f.shown, after.Message == "" && none: // the screen stays as it is
		return
	case announce && after == before: // a problem the file had before the edit is only in Settings
		return
	case !announce && none: // Settings shows the problem
		return
	}
	f.shown = after
	f.env.emit.Emit(EventNotice, after) // Emit does not block
}

// load reads the servers file of the settings (none when the path is "")
// in any format mcp.ReadConfig reads, and makes its MCP providers the
// runtime's: a new registry generation (harness.Runtime.SetServers,
// docs/registry.md). New chats use it; open chats keep the generation
// they were opened on until they close, and a provider whose entry did
// not change keeps its process. It returns the new state; prev is the
// state before.
//
// A bad entry disables only its provider (a coworker that uses it does not
// resolve, every other one does); the error names the file, line and
// column. A file that cannot be read at all changes none of its
// providers: those in use stay (none when no file was read yet, and a
// coworker that names one is told why); the installed extensions are
// applied all the same (docs/extensions.md#running). Inputs are answered
// from the OS keychain only (SetServerInput keeps an answer there); an
// unanswered one disables its entry with an error saying so.
func (f *serversFile) load(prev serversState) serversState {
	rt := f.engine.runtime()
	if rt == nil {
		return prev
	}
	a := f.env
	path := f.settings.get().ServersPath
	var servers []tool.MCPServer
	var broken []tool.BrokenMCP
	var cfg *mcp.Config
	if path != "" {
		warn := func(err error) { a.log.Warn("servers file input", "path", path, "err", err) }
		c, err := mcp.ReadConfig(path, &mcp.ConfigOptions{Inputs: mcp.KeychainInputs(nil, warn)})
		if err != nil {
			// The file's providers in use stay (those of the last file
			// read, if any); the installed extensions are applied all the
			// same, so one broken file never hides them.
			if prev.cfg != nil {
				servers, broken = prev.cfg.Servers()
			} else if prev.loaded == "" {
				// Nothing of a servers file is in use yet: say why its
				// providers are missing when a coworker names one.
				broken = []tool.BrokenMCP{{Source: path, Err: err}}
			}
			ext, extBroken := a.extensionServers(servers)
			_ = rt.SetServers(append(servers, ext...), append(broken, extBroken...)...)
			next := prev
			next.err, next.whole, next.runtimeOK = err, true, false
			return next
		}
		c.CheckRegistry(a.reg) // a namespace the app has already (device, notification) is that entry's error
		cfg = c
		servers, broken = c.Servers()
	}
	next := serversState{loaded: path, cfg: cfg}
	ext, extBroken := a.extensionServers(servers) // installed extensions (docs/extensions.md#running)
	servers, broken = append(servers, ext...), append(broken, extBroken...)
	err := rt.SetServers(servers, broken...) // the bad entries are left out, the others in use
	next.runtimeOK = err == nil
	if cfg != nil {
		err = errors.Join(cfg.Err(), err)
	}
	next.err = err
	return next
}

// notice is the banner (key NoticeKeyServers) for the servers file as
// applied: an error; a warning when every problem is an entry that uses
// an input not answered yet (a normal state until the person answers it
// in Settings); with no message when the file loaded without a problem,
// which removes the banner. It reads the keychain: call it holding no
// lock.
func (st serversState) notice() Notice {
	if st.err == nil {
		return Notice{Level: NoticeInfo, Key: NoticeKeyServers}
	}
	level := NoticeError
	if !st.whole && st.runtimeOK && onlyAwaitingAnswers(st.cfg) {
		level = NoticeWarn
	}
	return Notice{Level: level, Message: "servers.json: " + st.err.Error(), Key: NoticeKeyServers}
}

// inputs lists the inputs of the servers file and whether each is
// answered. It reads the keychain: call it holding no lock.
func (st serversState) inputs() []ServerInput {
	if st.cfg == nil {
		return nil
	}
	var out []ServerInput
	for _, in := range st.cfg.Inputs() {
		ok, _ := mcp.InputStored(in.ID, in.Description)
		out = append(out, ServerInput{ID: in.ID, Description: in.Description, Password: in.Password, Answered: ok})
	}
	return out
}

// onlyAwaitingAnswers is true when cfg has entries that cannot be used and
// each of them uses an input the OS keychain has no answer to.
func onlyAwaitingAnswers(cfg *mcp.Config) bool {
	if cfg == nil {
		return false
	}
	some := false
	for _, e := range cfg.Entries {
		if e.Err == nil || e.Disabled {
			continue
		}
		awaiting := false
		for _, in := range e.Inputs() {
			if ok, err := mcp.InputStored(in.ID, in.Description); !ok && err == nil {
				awaiting = true
			}
		}
		if !awaiting {
			return false
		}
		some = true
	}
	return some
}
