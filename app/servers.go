package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/mcp"
)

// Servers is Settings' servers file: its inputs, importing another MCP
// client's servers into it (import.go) and the sign-ins to its remote
// servers (signin.go). The file as applied is serversFile's.
type Servers struct {
	*env
	settings  *settingsStore
	servers   *serversFile
	reloads   *reloads
	coworkers *Coworkers   // listed anew after a change
	prefs     *Preferences // the Settings view a change returns
	signIns   *signIns
}

// ServerInput is an input (${input:ID}) of the servers file in use: asked
// once, kept in the OS keychain (docs/servers.md#inputs). The answer itself
// is never shown.
type ServerInput struct {
	ID          string `json:"id"`
	Description string `json:"description"`
	Password    bool   `json:"password"`
	Answered    bool   `json:"answered"` // the keychain holds an answer
}

// SetServerInput keeps value in the OS keychain as the answer to the input
// id of the servers file in use, and applies the file again: the entries
// that needed it start working for new chats. An empty value removes the
// stored answer. The value is never written to a file, the journal or the
// log.
func (sv *Servers) SetServerInput(id, value string) (SettingsView, error) {
	var found *mcp.ConfigInput
	if cfg := sv.servers.state().cfg; cfg != nil {
		for _, in := range cfg.Inputs() {
			if in.ID == id {
				found = &in
				break
			}
		}
	}
	if found == nil {
		return SettingsView{}, fmt.Errorf("the servers file in use has no input %q", id)
	}
	if err := mcp.SetInput(found.ID, found.Description, value); err != nil {
		return SettingsView{}, err
	}
	sv.servers.apply(false)
	sv.coworkers.relist(sv.settings.coworkersDir())
	return sv.prefs.view(), nil
}
