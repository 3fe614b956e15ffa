package servers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// reader reads the entries of one file.
type reader struct {
	path   string
	spec   *formatSpec
	format ConfigFormat
	ctx    context.Context
	ask    func(ctx context.Context, id, description string, password bool) (string, error)
	inputs map[string]*inputDef
	// inputsErr is why no input can be asked: "inputs" is not an array.
	inputsErr error
	answers   map[string]string // asked once per read
	x         *expander
	cwdBase   string // a relative cwd resolves against it
	// workspace is the project of another client's project file (the
	// folder holding .vscode, .cursor, …): a stdio server without "cwd"
	// runs there, as in VS Code. "" for any other file.
	workspace string
	// clineKeys names a key only Cline writes ("autoApprove",
	// "transportType") that a detected mcpServers file has: its "timeout"
	// is then read in seconds, as Cline counts it (config_timeout.go).
	clineKeys string
}

// rawEntry is an entry as written: the templates of its values.
type rawEntry struct {
	transport   string
	command     tval
	args        []tval
	env         []kv
	cwd         *tval
	url         tval
	headers     []kv
	timeout     time.Duration
	start       time.Duration  // servers.json "startup_timeout" (config_timeout.go)
	tasks       bool           // servers.json "tasks": MCP tasks for optional tools (docs/servers.md#tasks)
	oauth       *tool.MCPOAuth // servers.json "oauth" (config_oauth.go), its secret not substituted
	oauthSecret *tval          // "oauth.client_secret", a reference
	sandbox     *tool.Sandbox  // servers.json "sandbox" (config_sandbox.go)
	inputs      []ConfigInput  // the inputs it refers to, in first-use order
	x           *expander
	cwdBase     string
	workspace   string // reader.workspace
}

type tval struct {
	t template
	n *jsonfile.Node
}

type kv struct {
	key string
	v   tval
}

// entry reads one server. seen maps namespaces already used to the line
// of their entry.
func (rd *reader) entry(f *jsonfile.Field, seen map[string]int) ConfigEntry {
	e := ConfigEntry{Name: f.Key, Line: f.Line, Col: f.Col}
	e.Server.Source = fmt.Sprintf("%s:%d", rd.path, f.Line)
	ns, derived, err := DeriveNamespace(f.Key)
	if err != nil {
		fix := "rename the server: a namespace holds ASCII letters, digits, '_' and '-'"
		var ne *namespaceError
		if errors.As(err, &ne) {
			fix = ne.fix
		}
		e.Err = f.Err(rd.path, err.Error(), fix)
		return e
	}
	e.Server.Namespace = ns
	if derived {
		e.Server.Name = f.Key
		e.Notices = append(e.Notices, fmt.Sprintf("%s:%d: server %q gets the namespace %q: a namespace holds only ASCII letters, digits, '_' and '-', so each run of other characters becomes '_' (docs/servers.md#namespaces); its tools are %s.TOOL",
			rd.path, f.Line, f.Key, ns, ns))
	}
	switch room := maxAliasBytes - len(ns) - len(tool.AliasSeparator); {
	case room < 1:
		e.Err = f.Err(rd.path, fmt.Sprintf("server %q has a namespace of %d bytes, so none of its tools could be offered to a model: a tool's model alias %s__TOOL must fit in %d bytes", f.Key, len(ns), ns[:min(len(ns), 16)]+"…", maxAliasBytes),
			fmt.Sprintf("rename the server to at most %d bytes (shorter leaves room for its tools' names)", maxAliasBytes-len(tool.AliasSeparator)-minToolRoom))
		return e
	case room < minToolRoom:
		e.Notices = append(e.Notices, fmt.Sprintf("%s:%d: server %q has a namespace of %d bytes: a tool's model alias %s__TOOL must fit in %d bytes, so only its tools with names of at most %d bytes can be offered to a model; the others are left out (rename the server to keep them)",
			rd.path, f.Line, f.Key, len(ns), ns, maxAliasBytes, room))
	}
	if line, dup := seen[ns]; dup {
		e.Err = f.Err(rd.path, fmt.Sprintf("server %q has the namespace %q, which the server at line %d has already", f.Key, ns, line), "rename one of them")
		return e
	}
	seen[ns] = f.Line
	raw, err := rd.parseEntry(f, &e)
	if err != nil {
		e.Err = err
		return e
	}
	e.raw = raw
	if e.Disabled {
		e.Server.Transport, e.Server.Timeout, e.Server.StartTimeout, e.Server.Tasks = raw.transport, raw.timeout, raw.start, raw.tasks
		return e
	}
	if err := raw.expandInto(&e.Server); err != nil {
		e.Err = err
	}
	return e
}

func (rd *reader) notice(e *ConfigEntry, line int, format string, a ...any) {
	e.Notices = append(e.Notices, fmt.Sprintf("%s:%d: ", rd.path, line)+fmt.Sprintf(format, a...))
}

