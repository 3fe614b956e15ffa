package app

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
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
	var found *servers.ConfigInput
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
	if err := servers.SetInput(found.ID, found.Description, value); err != nil {
		return SettingsView{}, err
	}
	sv.servers.apply(false)
	sv.coworkers.relist(sv.settings.coworkersDir())
	return sv.prefs.view(), nil
}

// ServerInUse is an MCP server of the servers file in use, as the
// providers of new chats have it: Settings lists it with the coworkers
// that use it and "Give tools to…" (docs/app.md#one-step-tools).
type ServerInUse struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`   // as written, when not the namespace
	Source    string `json:"source"` // FILE:LINE of its entry, the file's base name
	// Remote is the host its calls go to, "" for a server on this
	// computer.
	Remote string `json:"remote"`
	// Broken says why its entry is off ("" when it works).
	Broken string `json:"broken"`
}

// ServersInUse lists the MCP servers of the servers file in use by
// namespace: those the providers have and those whose entry is broken.
// The built-in providers and the extensions are not listed (Settings →
// Extensions lists those). Nothing is started.
func (sv *Servers) ServersInUse() []ServerInUse {
	out := []ServerInUse{}
	rt := sv.servers.engine.runtime()
	if rt == nil {
		return out
	}
	exts := map[string]bool{}
	for _, e := range sv.extensionStore().Providers() {
		exts[e.Namespace] = true
	}
	reg := rt.Registry()
	for _, s := range reg.Servers() {
		if s.Source == "" || exts[s.Namespace] {
			continue
		}
		u := ServerInUse{Namespace: s.Namespace, Name: s.Name, Source: filepath.Base(s.Source)}
		if p := s.Placement(); !strings.HasPrefix(p, tool.PlacementLocal) {
			u.Remote = p
		}
		out = append(out, u)
	}
	for _, b := range reg.Broken() {
		if b.Namespace != "" && !b.Extension && !exts[b.Namespace] {
			out = append(out, ServerInUse{Namespace: b.Namespace, Name: b.Name, Source: filepath.Base(b.Source), Broken: b.Err.Error()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Namespace < out[j].Namespace })
	return out
}
