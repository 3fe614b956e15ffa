package app

import (
	"errors"
	"fmt"

	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
)

// ServerInput is an input (${input:ID}) of the servers file in use: asked
// once, kept in the OS keychain (docs/servers.md#inputs). The answer itself
// is never shown.
type ServerInput struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
	Answered    bool   `json:"answered"` // the keychain holds an answer
}

// applyServersLocked reads the servers file of the settings (none when the
// path is "") in any format servers.ReadConfig reads, and makes its MCP
// providers the runtime's: a new registry generation
// (harness.Runtime.SetServers, docs/registry.md). New chats use it; open
// chats keep the generation they were opened on until they close, and a
// provider whose entry did not change keeps its process.
//
// A bad entry disables only its provider (a coworker that uses it does not
// resolve, every other one does); the error names the file, line and
// column. A file that cannot be read at all changes none of its
// providers: those in use stay (none when no file was read yet, and a
// coworker that names one is told why); the installed extensions are
// applied all the same (docs/extensions.md#running). Inputs are answered from the OS keychain only (SetServerInput
// keeps an answer there); an unanswered one disables its entry with an
// error saying so. a.mu must be held.
func (a *App) applyServersLocked() error {
	if a.rt == nil {
		return nil
	}
	path := a.settings.ServersPath
	var list []tool.MCPServer
	var broken []tool.BrokenMCP
	var cfg *servers.Config
	if path != "" {
		warn := func(err error) { a.log.Warn("servers file input", "path", path, "err", err) }
		c, err := servers.ReadConfig(path, &servers.ConfigOptions{Inputs: servers.KeychainInputs(nil, warn)})
		if err != nil {
			// The file's providers in use stay (those of the last file
			// read, if any); the installed extensions are applied all the
			// same, so one broken file never hides them.
			if a.serversCfg != nil {
				list, broken = a.serversCfg.Servers()
			} else if a.serversLoaded == "" {
				// Nothing of a servers file is in use yet: say why its
				// providers are missing when a coworker names one.
				broken = []tool.BrokenMCP{{Source: path, Err: err}}
			}
			ext, extBroken := a.extensionServersLocked(list)
			_ = a.rt.SetServers(append(list, ext...), append(broken, extBroken...)...)
			a.serversErr, a.serversWhole, a.serversRuntimeOK = err, true, false
			return err
		}
		c.CheckRegistry(a.reg) // a namespace the app has already (device, notification) is that entry's error
		cfg = c
		list, broken = c.Servers()
	}
	a.serversLoaded, a.serversCfg = path, cfg
	ext, extBroken := a.extensionServersLocked(list) // installed extensions (docs/extensions.md#running)
	list, broken = append(list, ext...), append(broken, extBroken...)
	err := a.rt.SetServers(list, broken...) // the bad entries are left out, the others in use
	a.serversRuntimeOK = err == nil
	if cfg != nil {
		err = errors.Join(cfg.Err(), err)
	}
	a.serversErr, a.serversWhole = err, false
	return err
}

// serverInputsLocked lists the inputs of the servers file in use and
// whether each is answered. a.mu must be held.
func (a *App) serverInputsLocked() []ServerInput {
	if a.serversCfg == nil {
		return nil
	}
	var out []ServerInput
	for _, in := range a.serversCfg.Inputs() {
		ok, _ := servers.InputStored(in.ID, in.Description)
		out = append(out, ServerInput{ID: in.ID, Description: in.Description, Password: in.Password, Answered: ok})
	}
	return out
}

// SetServerInput keeps value in the OS keychain as the answer to the input
// id of the servers file in use, and applies the file again: the entries
// that needed it start working for new chats. An empty value removes the
// stored answer. The value is never written to a file, the journal or the
// log.
func (a *App) SetServerInput(id, value string) (SettingsView, error) {
	a.mu.Lock()
	var found *servers.ConfigInput
	if a.serversCfg != nil {
		for _, in := range a.serversCfg.Inputs() {
			if in.ID == id {
				found = &in
				break
			}
		}
	}
	a.mu.Unlock()
	if found == nil {
		return SettingsView{}, fmt.Errorf("the servers file in use has no input %q", id)
	}
	if err := servers.SetInput(found.ID, found.Description, value); err != nil {
		return SettingsView{}, err
	}
	a.mu.Lock()
	a.reapplyServersLocked(false)
	dir := a.coworkersDir()
	v := a.viewLocked()
	a.mu.Unlock()
	go func() { a.emit.Emit(EventCoworkersChanged, a.listCoworkers(dir)) }()
	return v, nil
}

// serversNoticeLocked is the banner (key NoticeKeyServers) for the
// servers file as last applied: an error; a warning when every problem is
// an entry that uses an input not answered yet (a normal state until the
// person answers it in Settings); with no message when the file loaded
// without a problem, which removes the banner. a.mu must be held.
func (a *App) serversNoticeLocked() Notice {
	if a.serversErr == nil {
		return Notice{Level: NoticeInfo, Key: NoticeKeyServers}
	}
	level := NoticeError
	if !a.serversWhole && a.serversRuntimeOK && onlyAwaitingAnswers(a.serversCfg) {
		level = NoticeWarn
	}
	return Notice{Level: level, Message: "servers.json: " + a.serversErr.Error(), Key: NoticeKeyServers}
}

// onlyAwaitingAnswers is true when cfg has entries that cannot be used and
// each of them uses an input the OS keychain has no answer to.
func onlyAwaitingAnswers(cfg *servers.Config) bool {
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
			if ok, err := servers.InputStored(in.ID, in.Description); !ok && err == nil {
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

// reapplyServersLocked applies the servers file again and updates the
// servers banner (key NoticeKeyServers) when its problem changed. An edit
// on disk (announce) raises it for a problem the file did not have before
// the edit; an action in Settings (not announce, the view shows the
// problem) only replaces or removes a banner already shown, so a stale
// one never stays after the file loads cleanly. Emit does not block, so it
// is sent under a.mu, in the order of the loads. a.mu must be held.
func (a *App) reapplyServersLocked(announce bool) {
	before := a.serversNoticeLocked()
	_ = a.applyServersLocked() // its error is in the view
	after := a.serversNoticeLocked()
	none := a.serversShown.Message == "" // no servers banner is shown
	switch {
	case after == a.serversShown, after.Message == "" && none: // the screen stays as it is
		return
	case announce && after == before: // a problem the file had before the edit is only in Settings
		return
	case !announce && none: // Settings shows the problem
		return
	}
	a.serversShown = after
	a.emit.Emit(EventNotice, after)
}

// rewatchServersLocked watches the servers file in use and applies every
// edit of it at once (live reload), announcing a new problem as the
// servers notice (reapplyServersLocked; one the file had before the edit
// is only in Settings) and the coworkers as resolved
// anew. a.mu must be held.
func (a *App) rewatchServersLocked() {
	_ = a.serversWatcher.Close()
	a.serversWatcher = nil
	path := a.settings.ServersPath
	if path == "" || a.rt == nil {
		return
	}
	w, err := watchFile(path, func(closed func() bool) {
		a.mu.Lock()
		if closed() { // shutdown or another servers file overtook this reload (dirWatcher)
			a.mu.Unlock()
			return
		}
		a.reapplyServersLocked(true)
		dir := a.coworkersDir()
		a.mu.Unlock()
		a.emitReloaded(closed, dir, a.listCoworkers(dir))
	})
	if err != nil {
		a.log.Warn("watch servers.json", "path", path, "err", err)
		return
	}
	a.serversWatcher = w
}
