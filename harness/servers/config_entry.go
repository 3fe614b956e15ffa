package servers

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
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

// transportOf decides raw's transport, by the product's "transport" or by
// another client's rules (clientTransport), and returns the field that
// holds the server's URL (an A2A agent's card URL included), if any.
func (rd *reader) transportOf(raw *rawEntry, e *ConfigEntry, f *jsonfile.Field, nodes map[string]*jsonfile.Field) (*jsonfile.Field, error) {
	urlField := rd.urlField(e, nodes, f.Key)
	var err error
	if rd.spec.product {
		raw.transport, err = rd.productTransport(f, nodes)
	} else {
		raw.transport, err = rd.clientTransport(e, f, nodes, urlField)
	}
	if err != nil {
		return nil, err
	}
	return rd.a2aCard(f, nodes, raw.transport, urlField)
}

// stdioOnlyKeys are the keys of a server started as a program; "url" and
// "headers" are those of a server reached at a URL.
var stdioOnlyKeys = map[string]bool{"command": true, "args": true, "env": true, "cwd": true}

// otherTransportKeys handles the keys of the transport the entry does not
// use: an error in the product's form, a notice in another client's.
func (rd *reader) otherTransportKeys(e *ConfigEntry, nodes map[string]*jsonfile.Field, urlField *jsonfile.Field, transport, name string) error {
	stdio := transport == tool.TransportStdio
	for _, k := range []string{"command", "args", "env", "cwd", "url", "headers"} {
		kf := nodes[k]
		if k == "url" {
			kf = urlField
		}
		if kf == nil || stdioOnlyKeys[k] == stdio {
			continue
		}
		if rd.spec.product {
			other := tool.TransportStreamableHTTP
			if !stdio {
				other = tool.TransportStdio
			}
			return kf.Err(rd.path, fmt.Sprintf("unknown field %q", kf.Key), fmt.Sprintf("%q belongs to the %s transport; this server's transport is %s", kf.Key, other, transport))
		}
		rd.notice(e, kf.Line, "%q of server %q is ignored: it applies only to a server %s", kf.Key, name, map[bool]string{true: "reached at a URL", false: "started with \"command\""}[stdio])
	}
	return nil
}

// stdioKeys reads the program of a stdio server: "command" (not empty),
// "args", "env" and "cwd".
func (rd *reader) stdioKeys(raw *rawEntry, nodes map[string]*jsonfile.Field) error {
	cmd := nodes["command"]
	var err error
	if raw.command, err = rd.tval(cmd.Value); err != nil {
		return err
	}
	if cmd.Value.Str == "" {
		return cmd.Value.Err(`"command" is empty`, "name the program to start")
	}
	if raw.args, err = rd.tvals(nodes["args"]); err != nil {
		return err
	}
	if raw.env, err = rd.kvs(nodes["env"]); err != nil {
		return err
	}
	if c := nodes["cwd"]; c != nil {
		t, err := rd.tval(c.Value)
		if err != nil {
			return err
		}
		raw.cwd = &t
	}
	return nil
}

// remoteKeys reads the address of a server reached at a URL: the URL and
// "headers".
func (rd *reader) remoteKeys(raw *rawEntry, nodes map[string]*jsonfile.Field, urlField *jsonfile.Field) error {
	var err error
	if raw.url, err = rd.tval(urlField.Value); err != nil {
		return err
	}
	raw.headers, err = rd.kvs(nodes["headers"])
	return err
}

// blocks reads what any transport may have: the product's "oauth" and
// "sandbox" blocks, "timeout" and "startup_timeout".
func (rd *reader) blocks(raw *rawEntry, e *ConfigEntry, nodes map[string]*jsonfile.Field, name string) error {
	var err error
	if o := nodes["oauth"]; o != nil {
		if raw.oauth, raw.oauthSecret, err = rd.oauthEntry(o, raw.transport, name); err != nil {
			return err
		}
	}
	if sb := nodes["sandbox"]; sb != nil {
		if raw.sandbox, err = rd.sandboxEntry(sb, raw.transport, name); err != nil {
			return err
		}
	}
	if t := nodes["timeout"]; t != nil {
		if raw.timeout, err = rd.timeout(e, t, name); err != nil {
			return err
		}
	}
	if t := nodes["startup_timeout"]; t != nil {
		if raw.start, err = rd.startupTimeout(e, t, name); err != nil {
			return err
		}
	}
	if t := nodes["tasks"]; t != nil {
		if t.Value.Kind != jsonfile.Bool {
			return t.Value.Err(fmt.Sprintf("\"tasks\" of server %q must be true or false, not %s", name, t.Value.Kind), `write "tasks": true (call the tools that allow MCP tasks as tasks) or remove the key`)
		}
		raw.tasks = t.Value.Bool
	}
	return nil
}

