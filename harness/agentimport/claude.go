package agentimport

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Claude Code subagents (code.claude.com/docs/en/sub-agents): Markdown
// with front matter name, description, tools (a comma-separated string
// or a list; none means every tool) and model; the body is the system
// prompt.

// claudeKnown are the subagent fields that carry over.
var claudeKnown = map[string]bool{"name": true, "description": true, "tools": true, "model": true}

// claudeIgnored says why the other fields of Claude Code's do not.
var claudeIgnored = map[string]string{
	"color":           "a color of Claude Code's interface",
	"disallowedTools": "OpenWorker grants only the tools a coworker names, so there is nothing to take away",
	"permissionMode":  "approvals are asked in OpenWorker by its own consent rules (docs/consent.md)",
	"hooks":           "OpenWorker runs no hooks",
	"skills":          "skills are attached to a coworker: import the skill folders, into this coworker or on their own",
	"mcpServers":      "add MCP servers to the servers file (its import reads other clients' files)",
	"memory":          "Claude Code's memory files; OpenWorker has none",
}

// claudeFiles maps Claude Code's file tools to the files provider.
var claudeFiles = map[string][]string{
	"Read": {filesRead}, "Write": {filesWrite}, "Edit": {filesEdit}, "MultiEdit": {filesEdit},
	"Grep": {filesSearch}, "Glob": {filesSearch}, "LS": {filesList},
}

const shellReason = "it runs shell commands; OpenWorker has no shell tool: a coworker reaches programs only through MCP providers"

// claudeUnmapped says why Claude Code's other tools have no counterpart.
var claudeUnmapped = map[string]string{
	"Bash":                 shellReason,
	"BashOutput":           shellReason,
	"KillBash":             shellReason,
	"KillShell":            shellReason,
	"WebFetch":             "OpenWorker has no built-in web tool: add a fetch MCP server to the servers file, then its tool",
	"WebSearch":            "OpenWorker has no built-in web search: add a search MCP server to the servers file, then its tool",
	"Task":                 "it starts Claude Code subagents; a coworker does not start other coworkers",
	"Agent":                "it starts Claude Code subagents; a coworker does not start other coworkers",
	"TodoWrite":            "Claude Code's own to-do list; OpenWorker has none",
	"TodoRead":             "Claude Code's own to-do list; OpenWorker has none",
	"NotebookRead":         "Jupyter notebooks have no counterpart in OpenWorker",
	"NotebookEdit":         "Jupyter notebooks have no counterpart in OpenWorker",
	"ExitPlanMode":         "Claude Code's plan mode has no counterpart in OpenWorker",
	"SlashCommand":         "OpenWorker has no slash commands",
	"Skill":                "a coworker's skills are in its prompt (docs/bundles.md), not behind a tool",
	"ListMcpResourcesTool": "MCP resources are not read as tools in OpenWorker",
	"ReadMcpResourceTool":  "MCP resources are not read as tools in OpenWorker",
}

// looksClaudeAgent reports whether front matter is a Claude Code
// subagent's: a name and a description.
func looksClaudeAgent(doc *yamlDoc) bool { return doc.has("name") && doc.has("description") }

// readClaudeAgent reads a subagent file whose front matter is doc.
func readClaudeAgent(path string, md markdown, doc *yamlDoc) (*agentSource, error) {
	a := &agentSource{kind: KindClaudeAgent, path: path, instructions: md.body}
	var err error
	if a.name, err = doc.str("name"); err != nil {
		return nil, err
	}
	if a.description, err = doc.str("description"); err != nil {
		return nil, err
	}
	if a.name == "" {
		a.name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	}
	if model, err := doc.str("model"); err != nil {
		return nil, err
	} else if f := doc.field("model"); f != nil {
		a.takeModel("model", f.line, model)
	}
	tools, named, err := toolList(doc, "tools")
	if err != nil {
		return nil, err
	}
	a.ignored = append(a.ignored, doc.ignore(claudeKnown, claudeIgnored, "a Claude Code subagent")...)
	a.mapTools = func(m *mapper, c *Coworker) {
		if !named {
			c.Unmapped = append(c.Unmapped, everyTool("Claude Code"))
			return
		}
		for _, t := range tools {
			c.add(t, m.claudeTool(t))
		}
	}
	return a, nil
}

// toolList reads a tools field: a list, or a comma-separated string.
// named is false when the field is missing.
func toolList(doc *yamlDoc, key string) (tools []string, named bool, err error) {
	f := doc.field(key)
	if f == nil {
		return nil, false, nil
	}
	var list []string
	if _, err := doc.decode(key, &list); err == nil {
		return trimAll(list), true, nil
	}
	s, err := doc.str(key)
	if err != nil {
		return nil, true, fmt.Errorf("%s:%d: %s must be a list of tool names or one comma-separated line", doc.path, f.line, key)
	}
	return trimAll(strings.Split(s, ",")), true, nil
}

func trimAll(list []string) []string {
	out := []string{}
	for _, s := range list {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// claudeTool maps one tool name of a Claude Code subagent.
func (m *mapper) claudeTool(name string) result {
	base, rule, hasRule := strings.Cut(name, "(")
	if rest, ok := strings.CutPrefix(base, "mcp__"); ok {
		server, tool, _ := strings.Cut(rest, "__")
		return m.serverTool(m.pluginServer(server), tool)
	}
	if names, ok := claudeFiles[base]; ok {
		r := m.files(names...)
		if hasRule && r.reason == "" {
			note := "its rule (" + rule + " is not carried over: the files provider works in the coworker's folder"
			if r.note != "" {
				note += "; " + r.note
			}
			r.note = note
		}
		return r
	}
	if why, ok := claudeUnmapped[base]; ok {
		return result{reason: why}
	}
	return unmapped("%q is not a Claude Code tool OpenWorker knows", name)
}

// pluginServer is the server name in a plugin's tool name: Claude Code
// calls the tools of a plugin's server "mcp__plugin_<plugin>_<server>__…".
func (m *mapper) pluginServer(server string) string {
	if _, ok := m.byName[server]; ok {
		return server
	}
	for _, p := range m.plugins {
		if s, ok := strings.CutPrefix(server, "plugin_"+p+"_"); ok {
			return s
		}
	}
	return server
}
