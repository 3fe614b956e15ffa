package servers

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// The transport of a config entry (stdio, streamable HTTP or SSE, by the
// product's and the clients' rules) and the keys each transport takes;
// the blocks any transport may have, and the inputs an entry names
// (docs/servers.md). The entry itself is read in config_entry.go.

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
