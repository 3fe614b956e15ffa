package agentimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/servers"
)

// Claude Code plugins (code.claude.com/docs/en/plugins-reference): a
// folder with .claude-plugin/plugin.json (name, description, and paths
// that add to the default folders agents/, commands/, skills/), hooks,
// and MCP servers in .mcp.json (with or without its "mcpServers"
// wrapper) or in plugin.json's "mcpServers". Agents become coworkers,
// skills are attached (to Options.Into's coworker, else to a coworker
// named after the plugin), servers go through the servers import;
// commands and hooks have no counterpart. A part that cannot be read (an
// agent whose front matter is not YAML, a skill the loader refuses) is
// left out with its error; the others are imported.

// pluginManifest is plugin.json, as far as an import reads it.
type pluginManifest struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Agents      json.RawMessage `json:"agents"`
	Skills      json.RawMessage `json:"skills"`
	Commands    json.RawMessage `json:"commands"`
	Hooks       json.RawMessage `json:"hooks"`
	MCPServers  json.RawMessage `json:"mcpServers"`
}

// pluginKnown are plugin.json's keys an import reads or that describe
// the plugin only.
var pluginKnown = map[string]bool{"name": true, "description": true, "agents": true, "skills": true, "commands": true, "hooks": true, "mcpServers": true,
	"version": true, "author": true, "homepage": true, "repository": true, "license": true, "keywords": true, "$schema": true}

// plugin is a plugin as read.
type plugin struct {
	name, description string
	agents            []*agentSource
	skills            []skillSource
	skillFields       map[string][2]string // name → name, description of its SKILL.md
	servers           *servers.Config
	// notes say what is left out and why: a command, hooks, a part that
	// cannot be read (the plugin's other parts are imported).
	notes []string
}

// isPlugin reports whether dir is a Claude Code plugin.
func isPlugin(dir string) bool {
	st, err := os.Stat(filepath.Join(dir, ".claude-plugin", "plugin.json"))
	return err == nil && st.Mode().IsRegular()
}

// readPlugin reads the plugin in dir.
func readPlugin(dir string) (*plugin, error) {
	mpath := filepath.Join(dir, ".claude-plugin", "plugin.json")
	man, unknown, err := readPluginManifest(mpath)
	if err != nil {
		return nil, err
	}
	p := &plugin{name: man.Name, description: man.Description, skillFields: map[string][2]string{}}
	if p.name == "" {
		p.name = filepath.Base(dir)
	}
	for _, k := range unknown {
		p.notes = append(p.notes, fmt.Sprintf("%s: %q is ignored: not a part of a plugin OpenWorker imports", mpath, k))
	}
	if err := p.readAgents(dir, mpath, man.Agents); err != nil {
		return nil, err
	}
	if err := p.readSkills(dir, mpath, man.Skills); err != nil {
		return nil, err
	}
	if err := p.noteLeftOut(dir, mpath, man); err != nil {
		return nil, err
	}
	// MCP servers: .mcp.json, or plugin.json's "mcpServers".
	if p.servers, err = pluginServers(dir, mpath, man.MCPServers); err != nil {
		return nil, err
	}
	return p, nil
}

// readPluginManifest reads plugin.json at mpath and the keys in it that
// are no part of a plugin OpenWorker imports, sorted.
func readPluginManifest(mpath string) (man pluginManifest, unknown []string, err error) {
	data, err := readFile(mpath)
	if err != nil {
		return man, nil, err
	}
	if err := json.Unmarshal(data, &man); err != nil {
		return man, nil, fmt.Errorf("%s: not valid JSON: %v", mpath, err)
	}
	var keys map[string]json.RawMessage
	json.Unmarshal(data, &keys)
	for k := range keys {
		if !pluginKnown[k] {
			unknown = append(unknown, k)
		}
	}
	sort.Strings(unknown)
	return man, unknown, nil
}

// readAgents reads the plugin's agents: agents/*.md and the paths extra
// (plugin.json's "agents") adds; a file that is no subagent is noted.
func (p *plugin) readAgents(dir, mpath string, extra json.RawMessage) error {
	agentFiles, err := pluginFiles(dir, "agents", extra, ".md")
	if err != nil {
		return fmt.Errorf("%s: agents: %v", mpath, err)
	}
	for _, f := range agentFiles {
		a, err := readAgentFile(f)
		switch {
		case err != nil:
			p.notes = append(p.notes, fmt.Sprintf("agent %s is left out: %v", f, err))
		case a == nil:
			p.notes = append(p.notes, fmt.Sprintf("%s is not a Claude Code subagent (no front matter with name and description); it is left out", f))
		default:
			p.agents = append(p.agents, a)
		}
	}
	return nil
}

// readSkills reads the plugin's skills: skills/<name>/SKILL.md and the
// paths extra (plugin.json's "skills") adds; a skill that does not check
// is noted.
func (p *plugin) readSkills(dir, mpath string, extra json.RawMessage) error {
	skillDirs, err := pluginSkillDirs(dir, extra)
	if err != nil {
		return fmt.Errorf("%s: skills: %v", mpath, err)
	}
	for _, sd := range skillDirs {
		name, err := checkSkill(sd)
		if err != nil {
			p.notes = append(p.notes, fmt.Sprintf("skill %s is left out: %v", sd, err))
			continue
		}
		p.skills = append(p.skills, skillSource{name: name, src: sd})
		n, d := skillFields(filepath.Join(sd, "SKILL.md"))
		p.skillFields[name] = [2]string{n, d}
	}
	return nil
}