// checkInputs makes sure every ${input:ID} of raw names a usable
// definition of the top-level "inputs".
func (rd *reader) checkInputs(raw *rawEntry) error {
	for _, in := range raw.inputs {
		n := rd.inputNode(raw, in.ID)
		d := rd.inputs[in.ID]
		if d == nil && rd.inputsErr != nil {
			return n.Err(fmt.Sprintf("%s: %v", n.Name(), rd.inputsErr), `make "inputs" an array of input definitions`)
		}
		if d == nil {
			return n.Err(fmt.Sprintf("${input:%s} names no entry of the top-level \"inputs\"", in.ID),
				fmt.Sprintf(`add {"type": "promptString", "id": %q, "description": "...", "password": true} to "inputs"`, in.ID))
		}
		if d.err != nil {
			return n.Err(fmt.Sprintf("%s: %v", n.Name(), d.err), "")
		}
	}
	return nil
}

// urlField is the entry's URL key: the first of the format's URL keys
// present (Windsurf: "serverUrl", then "url").
func (rd *reader) urlField(e *ConfigEntry, nodes map[string]*jsonfile.Field, name string) *jsonfile.Field {
	var found *jsonfile.Field
	for _, k := range rd.spec.urlKeys {
		if f := nodes[k]; f != nil {
			if found == nil {
				found = f
				continue
			}
			rd.notice(e, f.Line, "%q of server %q is ignored: %q is used", k, name, found.Key)
		}
	}
	return found
}

// productTransport reads "transport" of the product's own form (required).
func (rd *reader) productTransport(f *jsonfile.Field, nodes map[string]*jsonfile.Field) (string, error) {
	t := nodes["transport"]
	if t == nil {
		fix := `add "transport": "stdio", "streamable_http" or "sse"`
		if f.Value.Get("type") != nil {
			fix = `the "servers" form names it "transport", not "type"`
		}
		return "", f.Value.Err(fmt.Sprintf("server %q has no \"transport\"", f.Key), fix)
	}
	v, err := t.Value.AsString()
	if err != nil {
		return "", err
	}
	switch v {
	case tool.TransportStdio, tool.TransportStreamableHTTP, tool.TransportSSE, tool.TransportA2A:
	default:
		return "", t.Value.Err(fmt.Sprintf("unknown transport %q", v), `use "stdio", "streamable_http", "sse" or "a2a"`)
	}
	need := "command"
	switch v {
	case tool.TransportA2A:
		need = "card"
	case tool.TransportStreamableHTTP, tool.TransportSSE:
		need = "url"
	}
	if nodes[need] == nil {
		if fix := a2aFix(v, nodes); fix != "" {
			return "", f.Err(rd.path, fmt.Sprintf("server %q has no %q", f.Key, need), fix)
		}
		return "", f.Err(rd.path, fmt.Sprintf("server %q has no %q", f.Key, need), misspelt(f.Value, need))
	}
	return v, nil
}

// clientTransport reads the transport of another client's entry: its
// "type" when given, else from "command" or the URL. This is where an
// entry without a type becomes stdio (it has "command"), or streamable
// HTTP or SSE (it has a URL), by the format's rules; package harness/mcp
// gets the transport decided.
func (rd *reader) clientTransport(e *ConfigEntry, f *jsonfile.Field, nodes map[string]*jsonfile.Field, urlField *jsonfile.Field) (string, error) {
	typ, values := nodes["type"], typeValues
	if typ == nil && nodes["transportType"] != nil { // Cline's legacy key
		typ, values = nodes["transportType"], clineTransportType
	}
	if typ != nil {
		return rd.typedTransport(f, typ, values, nodes["command"] != nil, urlField != nil)
	}
	return rd.untypedTransport(e, f, nodes["command"], urlField)
}

