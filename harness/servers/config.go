package servers

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// lookupEnv reads the environment for substitution; tests replace it.
var lookupEnv = os.LookupEnv

// homeDir is the user's home folder (${userHome}, user-level files);
// tests replace it.
var homeDir = os.UserHomeDir

// MaxServersFileBytes bounds a configuration file (1 MiB).
const MaxServersFileBytes = jsonfile.MaxSize

// Config is an MCP configuration file as read: the product's servers.json
// or another client's file, each read by its own rules (docs/servers.md).
type Config struct {
	Path    string
	Format  ConfigFormat
	Entries []ConfigEntry // in file order
	// Notices are "PATH:LINE: ..." lines about the file as a whole: the
	// top-level keys that were ignored.
	Notices []string
}

// ConfigEntry is one server of a configuration file: what it becomes, or
// why it cannot be used.
type ConfigEntry struct {
	Name      string // the server's name as written
	Line, Col int    // where the name stands
	// Server is what the entry becomes: Namespace (derived from Name when
	// Name is not a valid namespace; then Server.Name is Name),
	// Transport, values with their variables substituted, Timeout,
	// Secrets, Source "PATH:LINE". Complete only when Err is nil and
	// Disabled is false.
	Server tool.MCPServer
	// Disabled is "disabled": true: the entry is neither registered nor
	// started, and its variables are not substituted (no input is asked).
	Disabled bool
	// Notices say what was ignored or changed and why, each "PATH:LINE: ...".
	Notices []string
	// Err says why the entry cannot be used: a *jsonfile.Error naming the
	// file, line and column and the fix. The other entries are not
	// affected by it.
	Err error

	raw *rawEntry // the entry as written, for WriteServersFile; nil when it could not be read
}

// ConfigOptions changes how ReadConfig reads; the zero value detects the
// format and reads the process environment.
type ConfigOptions struct {
	// Format forces a format; "" detects it from the file's name, then its
	// content.
	Format ConfigFormat
	// Inputs answers ${input:ID} (VS Code's inputs, and the product's own
	// "inputs"): the id, the input's description and whether it is a
	// password. Each id is asked at most once per ReadConfig. Nil makes
	// every entry that needs an input fail with an error saying so.
	// KeychainInputs keeps answers in the OS keychain.
	Inputs func(ctx context.Context, id, description string, password bool) (string, error)
	// LookupEnv reads environment variables; nil is os.LookupEnv.
	LookupEnv func(string) (string, bool)
	// Context is passed to Inputs; nil is context.Background().
	Context context.Context
}

