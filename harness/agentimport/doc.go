// Package agentimport brings agents people already have into OpenWorker
// as coworker bundles, and exports a coworker to share
// (docs/import-agents.md).
//
// It reads, as sources: Claude Code subagents (.claude/agents/*.md),
// VS Code / GitHub Copilot custom agents (*.agent.md) and chat modes
// (*.chatmode.md), Goose recipes (YAML or JSON), Agent Skills (a folder
// holding SKILL.md, or a .zip of one), Claude Code plugins (a folder with
// .claude-plugin/plugin.json) and coworkers exported by Export (a .zip).
//
// An import is two calls. Preview reads the sources and returns a Plan:
// per coworker made, its id, name, description, the tools its source
// names mapped to the registry's qualified names (Mapping), those that do
// not map with why (Unmapped: nothing unmapped is granted), its skills,
// the fields that do not carry over (Ignored); the MCP servers the
// sources bring, planned through the servers import (servers.ImportPlan);
// a note for each path that is no source of a known kind; and the
// problems that refuse the import. Nothing is written, and source files
// are never modified. Apply writes the plan all or nothing: coworkers are
// built in a hidden folder of the coworkers folder and renamed into
// place, skills attached with bundle.AttachSkill, the servers file
// written last; a failure undoes what was done.
//
//	plan, err := agentimport.Preview([]string{".claude/agents/reviewer.md"}, &agentimport.Options{
//		Coworkers: coworkersDir,
//		Catalog:   agentimport.RegistryCatalog(reg),
//		Servers:   &agentimport.ServersTarget{Current: serversFile, Dest: serversFile, Taken: servers.TakenNamespaces(reg)},
//	})
//	// show plan; then
//	res, err := agentimport.Apply(plan)
//
// Export writes one coworker and the servers entries it needs to a .zip,
// every literal secret replaced by an input (servers.MarshalShared).
//
// The package keeps no state; a Plan is used by one goroutine.
package agentimport