// typedTransport is the transport an entry's "type" (or Cline's
// "transportType") names, from values; the entry must have what that
// transport needs.
func (rd *reader) typedTransport(f, typ *jsonfile.Field, values map[string]string, hasCommand, hasURL bool) (string, error) {
	name, urlKey := f.Key, rd.spec.urlKeys[0]
	v, err := typ.Value.AsString()
	if err != nil {
		return "", err
	}
	tr, ok := values[v]
	if !ok {
		return "", typ.Value.Err(fmt.Sprintf("unknown type %q", v), `OpenWorker reaches a server over "stdio", "http" (streamable HTTP; also "streamable-http", "streamableHttp") or "sse"`)
	}
	switch {
	case tr == tool.TransportStdio && !hasCommand:
		return "", typ.Value.Err(fmt.Sprintf("server %q is of type %q but has no \"command\"", name, v), misspelt(f.Value, "command"))
	case tr != tool.TransportStdio && !hasURL:
		return "", typ.Value.Err(fmt.Sprintf("server %q is of type %q but has no %q", name, v, urlKey), misspelt(f.Value, urlKey))
	}
	return tr, nil
}

// untypedTransport is the transport of an entry without a type: stdio
// with "command"; with a URL, the format's noTypeURL (SSE when a
// streamable HTTP URL ends in /sse), or an error when the format requires
// a type.
func (rd *reader) untypedTransport(e *ConfigEntry, f, cmd, urlField *jsonfile.Field) (string, error) {
	name, urlKey := f.Key, rd.spec.urlKeys[0]
	switch {
	case cmd != nil && urlField != nil:
		return "", urlField.Err(rd.path, fmt.Sprintf("server %q has both \"command\" and %q", name, urlField.Key),
			fmt.Sprintf(`keep "command" for a program to start or %q for a running service, or set "type"`, urlField.Key))
	case cmd != nil:
		return tool.TransportStdio, nil
	case urlField != nil:
		return rd.urlTransport(e, name, urlField)
	}
	fix := fmt.Sprintf(`add "command" to start a program or %q to reach a running service`, urlKey)
	if m := misspelt(f.Value, "command", urlKey); m != "" {
		fix = m
	}
	return "", f.Err(rd.path, fmt.Sprintf("server %q has neither \"command\" nor %q", name, urlKey), fix)
}

// urlTransport is the transport of an entry with a URL and no type.
func (rd *reader) urlTransport(e *ConfigEntry, name string, urlField *jsonfile.Field) (string, error) {
	tr := rd.spec.noTypeURL
	if tr == "" {
		return "", urlField.Err(rd.path, fmt.Sprintf("server %q has a %q but no \"type\", which %s requires", name, urlField.Key, rd.spec.label),
			`add "type": "streamable-http" or "type": "sse"`)
	}
	if tr == tool.TransportStreamableHTTP && urlField.Value.Kind == jsonfile.String {
		if u, err := url.Parse(urlField.Value.Str); err == nil && strings.HasSuffix(strings.TrimRight(u.Path, "/"), "/sse") {
			tr = tool.TransportSSE
			rd.notice(e, urlField.Line, "server %q has no \"type\" and its URL ends in /sse: it is reached over SSE, the legacy HTTP+SSE transport (set \"type\" to choose)", name)
		}
	}
	return tr, nil
}

func (rd *reader) tval(n *jsonfile.Node) (tval, error) {
	s, err := n.AsString()
	if err != nil {
		return tval{}, err
	}
	t, err := rd.spec.vars.parse(s)
	if err != nil {
		return tval{}, n.Err(fmt.Sprintf("%s: %v", n.Name(), err), "")
	}
	return tval{t: t, n: n}, nil
}

func (rd *reader) kvs(f *jsonfile.Field) ([]kv, error) {
	if f == nil {
		return nil, nil
	}
	if err := f.Value.Expect(jsonfile.Object); err != nil {
		return nil, err
	}
	out := make([]kv, 0, len(f.Value.Fields))
	for _, g := range f.Value.Fields {
		t, err := rd.tval(g.Value)
		if err != nil {
			return nil, err
		}
		out = append(out, kv{key: g.Key, v: t})
	}
	return out, nil
}

