package app

import (
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// applyServersLocked reads the servers.json of the settings (none when the
// path is "") and makes its MCP providers the runtime's: a new registry
// generation (harness.Runtime.SetServers, docs/registry.md). New chats use
// it; open chats keep the generation they were opened on until they close,
// and a provider whose entry did not change keeps its process. A file that
// cannot be read changes nothing: the providers in use stay. The error
// names the file, line and column. a.mu must be held.
func (a *App) applyServersLocked() error {
	if a.rt == nil {
		return nil
	}
	path := a.settings.ServersPath
	var servers []tool.MCPServer
	if path != "" {
		s, err := mcp.ReadServersFile(path)
		if err != nil {
			a.serversErr = err
			return err
		}
		servers = s
	}
	a.serversLoaded = path
	err := a.rt.SetServers(servers) // the bad entries are left out, the others in use
	a.serversErr = err
	return err
}

// rewatchServersLocked watches the servers.json in use and applies every
// edit of it at once (live reload), announcing a problem as a notice and
// the coworkers as resolved anew. a.mu must be held.
func (a *App) rewatchServersLocked() {
	_ = a.serversWatcher.Close()
	a.serversWatcher = nil
	path := a.settings.ServersPath
	if path == "" || a.rt == nil {
		return
	}
	w, err := watchFile(path, func() {
		a.mu.Lock()
		err := a.applyServersLocked()
		dir := a.coworkersDir()
		a.mu.Unlock()
		if err != nil {
			a.emit.Emit(EventNotice, Notice{Level: NoticeError, Message: "servers.json: " + err.Error()})
		}
		a.emit.Emit(EventCoworkersChanged, a.listCoworkers(dir))
	})
	if err != nil {
		a.log.Warn("watch servers.json", "path", path, "err", err)
		return
	}
	a.serversWatcher = w
}
