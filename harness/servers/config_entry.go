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
}

// rawEntry is an entry as written: the templates of its values.
type rawEntry struct {
	transport string
	command   tval
	args      []tval
	env       []kv
	cwd       *tval
	url       tval
	headers   []kv
	timeout   time.Duration
	oauth     *tool.MCPOAuth // servers.json "oauth" (config_oauth.go)
	sandbox   *tool.Sandbox  // servers.json "sandbox" (config_sandbox.go)
	inputs    []ConfigInput  // the inputs it refers to, in first-use order
	x         *expander
	cwdBase   string
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
		e.Server.Transport, e.Server.Timeout = raw.transport, raw.timeout
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
// nothing.
func (rd *reader) parseEntry(f *jsonfile.Field, e *ConfigEntry) (*rawEntry, error) {
	v := f.Value
	if err := v.Expect(jsonfile.Object); err != nil {
		return nil, err
	}
	spec, name := rd.spec, f.Key
	known := map[string]bool{spec.typeKey: true}
	for _, k := range append(append([]string{}, entryKeys...), spec.urlKeys...) {
		known[k] = true
	}
	if rd.format == FormatCline {
		known["transportType"] = true
	}
	if spec.product {
		known["oauth"] = true   // config_oauth.go
		known["sandbox"] = true // config_sandbox.go
		known["card"] = true    // an A2A agent's (config_a2a.go)
	}
	keyList := make([]string, 0, len(known))
	for k := range known {
		keyList = append(keyList, k)
	}
	sort.Strings(keyList)
	nodes := map[string]*jsonfile.Field{}
	for _, kf := range v.Fields {
		switch {
		case known[kf.Key]:
			nodes[kf.Key] = kf
		case spec.refused[kf.Key] != "":
			return nil, kf.Err(rd.path, fmt.Sprintf("server %q: %s", name, spec.refused[kf.Key]), "remove the key, or write the server another way")
		case kf.Key == "sandboxEnabled" && rd.format == FormatVSCode:
			if on, err := kf.Value.AsBool(); err != nil {
				return nil, err
			} else if on {
				return nil, kf.Err(rd.path, fmt.Sprintf("server %q asks for VS Code's sandbox, whose settings OpenWorker does not read", name), `remove "sandboxEnabled", import the entry into OpenWorker's servers.json and give it OpenWorker's own "sandbox" (docs/sandbox.md)`)
			}
		case spec.ignored[kf.Key] != "":
			rd.notice(e, kf.Line, "%q of server %q is ignored: %s", kf.Key, name, spec.ignored[kf.Key])
		default:
			rd.notice(e, kf.Line, "unknown key %q of server %q is ignored (OpenWorker reads %s here)", kf.Key, name, strings.Join(keyList, ", "))
		}
	}
	if d := nodes["disabled"]; d != nil {
		off, err := d.Value.AsBool()
		if err != nil {
			return nil, err
		}
		if off {
			e.Disabled = true
			rd.notice(e, d.Line, "server %q is disabled (\"disabled\": true): it is not started and its tools are not offered", name)
		}
	}
	raw := &rawEntry{x: rd.x, cwdBase: rd.cwdBase}
	urlField := rd.urlField(e, nodes, name)
	var err error
	if spec.product {
		raw.transport, err = rd.productTransport(f, nodes)
	} else {
		raw.transport, err = rd.clientTransport(e, f, nodes, urlField)
	}
	if err != nil {
		return nil, err
	}
	if urlField, err = rd.a2aCard(f, nodes, raw.transport, urlField); err != nil {
		return nil, err
	}
	stdio := raw.transport == tool.TransportStdio
	for _, k := range []string{"command", "args", "env", "cwd", "url", "headers"} {
		kf := nodes[k]
		if k == "url" {
			kf = urlField
		}
		if kf == nil || (k == "command" || k == "args" || k == "env" || k == "cwd") == stdio {
			continue
		}
		if spec.product {
			other := tool.TransportStreamableHTTP
			if !stdio {
				other = tool.TransportStdio
			}
			return nil, kf.Err(rd.path, fmt.Sprintf("unknown field %q", kf.Key), fmt.Sprintf("%q belongs to the %s transport; this server's transport is %s", kf.Key, other, raw.transport))
		}
		rd.notice(e, kf.Line, "%q of server %q is ignored: it applies only to a server %s", kf.Key, name, map[bool]string{true: "reached at a URL", false: "started with \"command\""}[stdio])
	}
	if stdio {
		cmd := nodes["command"]
		if raw.command, err = rd.tval(cmd.Value); err != nil {
			return nil, err
		}
		if cmd.Value.Str == "" {
			return nil, cmd.Value.Err(`"command" is empty`, "name the program to start")
		}
		if a := nodes["args"]; a != nil {
			if err := a.Value.Expect(jsonfile.Array); err != nil {
				return nil, err
			}
			for _, it := range a.Value.Items {
				t, err := rd.tval(it)
				if err != nil {
					return nil, err
				}
				raw.args = append(raw.args, t)
			}
		}
		if raw.env, err = rd.kvs(nodes["env"]); err != nil {
			return nil, err
		}
		if c := nodes["cwd"]; c != nil {
			t, err := rd.tval(c.Value)
			if err != nil {
				return nil, err
			}
			raw.cwd = &t
		}
	} else {
		if raw.url, err = rd.tval(urlField.Value); err != nil {
			return nil, err
		}
		if raw.headers, err = rd.kvs(nodes["headers"]); err != nil {
			return nil, err
		}
	}
	if o := nodes["oauth"]; o != nil {
		if raw.oauth, err = rd.oauthEntry(o, raw.transport, name); err != nil {
			return nil, err
		}
	}
	if sb := nodes["sandbox"]; sb != nil {
		if raw.sandbox, err = rd.sandboxEntry(sb, raw.transport, name); err != nil {
			return nil, err
		}
	}
	if t := nodes["timeout"]; t != nil {
		if raw.timeout, err = rd.timeout(e, t, name); err != nil {
			return nil, err
		}
	}
	raw.inputs = rd.referencedInputs(raw)
	for _, in := range raw.inputs {
		n := rd.inputNode(raw, in.ID)
		d := rd.inputs[in.ID]
		if d == nil && rd.inputsErr != nil {
			return nil, n.Err(fmt.Sprintf("%s: %v", n.Name(), rd.inputsErr), `make "inputs" an array of input definitions`)
		}
		if d == nil {
			return nil, n.Err(fmt.Sprintf("${input:%s} names no entry of the top-level \"inputs\"", in.ID),
				fmt.Sprintf(`add {"type": "promptString", "id": %q, "description": "...", "password": true} to "inputs"`, in.ID))
		}
		if d.err != nil {
			return nil, n.Err(fmt.Sprintf("%s: %v", n.Name(), d.err), "")
		}
	}
	return raw, nil
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
// "type" when given, else from "command" or the URL.
func (rd *reader) clientTransport(e *ConfigEntry, f *jsonfile.Field, nodes map[string]*jsonfile.Field, urlField *jsonfile.Field) (string, error) {
	name, cmd := f.Key, nodes["command"]
	typ, values := nodes["type"], typeValues
	if typ == nil && nodes["transportType"] != nil { // Cline's legacy key
		typ, values = nodes["transportType"], clineTransportType
	}
	urlKey := rd.spec.urlKeys[0]
	if typ != nil {
		v, err := typ.Value.AsString()
		if err != nil {
			return "", err
		}
		tr, ok := values[v]
		if !ok {
			return "", typ.Value.Err(fmt.Sprintf("unknown type %q", v), `OpenWorker reaches a server over "stdio", "http" (streamable HTTP; also "streamable-http", "streamableHttp") or "sse"`)
		}
		switch {
		case tr == tool.TransportStdio && cmd == nil:
			return "", typ.Value.Err(fmt.Sprintf("server %q is of type %q but has no \"command\"", name, v), misspelt(f.Value, "command"))
		case tr != tool.TransportStdio && urlField == nil:
			return "", typ.Value.Err(fmt.Sprintf("server %q is of type %q but has no %q", name, v, urlKey), misspelt(f.Value, urlKey))
		}
		return tr, nil
	}
	switch {
	case cmd != nil && urlField != nil:
		return "", urlField.Err(rd.path, fmt.Sprintf("server %q has both \"command\" and %q", name, urlField.Key),
			fmt.Sprintf(`keep "command" for a program to start or %q for a running service, or set "type"`, urlField.Key))
	case cmd != nil:
		return tool.TransportStdio, nil
	case urlField != nil:
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
	fix := fmt.Sprintf(`add "command" to start a program or %q to reach a running service`, urlKey)
	if m := misspelt(f.Value, "command", urlKey); m != "" {
		fix = m
	}
	return "", f.Err(rd.path, fmt.Sprintf("server %q has neither \"command\" nor %q", name, urlKey), fix)
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
	s.Transport, s.Timeout = raw.transport, raw.timeout
	var secrets []string
	expand := func(field string, tv tval) (string, error) {
		v, sec, err := raw.x.expand(tv.t)
		if err != nil {
			return "", tv.n.Err(fmt.Sprintf("%s: %v", tv.n.Name(), err), "")
		}
		secrets = append(secrets, sec...)
		if vars := tv.t.secretVars(); vars != "" {
			if s.Vars == nil {
				s.Vars = map[string]string{}
			}
			s.Vars[field] = vars
		}
		return v, nil
	}
	expandKVs := func(field string, list []kv) (map[string]string, error) {
		if len(list) == 0 {
			return nil, nil
		}
		out := make(map[string]string, len(list))
		for _, p := range list {
			v, err := expand(field+"."+p.key, p.v)
			if err != nil {
				return nil, err
			}
			out[p.key] = v
		}
		return out, nil
	}
	var err error
	if raw.transport == tool.TransportStdio {
		if s.Program, err = expand("command", raw.command); err != nil {
			return err
		}
		if s.Program == "" {
			return raw.command.n.Err(`"command" is empty once its variables are substituted`, "name the program to start")
		}
		for i, a := range raw.args {
			v, err := expand(fmt.Sprintf("args[%d]", i), a)
			if err != nil {
				return err
			}
			s.Args = append(s.Args, v)
		}
		secrets = append(secrets, argSecrets(s.Args)...)
		secrets = append(secrets, argSecrets(strings.Fields(s.Program))...) // a whole command line written into "command"
		if s.Env, err = expandKVs("env", raw.env); err != nil {
			return err
		}
		for k, v := range s.Env {
			if redact.CredentialName(k) {
				secrets = append(secrets, v)
			}
		}
		if raw.cwd != nil {
			if s.Dir, err = expand("cwd", *raw.cwd); err != nil {
				return err
			}
			if s.Dir != "" && !filepath.IsAbs(s.Dir) {
				s.Dir = filepath.Join(raw.cwdBase, s.Dir)
			}
		}
	} else {
		if s.URL, err = expand("url", raw.url); err != nil {
			return err
		}
		sec, err := checkURL(s.URL, raw.url.n)
		if err != nil {
			return err
		}
		secrets = append(secrets, sec...)
		if s.Headers, err = expandKVs("headers", raw.headers); err != nil {
			return err
		}
		for _, h := range s.Headers { // header values are credentials more often than not
			secrets = append(secrets, h)
			if _, tok, ok := strings.Cut(h, " "); ok {
				secrets = append(secrets, tok)
			}
		}
	}
	s.Secrets = dedupe(secrets)
	s.OAuth = raw.oauth
	s.Sandbox = raw.sandbox
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
	for _, vs := range p.Query() {
		secrets = append(secrets, vs...)
	}
	return secrets, nil
}
