package agentimport

import (
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
)

// Kind is the kind of a source an import reads (docs/import-agents.md).
type Kind string

// The kinds of sources Preview reads.
const (
	// KindClaudeAgent is a Claude Code subagent: Markdown with front
	// matter name, description, tools and model (.claude/agents/*.md).
	KindClaudeAgent Kind = "claude-code-agent"
	// KindVSCodeAgent is a VS Code / GitHub Copilot custom agent
	// (*.agent.md).
	KindVSCodeAgent Kind = "vscode-agent"
	// KindVSCodeChatMode is a VS Code chat mode (*.chatmode.md).
	KindVSCodeChatMode Kind = "vscode-chatmode"
	// KindGooseRecipe is a Goose recipe (YAML or JSON: title,
	// description, instructions, prompt, extensions, parameters).
	KindGooseRecipe Kind = "goose-recipe"
	// KindSkill is an Agent Skill: a folder holding SKILL.md, or a .zip
	// of one.
	KindSkill Kind = "agent-skill"
	// KindClaudePlugin is a Claude Code plugin: a folder holding
	// .claude-plugin/plugin.json, with agents/, skills/, commands/ and
	// .mcp.json.
	KindClaudePlugin Kind = "claude-code-plugin"
	// KindExport is a coworker exported by OpenWorker (Export): a .zip.
	KindExport Kind = "openworker-export"
)

// Catalog is what tool names are mapped against: the tools and
// providers of the OpenWorker an import is for (its registry). The
// servers file's entries need not be in it: Preview reads them from
// Options.Servers.
type Catalog interface {
	// Provider reports whether namespace is a provider of the registry
	// (native tools or an MCP provider), and the qualified names of its
	// tools when they are known without starting it (native tools); nil
	// tools with known true means "listed when it starts" (MCP).
	Provider(namespace string) (tools []string, known bool)
}

// Options says where an import goes. Preview keeps a copy.
type Options struct {
	// Coworkers is the coworker bundles folder written into (created
	// when missing). Required.
	Coworkers string
	// Into is the id of an existing coworker of Coworkers: skills go into
	// it instead of into new coworkers (other kinds still make new
	// coworkers). "" for none.
	Into string
	// Catalog maps tool names; nil maps them by their form only, each
	// marked not verified.
	Catalog Catalog
	// Servers is the servers file MCP servers that sources bring are
	// added to (a Claude Code plugin's .mcp.json, a Goose recipe's
	// extensions, an export's servers); nil for none: such servers are
	// then not added, and tools of theirs are not mapped.
	Servers *ServersTarget
}

// ServersTarget is the servers file an import adds servers to, through
// the servers import (docs/servers.md#import): the arguments of
// servers.ImportKept and servers.PlanImportInto.
type ServersTarget struct {
	// Current is the servers file in use ("" for none); Dest is the
	// product servers.json written (Current itself when it is one).
	Current, Dest string
	// Taken are the namespaces the registry holds before any servers
	// file (servers.TakenNamespaces), with what holds each.
	Taken map[string]string
	// Secrets keeps the literal secrets of the added servers' env and
	// headers (servers.ImportItem.Secrets) in a keychain, ${input:ID}
	// written in their place (servers.ImportPlan.WriteMoving,
	// docs/servers.md#secrets-move-to-the-keychain); nil writes them as
	// they are. The app passes servers.SetInput when the OS keychain
	// answers.
	Secrets servers.KeepSecret `json:"-"`
}

// Plan is what an import would do; nothing is written until Apply. Its
// JSON form is what the CLI's import prints as a preview
// and the app's preview shows.
type Plan struct {
	// Coworkers are the coworkers made (and, with Options.Into, the one
	// skills go into), in source order.
	Coworkers []*Coworker `json:"coworkers"`
	// Servers is the servers import of the servers the sources bring; nil
	// when they bring none (or Options.Servers is nil: see Sources).
	Servers *servers.ImportPlan `json:"servers,omitempty"`
	// Sources are the paths read, each with its kind and what about it
	// is worth a line (a file that is no agent of a known kind, a slash
	// command left out).
	Sources []Source `json:"sources"`
	// Problems refuse the import: while there is one, Apply writes
	// nothing. Each names the file (and line) and the fix.
	Problems []string `json:"problems"`

	opts Options
}

// Coworker is one coworker an import makes (or, when Into, the existing
// one skills go into).
type Coworker struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	// Into is true for the existing coworker Options.Into: only Skills
	// are added to it.
	Into   bool   `json:"into,omitempty"`
	Source string `json:"source"` // the file or folder it comes from
	Kind   Kind   `json:"kind"`
	// Tools are the qualified names tools.json selects: the mapped ones.
	Tools []string `json:"tools"`
	// Mapped says where each tool name of the source went.
	Mapped []Mapping `json:"mapped"`
	// Unmapped are the tool names of the source that are not granted,
	// each with why.
	Unmapped []Unmapped `json:"unmapped"`
	// Skills are the skill folder names it holds from this import.
	Skills []string `json:"skills"`
	// Model is front matter "model" (docs/bundles.md#model), "" for none.
	Model string `json:"model,omitempty"`
	// Instructions are the body of its manifest.md.
	Instructions string `json:"instructions,omitempty"`
	// Ignored are the source's fields that do not carry over, with why.
	Ignored []Ignored `json:"ignored"`
	// Notes say what was changed on the way and why.
	Notes []string `json:"notes"`

	draft  bundle.Draft
	skills []skillSource
	export *exportSource // for KindExport: the bundle in the zip
}

// Mapping is where one tool name of a source went.
type Mapping struct {
	From string   `json:"from"` // as the source writes it
	To   []string `json:"to"`   // qualified OpenWorker names
	// Verified is true when the registry lists each name of To; false
	// when only its provider is known (an MCP provider lists its tools
	// when it starts: a check of the coworker resolves them) or no registry
	// was given.
	Verified bool   `json:"verified"`
	Note     string `json:"note,omitempty"`
}

// Unmapped is a tool name of a source that is not granted.
type Unmapped struct {
	Tool   string `json:"tool"`
	Reason string `json:"reason"`
}

// Ignored is a field of a source that does not carry over.
type Ignored struct {
	Field  string `json:"field"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// Source is one path read.
type Source struct {
	Path string `json:"path"`
	// Kind is "" for a path that is no source of a known kind (Notes
	// then says what it is taken for).
	Kind  Kind     `json:"kind"`
	Notes []string `json:"notes"`
}

// Refused reports whether Apply would refuse the plan (Problems).
func (p *Plan) Refused() bool { return len(p.Problems) > 0 }
