package app

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"sync"

	"github.com/openworker/desktop/harness/agentimport"
	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/settings"
)

// Importing agents and skills other hosts wrote (docs/app.md#import-agents,
// docs/import-agents.md): Coworkers → "Import agents or skills…"
// (ChooseAgentImport) or files and folders dropped on the window
// (EventAgentsDropped) are previewed (PreviewAgentImport: agentimport.Preview
// into the coworkers folder and the app's servers file, mapped against the
// registry) and written only when the person confirms (ApplyAgentImport),
// by the token of the preview: the page names a plan, it cannot send one.

// AgentImportPreview is a previewed import: the plan as the CLI's
// `coworker import --dry-run --json` prints it, and the token
// ApplyAgentImport takes.
type AgentImportPreview struct {
	Token string            `json:"token"`
	Plan  *agentimport.Plan `json:"plan"`
}

// AgentImportResult is what ApplyAgentImport wrote, and the coworkers
// folder as listed after it.
type AgentImportResult struct {
	Written *agentimport.Result `json:"written"`
	List    CoworkerList        `json:"list"`
}

// agentImports keeps the plans previewed, by token, until applied or
// replaced; its lock is held only to keep or take a plan. At most
// maxAgentImports are kept (the oldest go first).
type agentImports struct {
	mu     sync.Mutex
	plans  map[string]agentImportPlan
	order  []string
	applyM sync.Mutex // one apply at a time
}

// agentImportPlan is a kept plan, and the coworkers folder and the servers
// file in use when it was made.
type agentImportPlan struct {
	plan         *agentimport.Plan
	dir, current string
}

const maxAgentImports = 8

func (ai *agentImports) keep(p agentImportPlan) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	tok := hex.EncodeToString(b[:])
	ai.mu.Lock()
	defer ai.mu.Unlock()
	if ai.plans == nil {
		ai.plans = map[string]agentImportPlan{}
	}
	ai.plans[tok] = p
	ai.order = append(ai.order, tok)
	for len(ai.order) > maxAgentImports {
		delete(ai.plans, ai.order[0])
		ai.order = ai.order[1:]
	}
	return tok
}

func (ai *agentImports) take(tok string) (agentImportPlan, bool) {
	ai.mu.Lock()
	defer ai.mu.Unlock()
	p, ok := ai.plans[tok]
	delete(ai.plans, tok)
	return p, ok
}

// ChooseAgentImport asks for what to import with the native picker: kind
// "files" (agent files, recipes, .zip skills or exports; several at once)
// or "folder" (a skill, a plugin, a project or agents folder). It returns
// the paths chosen, none when the person cancels.
func (c *Coworkers) ChooseAgentImport(kind string) ([]string, error) {
	if c.dialogs == nil {
		return nil, errors.New("no file picker is available")
	}
	home, _ := os.UserHomeDir()
	var p string
	var err error
	switch kind {
	case "folder":
		p, err = c.dialogs.ChooseDirectory("Choose a skill, plugin or agents folder to import", home)
	case "files":
		if d, ok := c.dialogs.(extensionDialogs); ok {
			return d.ChooseFiles("Choose agent files, recipes or skills (.zip) to import", home)
		}
		if d, ok := c.dialogs.(anyFileDialog); ok {
			p, err = d.ChooseAnyFile("Choose an agent file, recipe or skill (.zip) to import", home)
		} else {
			p, err = c.dialogs.ChooseFile("Choose an agent file, recipe or skill (.zip) to import", home)
		}
	default:
		return nil, fmt.Errorf("unknown kind %q: use files or folder", kind)
	}
	if err != nil || p == "" {
		return []string{}, err
	}
	return []string{p}, nil
}

