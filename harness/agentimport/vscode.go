package agentimport

import (
	"path/filepath"
	"strings"
)

// VS Code / GitHub Copilot custom agents (*.agent.md: name, description,
// tools, model, ...) and chat modes (*.chatmode.md: description, tools,
// model), code.visualstudio.com/docs/copilot/customization/custom-agents.
// A tool is a built-in tool ("readFile"), a tool set ("edit", "search"),
// a tool of one ("edit/editFiles"), an MCP server's tool ("github/
// create_issue"), every tool of a server ("github/*", or its bare name).

var vscodeKnown = map[string]bool{"name": true, "description": true, "tools": true, "model": true}

var vscodeIgnored = map[string]string{
	"target":                   "which host runs the agent (vscode, github-copilot); OpenWorker runs it",
	"handoffs":                 "VS Code's buttons that hand a chat to another agent; a coworker has none",
	"argument-hint":            "a hint in VS Code's chat input",
	"mcp-servers":              "the servers GitHub's coding agent starts for this agent; add them to the servers file, then their tools",
	"infer":                    "whether VS Code may pick the agent by itself; coworkers are chosen by people",
	"disable-model-invocation": "whether VS Code may pick the agent by itself; coworkers are chosen by people",
	"user-invokable":           "whether the agent is in VS Code's agent picker",
	"user-invocable":           "whether the agent is in VS Code's agent picker",
	"metadata":                 "labels for GitHub's agent directory",
	"version":                  "a version of the file for its authors",
}

// vscodeFiles maps VS Code's file tools and tool sets (and GitHub's
// coding agent aliases read, edit, search) to the files provider.
var vscodeFiles = map[string][]string{
	"readFile": {filesRead}, "read/readFile": {filesRead}, "read": {filesRead},
	"editFiles": {filesEdit, filesWrite}, "edit/editFiles": {filesEdit, filesWrite},
	"createFile": {filesWrite}, "edit/createFile": {filesWrite},
	"createDirectory": {filesMkdir}, "edit/createDirectory": {filesMkdir},
	"edit":          {filesEdit, filesWrite, filesMkdir},
	"listDirectory": {filesList}, "search/listDirectory": {filesList}, "read/listDirectory": {filesList},
	"fileSearch": {filesSearch}, "search/fileSearch": {filesSearch},
	"textSearch": {filesSearch}, "search/textSearch": {filesSearch},
	"search": {filesSearch, filesList},
}

const (
	vscodeTerminal = "it runs commands in VS Code's terminal; OpenWorker has no shell tool: a coworker reaches programs only through MCP providers"
	vscodeEditor   = "it works on VS Code's editor or workspace (problems, changes, tests, tasks, extensions), which a coworker does not have"
	vscodeWeb      = "OpenWorker has no built-in web tool: add a fetch MCP server to the servers file, then its tool"
)

// vscodeUnmapped says why VS Code's other built-in tools and tool sets
// have no counterpart (by name, or by tool set for "set/tool").
var vscodeUnmapped = map[string]string{
	"runCommands": vscodeTerminal, "runInTerminal": vscodeTerminal, "terminalCommand": vscodeTerminal, "terminalLastCommand": vscodeTerminal,
	"terminalSelection": vscodeTerminal, "getTerminalOutput": vscodeTerminal, "execute": vscodeTerminal, "shell": vscodeTerminal, "runTasks": vscodeTerminal,
	"createAndRunTask": vscodeTerminal, "runTask": vscodeTerminal, "runTests": vscodeEditor, "testFailure": vscodeEditor, "findTestFiles": vscodeEditor,
	"problems": vscodeEditor, "changes": vscodeEditor, "usages": vscodeEditor, "searchResults": vscodeEditor, "vscodeAPI": vscodeEditor,
	"extensions": vscodeEditor, "new": vscodeEditor, "newWorkspace": vscodeEditor, "openSimpleBrowser": vscodeEditor, "runNotebooks": vscodeEditor,
	"editNotebook": vscodeEditor, "getProjectSetupInfo": vscodeEditor, "installExtension": vscodeEditor, "runCommand": vscodeEditor,
	"vscode": vscodeEditor, "selection": vscodeEditor, "browser": vscodeEditor,
	"codebase": "VS Code's semantic search of the workspace has no counterpart; files.files_search finds files by name and text",
	"fetch":    vscodeWeb, "web": vscodeWeb, "web_fetch": vscodeWeb, "web_search": vscodeWeb, "githubRepo": "it searches GitHub repositories through VS Code; add GitHub's MCP server to the servers file, then its tools",
	"think": "VS Code's thinking tool has no counterpart; the model thinks without a tool", "todos": "VS Code's to-do list has no counterpart", "todo": "VS Code's to-do list has no counterpart",
	"runSubagent": "it starts VS Code subagents; a coworker does not start other coworkers", "agent": "it starts VS Code subagents; a coworker does not start other coworkers",
	"custom-agent": "it starts other agents; a coworker does not start other coworkers",
}

