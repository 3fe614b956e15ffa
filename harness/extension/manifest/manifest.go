// Package manifest reads the manifest.json of an MCP extension (.mcpb,
// formerly .dxt) and answers what the install dialog shows, whether the
// extension can run here, whether the person's user_config values are
// acceptable, and which command starts its server. It works on the bytes of
// manifest.json only (and, for a few checks, on an unpacked folder); the zip,
// the signature and the store are elsewhere (harness/extension/archive,
// harness/extension).
//
//	m, err := manifest.Parse(data, "manifest.json") // *manifest.Error lists every problem at L:C
//	problems := m.Problems(manifest.Env{GOOS: runtime.GOOS, Dir: dir, Runtimes: found})
//	values, err := m.CheckValues(entered, dirs)     // *manifest.ValuesError
//	l, err := m.Launch(manifest.LaunchInput{GOOS: runtime.GOOS, Dir: dir, Dirs: dirs, Values: values})
//
// The rules (supported versions, what each field does, substitution, what is
// refused) are in docs/extensions-manifest.md.
package manifest

// Manifest is a parsed, validated manifest.json. Only the fields OpenWorker
// uses are kept; screenshots, localization and _meta are accepted (the
// schema allows them) and ignored. Optional strings are "" when absent.
type Manifest struct {
	// Version is the manifest version the file declared ("0.1" … "0.4"),
	// from manifest_version or the legacy dxt_version.
	ManifestVersion string

	Name            string // machine name, for example "filesystem"
	Version         string // the extension's own version, for example "1.2.0"
	DisplayName     string
	Description     string
	LongDescription string // Markdown
	Author          Author
	Homepage        string      // URL
	Repository      *Repository // nil when absent
	Documentation   string      // URL
	Support         string      // URL
	Icon            string      // path inside the bundle or an https URL
	Icons           []Icon      // manifest 0.3+
	Server          Server
	Tools           []Tool
	ToolsGenerated  bool // the server may list more tools than Tools
	Prompts         []Prompt
	// PromptsGenerated says the server may list more prompts than Prompts.
	PromptsGenerated bool
	// UserConfig is the user_config form, in the order of the file.
	UserConfig      []Field
	Compatibility   Compatibility
	PrivacyPolicies []string // URLs
	Keywords        []string
	License         string
}

// Author is who made the extension; Name is always set.
type Author struct {
	Name  string
	Email string
	URL   string
}

// Repository is where the extension's source is.
type Repository struct {
	Type string // "git"
	URL  string
}

// Icon is one entry of icons: a file in the bundle, its size ("16x16") and
// an optional theme ("light", "dark").
type Icon struct {
	Src   string
	Size  string
	Theme string
}

// Server types (server.type).
const (
	TypeNode   = "node"
	TypePython = "python"
	TypeBinary = "binary"
	TypeUV     = "uv" // manifest 0.4
)

// Server says how the extension's MCP server is started.
type Server struct {
	Type       string // one of the Type* constants
	EntryPoint string // path inside the bundle, with "/" separators
	// MCPConfig is nil only for a Manifest built by hand: the schema
	// requires mcp_config; Launch then derives the command from Type and
	// EntryPoint.
	MCPConfig *MCPConfig
}

// MCPConfig is server.mcp_config: the command line before substitution.
type MCPConfig struct {
	Command string
	Args    []string
	Env     map[string]string
	// PlatformOverrides is keyed by Node's process.platform ("darwin",
	// "win32", "linux", …).
	PlatformOverrides map[string]Override
}

// Override is one platform_overrides entry. As in Claude Desktop, a field
// that is absent keeps the base value and one that is present replaces it
// whole: Command "" keeps the base command, Args nil keeps the base args (an
// empty, non-nil Args clears them), Env nil keeps the base env.
type Override struct {
	Command string
	Args    []string
	Env     map[string]string
}

// Tool is a tool the manifest declares; the server's tools/list is what
// counts once it runs.
type Tool struct {
	Name        string
	Description string
}

// Prompt is a prompt the manifest declares. Text may contain
// ${arguments.NAME} placeholders for the names in Arguments.
type Prompt struct {
	Name        string
	Description string
	Arguments   []string
	Text        string
}

// Field types (user_config.*.type).
const (
	FieldString    = "string"
	FieldNumber    = "number"
	FieldBoolean   = "boolean"
	FieldDirectory = "directory"
	FieldFile      = "file"
)

// Field is one user_config entry: a form field of the install dialog.
type Field struct {
	Key         string // the user_config key; ${user_config.KEY} in mcp_config
	Type        string // one of the Field* constants
	Title       string
	Description string
	Required    bool
	// Default is nil, a string, a float64, a bool or a []string, as written
	// (before substitution; see Manifest.Defaults).
	Default   any
	Multiple  bool // the value is a list (for directory and file fields, and strings)
	Sensitive bool // the value goes to the OS keychain, never to a file
	Min, Max  *float64
	Line, Col int // where the key is in manifest.json
}

// Compatibility is what the extension says it needs. Empty Platforms means
// every platform.
type Compatibility struct {
	Platforms []string // "darwin", "win32", "linux"
	Runtimes  Runtimes
	// ClaudeDesktop is the Claude Desktop version range; OpenWorker shows
	// it and does not check it.
	ClaudeDesktop string
}

// Runtimes are semver ranges as the spec writes them (">=18.0.0",
// ">=3.8,<4.0"), "" when absent. They were checked to parse.
type Runtimes struct {
	Node   string
	Python string
}

// Title is what the install dialog calls the extension: DisplayName, or
// Name when there is none.
func (m *Manifest) Title() string {
	if m.DisplayName != "" {
		return m.DisplayName
	}
	return m.Name
}

// Field returns the user_config field with key, or nil.
func (m *Manifest) Field(key string) *Field {
	for i := range m.UserConfig {
		if m.UserConfig[i].Key == key {
			return &m.UserConfig[i]
		}
	}
	return nil
}