// ReadConfig reads an MCP configuration file in any supported format
// (docs/servers.md): the product's servers.json, VS Code's mcp.json,
// Claude Desktop's claude_desktop_config.json and the mcpServers files of
// Cursor, Cline, Roo Code, Windsurf, Claude Code and Amazon Q. Comments and
// trailing commas are accepted in every format.
//
// The error is only for the file as a whole: missing (errors.Is(err,
// fs.ErrNotExist)), not a regular file, over 1 MiB, malformed JSON, no
// server list in a file of unknown format (a known format without one
// names no servers: a notice). A problem of one entry, or of an input
// definition it uses, is in that entry's Err (file, line, column and the
// fix); the other entries are read as usual. Keys a format does not know,
// and keys OpenWorker does not use (autoApprove, alwaysAllow, ...), are
// ignored with a notice.
func ReadConfig(path string, opts *ConfigOptions) (*Config, error) {
	var o ConfigOptions
	if opts != nil {
		o = *opts
	}
	if o.LookupEnv == nil {
		o.LookupEnv = lookupEnv
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	data, err := jsonfile.ReadFile(path, MaxServersFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, notExistError(fmt.Sprintf("servers file %s does not exist; check the path of the servers file, or write one like {\"servers\": {}}", path))
	}
	if _, ok := jsonfile.AsError(err); ok { // it names the file already
		return nil, err
	}
	if err != nil {
		return nil, fmt.Errorf("servers file: %w", err)
	}
	return parseConfig(path, data, o)
}

// ParseConfig is ReadConfig of data already read: path names the file in
// messages, detects the format (unless opts names one) and is where
// relative folders resolve. An import that makes a file's text (a Goose
// recipe's extensions, a Claude Code plugin's .mcp.json) reads it so.
// data must be at most MaxServersFileBytes.
func ParseConfig(path string, data []byte, opts *ConfigOptions) (*Config, error) {
	var o ConfigOptions
	if opts != nil {
		o = *opts
	}
	if o.LookupEnv == nil {
		o.LookupEnv = lookupEnv
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	if len(data) > MaxServersFileBytes {
		return nil, fmt.Errorf("servers file %s is larger than %d KB", path, MaxServersFileBytes>>10)
	}
	return parseConfig(path, data, o)
}

// parseConfig is ReadConfig of data, the text of the file at path (used
// for messages, detection and relative folders); o is filled.
func parseConfig(path string, data []byte, o ConfigOptions) (*Config, error) {
	root, err := jsonfile.ParseJSONC(path, data)
	if err != nil {
		return nil, err
	}
	if err := root.Expect(jsonfile.Object); err != nil {
		return nil, err
	}
	byPath, project := detectByPath(path)
	format := o.Format
	if format == "" {
		if format, err = detectFormat(path, root, byPath); err != nil {
			return nil, err
		}
	}
	spec := specs[format]
	if spec == nil {
		_, err := ParseConfigFormat(string(format))
		return nil, err
	}
	cfg := &Config{Path: path, Format: format}
	list, err := cfg.serverList(root, spec)
	if err != nil {
		return nil, err
	}
	rd := newReader(path, spec, format, project, o)
	if format == FormatMCPServers && o.Format == "" {
		rd.clineKeys = clineKeysIn(list)
	}
	if spec.inputs {
		cfg.Notices = append(cfg.Notices, rd.readInputs(root.Get("inputs"))...)
	}
	seen := map[string]int{}
	for _, f := range list.Fields {
		cfg.Entries = append(cfg.Entries, rd.entry(f, seen))
	}
	if spec.inputs {
		cfg.Notices = append(cfg.Notices, rd.unusedInputNotices(list)...)
	}
	return cfg, nil
}

// serverList is the object of root that lists the servers in spec's
// format; the other top-level keys get a notice each. A file without the
// list names no server (a notice); one with the other formats' list
// instead is an error.
func (cfg *Config) serverList(root *jsonfile.Node, spec *formatSpec) (*jsonfile.Node, error) {
	path := cfg.Path
	list := root.Get(spec.root)
	other := map[string]string{"servers": "mcpServers", "mcpServers": "servers"}[spec.root]
	if f := root.Field(other); list == nil && f != nil {
		return nil, f.Err(path, fmt.Sprintf("the %s format lists its servers under %q, and this file has %q instead", spec.label, spec.root, other),
			"name the format of this file, or leave it unnamed to detect it from the file")
	}
	if list == nil {
		// The format is known (from the file's name or
		// ConfigOptions.Format): a file without a server list names none,
		// as a new Claude Desktop user's file with only "preferences".
		cfg.Notices = append(cfg.Notices, fmt.Sprintf("%s:%d: this %s file names no MCP servers (it has no %q object): nothing is registered from it", path, root.Line, spec.label, spec.root))
		list = &jsonfile.Node{Kind: jsonfile.Object, File: path, Path: spec.root, Line: root.Line, Col: root.Col}
	}
	if err := list.Expect(jsonfile.Object); err != nil {
		return nil, err
	}
	for _, f := range root.Fields {
		if f.Key == spec.root || f.Key == "inputs" && spec.inputs {
			continue
		}
		cfg.Notices = append(cfg.Notices, fmt.Sprintf("%s:%d: top-level key %q is ignored: it is not about MCP servers OpenWorker reads (%s format)", path, f.Line, f.Key, spec.label))
	}
	return list, nil
}

// newReader is the reader of the file at path in spec's format. A
// relative "cwd" resolves against the file's folder, or for another
// client's project file against the project (the folder holding .vscode,
// .cursor, …), where a stdio server without "cwd" runs too.
func newReader(path string, spec *formatSpec, format ConfigFormat, project string, o ConfigOptions) *reader {
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		dir = filepath.Dir(path)
	}
	rd := &reader{path: path, spec: spec, format: format, ctx: o.Context, ask: o.Inputs, answers: map[string]string{},
		x: &expander{lookupEnv: o.LookupEnv, home: homeDir, workspace: project}, cwdBase: dir}
	if !spec.product && project != "" {
		rd.cwdBase, rd.workspace = project, project
	}
	rd.x.input = rd.input
	return rd
}

// detectFormat names the format of a file from its name (byPath, when its
// content agrees) or from its content.
func detectFormat(path string, root *jsonfile.Node, byPath ConfigFormat) (ConfigFormat, error) {
	servers, eco := root.Field("servers"), root.Field("mcpServers")
	if byPath != "" && (root.Get(specs[byPath].root) != nil || servers == nil && eco == nil) {
		return byPath, nil // a file without a server list names none (ReadConfig)
	}
	switch {
	case servers != nil && eco != nil:
		return "", eco.Err(path, `both "servers" and "mcpServers" are present`, "keep one of them, or name the format of the file")
	case eco != nil:
		return FormatMCPServers, nil
	case servers != nil:
		if servers.Value.Kind == jsonfile.Object {
			for _, f := range servers.Value.Fields {
				if f.Value.Get("transport") != nil {
					return FormatOpenWorker, nil
				}
			}
			if len(servers.Value.Fields) > 0 || root.Get("inputs") != nil {
				return FormatVSCode, nil
			}
		}
		return FormatOpenWorker, nil
	}
	return "", root.Err(`no "servers" or "mcpServers" object, so neither the file's name nor its content says which MCP client's file it is`,
		`add the list of servers: OpenWorker's form {"servers": {"NAMESPACE": {"transport": "stdio", "command": "..."}}}, or the form most clients share {"mcpServers": {"NAME": {"command": "..."}}}; or name the format of the file`)
}

// Servers splits the entries into the providers to register and the
// broken ones (tool.Registry.RegisterBrokenMCP, Runtime.SetServers);
// disabled entries are in neither.
func (c *Config) Servers() ([]tool.MCPServer, []tool.BrokenMCP) {
	var servers []tool.MCPServer
	var broken []tool.BrokenMCP
	for _, e := range c.Entries {
		switch {
		case e.Disabled && e.Err == nil:
		case e.Err != nil:
			if e.Disabled {
				continue
			}
			broken = append(broken, e.broken())
		default:
			servers = append(servers, e.Server)
		}
	}
	return servers, broken
}

// broken is the record of an entry that cannot be used.
func (e ConfigEntry) broken() tool.BrokenMCP {
	ns := e.Server.Namespace
	if ns == "" && e.Name != "" && tool.CheckNamespace(e.Name) == nil {
		ns = e.Name
	}
	name := e.Name
	if name == ns {
		name = ""
	}
	return tool.BrokenMCP{Namespace: ns, Name: name, Source: e.Server.Source, Err: e.Err, Entry: true}
}

// Label names the entry for people: `servers entry "a b" (namespace
// a_b)`, or `servers entry "x"` when the namespace is the name.
func (e ConfigEntry) Label() string { return e.broken().Label() }

// Err joins the errors of the entries that are not disabled, or nil.
func (c *Config) Err() error {
	var errs []error
	for _, e := range c.Entries {
		if e.Err != nil && !e.Disabled {
			errs = append(errs, e.Err)
		}
	}
	return errors.Join(errs...)
}

// AllNotices returns the file's notices, then each entry's, in file order.
func (c *Config) AllNotices() []string {
	out := append([]string(nil), c.Notices...)
	for _, e := range c.Entries {
		out = append(out, e.Notices...)
	}
	return out
}

// Inputs lists the inputs (${input:ID}) the entry refers to, in the order
// it uses them, with their definitions from the file's "inputs".
func (e ConfigEntry) Inputs() []ConfigInput {
	if e.raw == nil {
		return nil
	}
	return append([]ConfigInput(nil), e.raw.inputs...)
}

// Inputs lists the inputs the file's entries refer to, each once, in the
// order they are first used.
func (c *Config) Inputs() []ConfigInput {
	var out []ConfigInput
	seen := map[string]bool{}
	for _, e := range c.Entries {
		for _, in := range e.Inputs() {
			if !seen[in.ID] {
				seen[in.ID] = true
				out = append(out, in)
			}
		}
	}
	return out
}

// notExistError is ReadConfig's message for a missing file; it matches
// fs.ErrNotExist.
type notExistError string

func (e notExistError) Error() string { return string(e) }
func (e notExistError) Unwrap() error { return fs.ErrNotExist }