// parseEntry reads the keys of an entry into templates; it substitutes
// nothing. It reads them by group: the keys present, "disabled", the
// transport, the keys of that transport, the product's blocks (oauth,
// sandbox), "timeout" and "startup_timeout", then checks the inputs the values name.
func (rd *reader) parseEntry(f *jsonfile.Field, e *ConfigEntry) (*rawEntry, error) {
	nodes, err := rd.entryFields(f, e)
	if err != nil {
		return nil, err
	}
	if err := rd.disabled(e, nodes, f.Key); err != nil {
		return nil, err
	}
	raw := &rawEntry{x: rd.x, cwdBase: rd.cwdBase, workspace: rd.workspace}
	urlField, err := rd.transportOf(raw, e, f, nodes)
	if err != nil {
		return nil, err
	}
	if err := rd.otherTransportKeys(e, nodes, urlField, raw.transport, f.Key); err != nil {
		return nil, err
	}
	if raw.transport == tool.TransportStdio {
		err = rd.stdioKeys(raw, nodes)
	} else {
		err = rd.remoteKeys(raw, nodes, urlField)
	}
	if err != nil {
		return nil, err
	}
	rd.unsubstitutedHeaders(e, raw, f.Key)
	if err := rd.blocks(raw, e, nodes, f.Key); err != nil {
		return nil, err
	}
	raw.inputs = rd.referencedInputs(raw)
	if err := rd.checkInputs(raw); err != nil {
		return nil, err
	}
	return raw, nil
}

// knownKeys are the keys an entry of rd's format may hold, and their
// sorted list for the notice of an unknown key.
func (rd *reader) knownKeys() (map[string]bool, []string) {
	spec := rd.spec
	known := map[string]bool{spec.typeKey: true}
	for _, k := range append(append([]string{}, entryKeys...), spec.urlKeys...) {
		known[k] = true
	}
	if rd.format == FormatCline {
		known["transportType"] = true
	}
	if spec.product {
		known["oauth"] = true           // config_oauth.go
		known["sandbox"] = true         // config_sandbox.go
		known["card"] = true            // an A2A agent's (config_a2a.go)
		known["startup_timeout"] = true // config_timeout.go
		known["tasks"] = true           // docs/servers.md#tasks
	}
	list := make([]string, 0, len(known))
	for k := range known {
		list = append(list, k)
	}
	sort.Strings(list)
	return known, list
}

// entryFields are the known keys of the entry f, by key. A key the format
// refuses is an error; a key it ignores, or does not know, is a notice.
func (rd *reader) entryFields(f *jsonfile.Field, e *ConfigEntry) (map[string]*jsonfile.Field, error) {
	if err := f.Value.Expect(jsonfile.Object); err != nil {
		return nil, err
	}
	spec, name := rd.spec, f.Key
	known, keyList := rd.knownKeys()
	nodes := map[string]*jsonfile.Field{}
	for _, kf := range f.Value.Fields {
		switch {
		case known[kf.Key]:
			nodes[kf.Key] = kf
		case spec.refused[kf.Key] != "":
			return nil, kf.Err(rd.path, fmt.Sprintf("server %q: %s", name, spec.refused[kf.Key]), "remove the key, or write the server another way")
		case kf.Key == "sandboxEnabled" && rd.format == FormatVSCode:
			if err := rd.vscodeSandbox(kf, name); err != nil {
				return nil, err
			}
		case spec.ignored[kf.Key] != "":
			rd.notice(e, kf.Line, "%q of server %q is ignored: %s", kf.Key, name, spec.ignored[kf.Key])
		default:
			rd.notice(e, kf.Line, "unknown key %q of server %q is ignored (OpenWorker reads %s here)", kf.Key, name, strings.Join(keyList, ", "))
		}
	}
	return nodes, nil
}

// vscodeSandbox refuses VS Code's "sandboxEnabled": true, whose settings
// OpenWorker does not read; false changes nothing.
func (rd *reader) vscodeSandbox(kf *jsonfile.Field, name string) error {
	on, err := kf.Value.AsBool()
	if err != nil {
		return err
	}
	if on {
		return kf.Err(rd.path, fmt.Sprintf("server %q asks for VS Code's sandbox, whose settings OpenWorker does not read", name), `remove "sandboxEnabled", import the entry into OpenWorker's servers.json and give it OpenWorker's own "sandbox" (docs/sandbox.md)`)
	}
	return nil
}

// disabled reads "disabled": true marks the entry Disabled, with a notice.
func (rd *reader) disabled(e *ConfigEntry, nodes map[string]*jsonfile.Field, name string) error {
	d := nodes["disabled"]
	if d == nil {
		return nil
	}
	off, err := d.Value.AsBool()
	if err != nil {
		return err
	}
	if off {
		e.Disabled = true
		rd.notice(e, d.Line, "server %q is disabled (\"disabled\": true): it is not started and its tools are not offered", name)
	}
	return nil
}