// noteLeftOut notes the plugin's slash commands and hooks, which have no
// counterpart.
func (p *plugin) noteLeftOut(dir, mpath string, man pluginManifest) error {
	cmds, err := pluginFiles(dir, "commands", man.Commands, ".md")
	if err != nil {
		return fmt.Errorf("%s: commands: %v", mpath, err)
	}
	for _, c := range cmds {
		p.notes = append(p.notes, fmt.Sprintf("slash command /%s (%s) is left out: OpenWorker has no slash commands", strings.TrimSuffix(filepath.Base(c), ".md"), c))
	}
	if len(man.Hooks) > 0 || exists(filepath.Join(dir, "hooks", "hooks.json")) {
		p.notes = append(p.notes, "the plugin's hooks are left out: OpenWorker runs no hooks")
	}
	return nil
}

// pluginFiles lists the files with suffix in the plugin's folder def and
// in the paths extra (a string or a list of strings, each a file or a
// folder relative to the plugin), sorted, each once.
func pluginFiles(dir, def string, extra json.RawMessage, suffix string) ([]string, error) {
	paths, err := pathList(extra)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, rel := range append([]string{def}, paths...) {
		p, err := inside(dir, rel)
		if err != nil {
			return nil, err
		}
		st, err := os.Stat(p)
		switch {
		case err != nil && rel == def:
			continue
		case err != nil:
			return nil, fmt.Errorf("%s does not exist", rel)
		case st.Mode().IsRegular():
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			f := filepath.Join(p, e.Name())
			if e.Type().IsRegular() && strings.HasSuffix(e.Name(), suffix) && !strings.EqualFold(e.Name(), "README.md") && !seen[f] {
				seen[f] = true
				out = append(out, f)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// pluginSkillDirs lists the skill folders of the plugin: those under
// skills/ and under (or at) the paths extra names.
func pluginSkillDirs(dir string, extra json.RawMessage) ([]string, error) {
	paths, err := pathList(extra)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []string
	for _, rel := range append([]string{"skills"}, paths...) {
		p, err := inside(dir, rel)
		if err != nil {
			return nil, err
		}
		if exists(filepath.Join(p, "SKILL.md")) {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			if rel == "skills" {
				continue
			}
			return nil, fmt.Errorf("%s does not exist", rel)
		}
		for _, e := range entries {
			sd := filepath.Join(p, e.Name())
			if e.IsDir() && !strings.HasPrefix(e.Name(), ".") && exists(filepath.Join(sd, "SKILL.md")) && !seen[sd] {
				seen[sd] = true
				out = append(out, sd)
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

// pathList reads a plugin.json path field: a string or a list of them.
func pathList(raw json.RawMessage) ([]string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return []string{one}, nil
	}
	var list []string
	if err := json.Unmarshal(raw, &list); err != nil {
		return nil, fmt.Errorf("must be a path or a list of paths")
	}
	return list, nil
}

// inside resolves rel against the plugin folder dir; a path that leaves
// it is refused.
func inside(dir, rel string) (string, error) {
	if filepath.IsAbs(rel) {
		return "", fmt.Errorf("%s is not relative to the plugin folder", rel)
	}
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if r, err := filepath.Rel(dir, p); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%s leaves the plugin folder", rel)
	}
	return p, nil
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// pluginServers reads the plugin's MCP servers: .mcp.json (its servers
// under "mcpServers", or at its top as plugins may write them), or
// plugin.json's "mcpServers" (an object of servers, or a path to such a
// file). nil when it has none.
func pluginServers(dir, mpath string, inline json.RawMessage) (*servers.Config, error) {
	file := filepath.Join(dir, ".mcp.json")
	switch {
	case len(inline) > 0 && inline[0] == '"':
		var rel string
		json.Unmarshal(inline, &rel)
		p, err := inside(dir, rel)
		if err != nil {
			return nil, fmt.Errorf("%s: mcpServers: %v", mpath, err)
		}
		file = p
	case len(inline) > 0 && inline[0] == '{':
		return servers.ParseConfig(mpath, wrapServers(mustRead(mpath)), &servers.ConfigOptions{Format: servers.FormatClaudeCode})
	}
	if !exists(file) {
		return nil, nil
	}
	raw, err := readFile(file)
	if err != nil {
		return nil, err
	}
	cfg, err := servers.ParseConfig(file, wrapServers(raw), &servers.ConfigOptions{Format: servers.FormatClaudeCode})
	if err != nil {
		return nil, err
	}
	return cfg, nil
}

func mustRead(p string) []byte {
	b, _ := readFile(p)
	return b
}

// wrapServers puts a .mcp.json that lists its servers at its top under
// "mcpServers", on the same line so that line numbers stay those of the
// file. A file that has "mcpServers" (or is no JSON object) is returned
// as it is.
func wrapServers(data []byte) []byte {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return data
	}
	if _, ok := top["mcpServers"]; ok {
		return data
	}
	return append(append([]byte(`{"mcpServers":`), bytes.TrimSpace(data)...), '}')
}