// tvals reads an array of templates ("args"); nil when f is absent.
func (rd *reader) tvals(f *jsonfile.Field) ([]tval, error) {
	if f == nil {
		return nil, nil
	}
	if err := f.Value.Expect(jsonfile.Array); err != nil {
		return nil, err
	}
	var out []tval
	for _, it := range f.Value.Items {
		t, err := rd.tval(it)
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// all lists every template of the entry.
func (raw *rawEntry) all() []tval {
	out := []tval{raw.command, raw.url}
	out = append(out, raw.args...)
	for _, p := range raw.env {
		out = append(out, p.v)
	}
	for _, p := range raw.headers {
		out = append(out, p.v)
	}
	if raw.cwd != nil {
		out = append(out, *raw.cwd)
	}
	if raw.oauthSecret != nil {
		out = append(out, *raw.oauthSecret)
	}
	return out
}

func (rd *reader) referencedInputs(raw *rawEntry) []ConfigInput {
	var out []ConfigInput
	seen := map[string]bool{}
	for _, tv := range raw.all() {
		for _, p := range tv.t {
			if p.kind != partInput || seen[p.text] {
				continue
			}
			seen[p.text] = true
			in := ConfigInput{ID: p.text}
			if d := rd.inputs[p.text]; d != nil {
				in = d.ConfigInput
			}
			out = append(out, in)
		}
	}
	return out
}

func (rd *reader) inputNode(raw *rawEntry, id string) *jsonfile.Node {
	for _, tv := range raw.all() {
		for _, p := range tv.t {
			if p.kind == partInput && p.text == id {
				return tv.n
			}
		}
	}
	return nil
}

// expandInto substitutes the variables of raw into s (docs/servers.md):
// its program or URL, arguments, environment, folder, headers, timeout and
// secrets.
func (raw *rawEntry) expandInto(s *tool.MCPServer) error {
	s.Transport, s.Timeout, s.StartTimeout, s.Tasks = raw.transport, raw.timeout, raw.start, raw.tasks
	sub := &substitution{raw: raw, s: s}
	var err error
	if raw.transport == tool.TransportStdio {
		err = sub.program()
	} else {
		err = sub.address()
	}
	if err != nil {
		return err
	}
	if raw.oauth != nil {
		o := *raw.oauth
		if raw.oauthSecret != nil {
			if o.ClientSecret, err = sub.expand("oauth.client_secret", *raw.oauthSecret); err != nil {
				return err
			}
			if o.ClientSecret == "" {
				return raw.oauthSecret.n.Err(`"oauth.client_secret" is empty once its variables are substituted`, "set the variable, or answer the input")
			}
			sub.secrets = append(sub.secrets, o.ClientSecret)
		}
		s.OAuth = &o
	}
	s.Secrets = dedupe(sub.secrets)
	s.Sandbox = raw.sandbox
	return nil
}

// substitution is one expandInto: the server it fills and the secrets it
// found on the way.
type substitution struct {
	raw     *rawEntry
	s       *tool.MCPServer
	secrets []string
}

// expand substitutes the variables of tv, the value of field ("args[0]",
// "env.KEY"); the secret values it used are kept, and the names of the
// secret variables recorded in s.Vars.
func (sub *substitution) expand(field string, tv tval) (string, error) {
	v, sec, err := sub.raw.x.expand(tv.t)
	if err != nil {
		return "", tv.n.Err(fmt.Sprintf("%s: %v", tv.n.Name(), err), "")
	}
	sub.secrets = append(sub.secrets, sec...)
	if vars := tv.t.secretVars(); vars != "" {
		if sub.s.Vars == nil {
			sub.s.Vars = map[string]string{}
		}
		sub.s.Vars[field] = vars
	}
	return v, nil
}

// expandKVs expands each value of list ("env", "headers"); nil when empty.
func (sub *substitution) expandKVs(field string, list []kv) (map[string]string, error) {
	if len(list) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(list))
	for _, p := range list {
		v, err := sub.expand(field+"."+p.key, p.v)
		if err != nil {
			return nil, err
		}
		out[p.key] = v
	}
	return out, nil
}

// program fills what starts a stdio server: its program, arguments,
// environment and folder. Credentials in the arguments and the values of
// credential-named variables are secrets.
func (sub *substitution) program() error {
	raw, s := sub.raw, sub.s
	var err error
	if s.Program, err = sub.expand("command", raw.command); err != nil {
		return err
	}
	if s.Program == "" {
		return raw.command.n.Err(`"command" is empty once its variables are substituted`, "name the program to start")
	}
	for i, a := range raw.args {
		v, err := sub.expand(fmt.Sprintf("args[%d]", i), a)
		if err != nil {
			return err
		}
		s.Args = append(s.Args, v)
	}
	sub.secrets = append(sub.secrets, argSecrets(s.Args)...)
	sub.secrets = append(sub.secrets, argSecrets(strings.Fields(s.Program))...) // a whole command line written into "command"
	if s.Env, err = sub.expandKVs("env", raw.env); err != nil {
		return err
	}
	for k, v := range s.Env {
		if redact.CredentialName(k) || redact.TokenValue(v) { // GH=ghp_… is one too
			sub.secrets = append(sub.secrets, v)
		}
	}
	if raw.cwd == nil {
		s.Dir = raw.workspace // a project file's server runs in its project (docs/servers.md#keys)
		return nil
	}
	if s.Dir, err = sub.expand("cwd", *raw.cwd); err != nil {
		return err
	}
	if s.Dir != "" && !filepath.IsAbs(s.Dir) {
		s.Dir = filepath.Join(raw.cwdBase, s.Dir)
	}
	return nil
}

// address fills what reaches a remote server: its URL (checked) and
// headers. The URL's credentials and every header value are secrets.
func (sub *substitution) address() error {
	raw, s := sub.raw, sub.s
	var err error
	if s.URL, err = sub.expand("url", raw.url); err != nil {
		return err
	}
	sec, err := checkURL(s.URL, raw.url.n)
	if err != nil {
		return err
	}
	sub.secrets = append(sub.secrets, sec...)
	if s.Headers, err = sub.expandKVs("headers", raw.headers); err != nil {
		return err
	}
	for _, h := range s.Headers { // header values are credentials more often than not
		sub.secrets = append(sub.secrets, h)
		if _, tok, ok := strings.Cut(h, " "); ok {
			sub.secrets = append(sub.secrets, tok)
		}
	}
	return nil
}

// checkURL applies docs/servers.md#remote-servers: https:// on any host,
// http:// only on this computer. It returns the secrets the URL holds
// (the password of its user info, its query values).
func checkURL(raw string, n *jsonfile.Node) ([]string, error) {
	p, err := url.Parse(raw)
	if err != nil || p.Host == "" || (p.Scheme != "http" && p.Scheme != "https") {
		what := redact.ShortURL(raw)
		if p != nil && (p.Scheme == "unix" || p.Scheme == "pipe") {
			return nil, n.Err(fmt.Sprintf("%q: servers on a Unix socket or named pipe are not supported", what), "serve it over http://127.0.0.1:PORT instead")
		}
		return nil, n.Err(fmt.Sprintf("%q is not an http:// or https:// URL", what), `write it like "https://mcp.example.com/mcp" or "http://127.0.0.1:8931/mcp"`)
	}
	if p.Scheme == "http" && !tool.IsLoopbackHost(p.Hostname()) {
		return nil, n.Err(fmt.Sprintf("%q is not this computer; plain http:// is allowed only for a loopback address, so nothing on the network can read or change the traffic", p.Hostname()),
			fmt.Sprintf("use https://%s%s if the server offers it, or 127.0.0.1, [::1] or localhost for a server on this computer", p.Host, p.EscapedPath()))
	}
	var secrets []string
	if pw, ok := p.User.Password(); ok {
		secrets = append(secrets, pw)
	}
	secrets = append(secrets, redact.PathSecrets(p.Path)...) // /mcp/s/<key>/mcp
	for _, vs := range p.Query() {
		secrets = append(secrets, vs...)
	}
	return secrets, nil
}
