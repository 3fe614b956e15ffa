package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// Coworkers is the Coworkers screen: the bundles folder as resolved, the
// choice of that folder, and adding a coworker (addcoworker.go,
// docs/app.md#coworkers). It has no state of its own: the folder is the
// settings', the list is resolved afresh each time.
type Coworkers struct {
	*env
	engine   *engine
	settings *settingsStore
	model    *modelState   // its tool-name rule decides what resolves
	reloads  *reloads      // watches the folder in use
	servers  *serversFile  // an agent import's servers (agentimport.go)
	imports  *agentImports // the agent imports previewed
	// quickWait is how long a list waits for the providers' check before
	// it answers with the coworkers as starting (coworkers_starting.go).
	quickWait time.Duration
}

// CoworkerList is the bundles folder as loaded: the coworkers that work and
// the bundles that do not, each with its error and the fix (docs/bundles.md).
type CoworkerList struct {
	Dir       string         `json:"dir"`
	Coworkers []CoworkerInfo `json:"coworkers"`
	Broken    []BrokenBundle `json:"broken"`
	Error     string         `json:"error"` // the folder itself cannot be read
	// Hint is set when Dir is a coworker itself, or when a folder picked
	// with ChooseCoworkersDir or given to SetCoworkersDir was one and was
	// not used (Dir is then the folder still in use); nil otherwise.
	Hint *FolderHint `json:"hint"`
}

// CoworkerInfo is one bundle that loaded and resolved.
type CoworkerInfo struct {
	ID          string             `json:"id"`
	Name        string             `json:"name"`
	Description string             `json:"description"`
	Version     string             `json:"version"`
	Dir         string             `json:"dir"`
	Tools       []ResolvedToolInfo `json:"tools"` // as resolved, in tools.json order
	// LeftOut are the tools of whole providers the model's tool-name rule
	// refuses, each with its warning (docs/bundles.md).
	LeftOut []LeftOutInfo `json:"left_out"`
	// Extensions are the installed extensions its tools come from, in
	// tools order (docs/app.md#coworkers); empty when none.
	Extensions []ExtensionUse `json:"extensions"`
	// Starting is set while its providers are still starting (Tools is
	// then empty); the resolved list follows as EventCoworkersChanged
	// (docs/app.md#starting). StartBound is the longest start bound of
	// its MCP providers in seconds (0: it names none).
	Starting   bool `json:"starting"`
	StartBound int  `json:"start_bound"`
}

// BrokenBundle is a bundle that did not load (ID and Name empty, File,
// Line and Col where the error is) or did not resolve (ID and Name set,
// File is its tools.json, Message the resolver's error, as `openworker
// check` reports it).
type BrokenBundle struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Dir     string `json:"dir"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
	// Provider is the MCP provider that did not start or list its tools
	// ("" for any other failure).
	Provider string `json:"provider"`
}

// Coworkers loads the bundles folder afresh and resolves every bundle's
// tools with harness.Runtime.Check (cached by bundle digest) under the
// tool-name rule of the model provider new chats use, so a bundle that
// `openworker check --provider` reports broken is listed as broken here
// and a chat opens with the tools listed. When the check takes longer
// than quickWait (an MCP provider starts slowly), the coworkers come back
// as starting and the resolved list follows as EventCoworkersChanged
// (docs/app.md#starting).
func (c *Coworkers) Coworkers() (CoworkerList, error) {
	return c.list(c.settings.coworkersDir()), nil
}

// list loads dir and resolves its bundles with the runtime new
// chats use.
func (c *Coworkers) list(dir string) CoworkerList {
	rt, rule := c.engine.runtime(), c.model.current().nameRule(c.settings.get().Provider)
	if h := bundleFolderHint(dir); h != nil { // not "…/coworker/coworker/manifest.md is missing"
		return CoworkerList{Dir: dir, Coworkers: []CoworkerInfo{}, Broken: []BrokenBundle{}, Hint: h}
	}
	var l CoworkerList
	if rt == nil {
		l = checkedList(c.base, nil, dir, rule, nil)
	} else {
		l = c.listAsync(rt, dir, rule)
	}
	sort.Slice(l.Coworkers, func(i, j int) bool { return l.Coworkers[i].Name < l.Coworkers[j].Name })
	return l
}

// relist resolves the coworkers of dir and sends them as
// EventCoworkersChanged, in the background: after a change that may
// resolve them differently (another folder, servers file or extension).
func (c *Coworkers) relist(dir string) {
	go func() { c.emit.Emit(EventCoworkersChanged, c.list(dir)) }()
}

// SetCoworkersDir makes dir the bundles folder, saves that choice, and
// returns the new list. Chats already open keep their coworker. A dir
// that is a coworker itself (FolderHint) is not used: the list of the
// folder in use comes back with Hint set.
func (c *Coworkers) SetCoworkersDir(dir string) (CoworkerList, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return CoworkerList{}, err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return CoworkerList{}, fmt.Errorf("%s is not a folder", abs)
	}
	if h := bundleFolderHint(abs); h != nil {
		l, _ := c.Coworkers()
		l.Hint = h
		return l, nil
	}
	if _, _, err := c.settings.save(func(s Settings) (Settings, error) { s.CoworkersDir = abs; return s, nil }); err != nil {
		return CoworkerList{}, err
	}
	c.reloads.rewatchCoworkers()
	c.purgeTrash(abs)
	l := c.list(abs)
	c.emit.Emit(EventCoworkersChanged, l)
	return l, nil
}

// ChooseCoworkersDir asks for a folder with the native picker and uses it;
// when the person cancels, the list is unchanged.
func (c *Coworkers) ChooseCoworkersDir() (CoworkerList, error) {
	if c.dialogs == nil {
		return CoworkerList{}, errors.New("no folder picker is available")
	}
	dir, err := c.dialogs.ChooseDirectory("Choose the coworkers folder", c.settings.coworkersDir())
	if err != nil {
		return CoworkerList{}, err
	}
	if dir == "" {
		return c.Coworkers()
	}
	return c.SetCoworkersDir(dir)
}