// PreviewAgentImport plans the import of paths into the coworkers folder
// in use, their servers into the app's servers file, their tools mapped
// against the registry (agentimport.Preview). Nothing is written. The
// error is for no paths or a servers file that cannot be read; everything
// about the sources is in the plan (its problems refuse it).
func (c *Coworkers) PreviewAgentImport(paths []string) (AgentImportPreview, error) {
	if len(paths) == 0 {
		return AgentImportPreview{}, errors.New("nothing to import: choose or drop agent files or folders")
	}
	current, dir := c.settings.get().ServersPath, c.settings.coworkersDir()
	dest, err := settings.ImportDest(current, c.paths.ConfigDir)
	if err != nil {
		return AgentImportPreview{}, err
	}
	keeper := inputsKeeper()
	plan, err := agentimport.Preview(paths, &agentimport.Options{
		Coworkers: dir,
		Catalog:   agentimport.RegistryCatalog(c.reg),
		Servers:   &agentimport.ServersTarget{Current: current, Dest: dest, Taken: servers.TakenNamespaces(c.reg), Secrets: keeper},
	})
	if err != nil {
		return AgentImportPreview{}, err
	}
	if s := plan.Servers; s != nil && keeper == nil && len(s.Secrets()) > 0 {
		s.NoKeychain = "there is no OS keychain on this computer: the secrets of these servers are written into servers.json as they are"
	}
	noteEditor(fmt.Sprintf("import %d", len(plan.Coworkers)))
	return AgentImportPreview{Token: c.imports.keep(agentImportPlan{plan: plan, dir: dir, current: current}), Plan: plan}, nil
}

// ApplyAgentImport writes the plan PreviewAgentImport returned token for
// (agentimport.Apply: all or nothing), once; a refused plan writes
// nothing. When it adds servers, settings then use the servers file
// written (as Import MCP servers… does). The coworkers folder's live
// reload shows the new coworkers; the list returned already has them.
func (c *Coworkers) ApplyAgentImport(token string) (AgentImportResult, error) {
	kept, ok := c.imports.take(token)
	if !ok {
		return AgentImportResult{}, errors.New("this preview is no longer kept (it was imported or replaced by a newer one); import again")
	}
	plan := kept.plan
	if plan.Refused() {
		_, err := agentimport.Apply(plan)
		return AgentImportResult{}, err
	}
	if dir := c.settings.coworkersDir(); dir != kept.dir {
		return AgentImportResult{}, fmt.Errorf("the coworkers folder changed since the preview (to %s); import again", dir)
	}
	c.imports.applyM.Lock()
	defer c.imports.applyM.Unlock()
	var res *agentimport.Result
	var saveErr error
	if plan.Servers == nil || plan.Servers.Added() == 0 {
		r, err := agentimport.Apply(plan)
		if err != nil {
			return AgentImportResult{}, err
		}
		res = r
	} else {
		// As Servers.ApplyImport: the servers file and the settings
		// naming it are one step of the settings file, applied before
		// the live reload of the file this write causes.
		err := c.servers.change(func() error {
			return c.settings.write(func(inUse, saved Settings) (Settings, Settings, error) {
				if inUse.ServersPath != kept.current {
					return inUse, saved, errors.New("the servers file of Settings changed since the preview; import again")
				}
				r, err := agentimport.Apply(plan)
				if err != nil {
					return inUse, saved, err
				}
				res = r
				if r.ServersFile == "" || r.ServersFile == inUse.ServersPath {
					return inUse, saved, nil
				}
				file, err := updateSettingsFile(c.paths.Settings, func(s *Settings) { s.ServersPath = r.ServersFile })
				if inUse.ServersPath = r.ServersFile; err == nil {
					saved = file
				}
				saveErr = err
				return inUse, saved, nil
			})
		})
		if err != nil {
			return AgentImportResult{}, err
		}
		if kept.current != res.ServersFile {
			c.reloads.rewatchServers()
		}
	}
	ids := make([]string, 0, len(res.Coworkers))
	for _, w := range res.Coworkers {
		ids = append(ids, w.ID)
	}
	c.log.Info("agents imported", "coworkers", ids, "servers_added", res.ServersAdded)
	l := c.list(c.settings.coworkersDir())
	c.emit.Emit(EventCoworkersChanged, l)
	out := AgentImportResult{Written: res, List: l}
	if saveErr != nil {
		return out, fmt.Errorf("the import was written and its servers are in use, but the settings could not be saved, so the next start uses the old servers file: %w", saveErr)
	}
	return out, nil
}