// vscodeSets are VS Code's tool sets: "set/tool" names a built-in tool.
var vscodeSets = map[string]bool{"edit": true, "search": true, "read": true, "execute": true, "web": true, "vscode": true, "agent": true, "todo": true, "browser": true}

// readVSCode reads a custom agent (agent true) or a chat mode whose
// front matter is doc.
func readVSCode(path string, md markdown, doc *yamlDoc, agent bool) (*agentSource, error) {
	a := &agentSource{kind: KindVSCodeChatMode, path: path, instructions: md.body}
	suffix := ".chatmode.md"
	what := "a VS Code chat mode"
	if agent {
		a.kind, suffix, what = KindVSCodeAgent, ".agent.md", "a VS Code custom agent"
	}
	var err error
	if a.name, err = doc.str("name"); err != nil {
		return nil, err
	}
	if a.name == "" {
		a.name = strings.TrimSuffix(filepath.Base(path), suffix)
	}
	if a.description, err = doc.str("description"); err != nil {
		return nil, err
	}
	if f := doc.field("model"); f != nil {
		if model, err := doc.str("model"); err == nil {
			a.takeModel("model", f.line, model)
		} else {
			a.ignored = append(a.ignored, Ignored{Field: "model", Line: f.line, Reason: "a list of models to try in turn; the coworker uses the model of the settings"})
		}
	}
	tools, named, err := toolList(doc, "tools")
	if err != nil {
		return nil, err
	}
	a.ignored = append(a.ignored, doc.ignore(vscodeKnown, vscodeIgnored, what)...)
	a.mapTools = func(m *mapper, c *Coworker) {
		if !named {
			c.Unmapped = append(c.Unmapped, everyTool("VS Code"))
			return
		}
		for _, t := range tools {
			c.add(t, m.vscodeTool(t))
		}
	}
	return a, nil
}

// vscodeTool maps one tool name of a VS Code agent or chat mode.
func (m *mapper) vscodeTool(name string) result {
	name = strings.TrimPrefix(name, "#")
	if names, ok := vscodeFiles[name]; ok {
		r := m.files(names...)
		if set := vscodeSets[name]; set && r.reason == "" {
			r.note = strings.TrimPrefix(r.note+"; the other tools of VS Code's tool set are not carried over", "; ")
		}
		return r
	}
	if why, ok := vscodeUnmapped[name]; ok {
		return result{reason: why}
	}
	server, tool, hasSlash := strings.Cut(name, "/")
	if hasSlash && vscodeSets[server] {
		if why, ok := vscodeUnmapped[tool]; ok {
			return result{reason: why}
		}
		return unmapped("%q is a VS Code built-in tool (tool set %q) with no counterpart in OpenWorker", name, server)
	}
	if hasSlash {
		return m.serverTool(server, tool)
	}
	// A bare name that is no built-in: a server (every tool of it) when
	// one of that name is known, else a tool whose server is not named.
	if ns := m.namespaceOf(name); ns != "" {
		return m.wholeServer(ns)
	}
	if why := m.notAdded[name]; why != "" {
		return unmapped("its server %q is not added to the servers file: %s", name, why)
	}
	return unmapped("%q is neither a VS Code built-in tool OpenWorker knows nor a server of this OpenWorker or its servers file; if it is an MCP server's tool, name it server/%s", name, name)
}

// vscodeKindOf tells a VS Code customization file by its name: an agent,
// a chat mode, or another kind (prompt, instructions) with what it is.
func vscodeKindOf(base string) (k Kind, other string) {
	lower := strings.ToLower(base)
	switch {
	case strings.HasSuffix(lower, ".agent.md"):
		return KindVSCodeAgent, ""
	case strings.HasSuffix(lower, ".chatmode.md"):
		return KindVSCodeChatMode, ""
	case strings.HasSuffix(lower, ".prompt.md"):
		return "", "a VS Code prompt file (a reusable request, not an agent)"
	case strings.HasSuffix(lower, ".instructions.md"):
		return "", "a VS Code instructions file (rules added to every chat, not an agent)"
	}
	return "", ""
}
