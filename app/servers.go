package app

import (
	"fmt"

	"github.com/openworker/desktop/harness/mcp"
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

// SetServerInput keeps value in the OS keychain as the answer to the input
// id of the servers file in use, and applies the file again: the entries
// that needed it start working for new chats. An empty value removes the
// stored answer. The value is never written to a file, the journal or the
// log.
func (a *App) SetServerInput(id, value string) (SettingsView, error) {
	var found *mcp.ConfigInput
	if cfg := a.servers.state().cfg; cfg != nil {
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
	a.servers.apply(false)
	a.relistCoworkers(a.settings.coworkersDir())
	return a.view(), nil
}
