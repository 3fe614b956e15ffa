package mcp

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// lookupEnv reads the environment for ${VAR} expansion; tests replace it.
var lookupEnv = os.LookupEnv

// MaxServersFileBytes bounds a servers.json file (1 MiB).
const MaxServersFileBytes = jsonfile.MaxSize

// RegisterServersFile registers in reg every MCP provider of a servers.json
// file (docs/registry.md, the --servers flag). Two shapes are read:
//
//	{"servers": {"acer":   {"transport": "stdio", "command": "bin/acer-mcp",
//	                        "args": [], "env": {"LOG": "1"}, "cwd": ""},
//	             "lights": {"transport": "streamable_http",
//	                        "url": "http://127.0.0.1:8931/mcp", "headers": {}}}}
//
// and the MCP ecosystem's {"mcpServers": {ns: {...}}}, where an entry with
// "command" (and optional "args", "env", "cwd") is stdio and one with "url"
// (and optional "headers") is streamable HTTP; an optional "type" of
// "stdio", "http", "streamable_http" or "streamableHttp" must agree ("sse"
// is refused: SSE is not supported).
//
// Rules:
//   - A "url" must be http:// or https:// on a loopback host (127.0.0.0/8,
//     ::1 or localhost): docs/registry.md allows streamable HTTP for a local service
//     only. Any other host is an error naming the file, line and column.
//   - Unknown fields, wrong types, duplicate keys, malformed JSON and files
//     over 1 MiB are errors naming the file, line and column.
//   - "${VAR}" in env and header values expands from the environment; an
//     unset variable is an error naming the file, line, column and variable
//     (never an empty string). "$$" is a literal "$". Nothing else expands.
//   - "command" is kept verbatim: a relative program resolves against the
//     app's install folder when the provider starts (package harness/mcp).
//   - A relative "cwd" resolves against the folder of the servers.json file.
//   - Each entry becomes a tool.MCPServer whose Source is "PATH:LINE" (the
//     line of its namespace key) and goes through reg.RegisterMCP, so the
//     naming rules apply and their errors name the file and line too.
//
// Every bad entry is reported (joined); good entries are still registered.
// Like every registration error, these are kept by reg (parse errors through
// reg.Fail) and returned again by Freeze. After Freeze it returns
// tool.ErrFrozen and reads nothing.
func RegisterServersFile(reg *tool.Registry, path string) error {
	if reg.Frozen() {
		return tool.ErrFrozen
	}
	servers, errs := readServersFile(path)
	for _, err := range errs {
		if errors.Is(reg.Fail(err), tool.ErrFrozen) {
			return tool.ErrFrozen
		}
	}
	for _, s := range servers {
		if err := reg.RegisterMCP(s); err != nil {
			if errors.Is(err, tool.ErrFrozen) {
				return err
			}
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// ReadServersFile parses a servers.json file without registering anything:
// the providers in file order, or every problem found. It is what
// RegisterServersFile and `openworker check --servers` use.
func ReadServersFile(path string) ([]tool.MCPServer, error) {
	s, errs := readServersFile(path)
	return s, errors.Join(errs...)
}

func readServersFile(path string) ([]tool.MCPServer, []error) {
	data, err := jsonfile.ReadFile(path, MaxServersFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []error{fmt.Errorf("servers file %s does not exist; check the --servers path, or write one like {\"servers\": {}}", path)}
	}
	if err != nil {
		return nil, []error{fmt.Errorf("servers file: %w", err)}
	}
	root, err := jsonfile.Parse(path, data)
	if err != nil {
		return nil, []error{err}
	}
	if err := root.Keys("servers", "mcpServers"); err != nil {
		return nil, []error{err}
	}
	list, ecosystem := root.Get("servers"), false
	if eco := root.Get("mcpServers"); eco != nil {
		if list != nil {
			f := root.Field("mcpServers")
			return nil, []error{f.Err(path, `both "servers" and "mcpServers" are present`, "keep one of them")}
		}
		list, ecosystem = eco, true
	}
	if list == nil {
		return nil, []error{root.Err(`no "servers" object`, `write {"servers": {"NAMESPACE": {"transport": "stdio", "command": "..."}}}`)}
	}
	if err := list.Expect(jsonfile.Object); err != nil {
		return nil, []error{err}
	}
	dir := filepath.Dir(path)
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	var out []tool.MCPServer
	var errs []error
	for _, f := range list.Fields {
		s, err := parseServer(path, dir, f, ecosystem)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errs
}

func parseServer(path, dir string, f *jsonfile.Field, ecosystem bool) (tool.MCPServer, error) {
	s := tool.MCPServer{Namespace: f.Key, Source: fmt.Sprintf("%s:%d", path, f.Line)}
	e := f.Value
	if err := e.Expect(jsonfile.Object); err != nil {
		return s, err
	}
	var err error
	if ecosystem {
		s.Transport, err = ecosystemTransport(path, f)
	} else {
		s.Transport, err = serversTransport(f)
	}
	if err != nil {
		return s, err
	}
	typeKey := "transport"
	if ecosystem {
		typeKey = "type"
	}
	switch s.Transport {
	case tool.TransportStdio:
		if err := e.Keys(typeKey, "command", "args", "env", "cwd"); err != nil {
			return s, hintTransport(err, "streamable_http")
		}
		cmd, err := required(path, f, "command")
		if err != nil {
			return s, err
		}
		if s.Program, err = cmd.AsString(); err != nil {
			return s, err
		}
		if s.Program == "" {
			return s, cmd.Err(`"command" is empty`, "name the program to start")
		}
		if a := e.Get("args"); a != nil {
			if s.Args, err = a.AsStringSlice(); err != nil {
				return s, err
			}
		}
		if v := e.Get("env"); v != nil {
			var secrets []string
			if s.Env, secrets, err = expandMap(v); err != nil {
				return s, err
			}
			s.Secrets = append(s.Secrets, secrets...)
		}
		if v := e.Get("cwd"); v != nil {
			if s.Dir, err = v.AsString(); err != nil {
				return s, err
			}
			if s.Dir != "" && !filepath.IsAbs(s.Dir) {
				s.Dir = filepath.Join(dir, s.Dir)
			}
		}
	case tool.TransportStreamableHTTP:
		if err := e.Keys(typeKey, "url", "headers"); err != nil {
			return s, hintTransport(err, "stdio")
		}
		u, err := required(path, f, "url")
		if err != nil {
			return s, err
		}
		if s.URL, err = u.AsString(); err != nil {
			return s, err
		}
		p, perr := url.Parse(s.URL)
		if perr != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
			return s, u.Err(fmt.Sprintf("%q is not an http:// or https:// URL", s.URL), `write it like "http://127.0.0.1:8931/mcp"`)
		}
		if !loopbackHost(p.Hostname()) {
			return s, u.Err(fmt.Sprintf("%q is not a loopback address; a streamable_http provider must be a service on this computer (docs/registry.md)", p.Hostname()),
				`run the provider locally and use 127.0.0.1, [::1] or localhost, like "http://127.0.0.1:8931/mcp"`)
		}
		if v := e.Get("headers"); v != nil {
			if s.Headers, _, err = expandMap(v); err != nil {
				return s, err
			}
			for _, h := range s.Headers { // header values are credentials more often than not
				s.Secrets = append(s.Secrets, h)
				if _, tok, ok := strings.Cut(h, " "); ok {
					s.Secrets = append(s.Secrets, tok)
				}
			}
		}
	}
	return s, nil
}

// loopbackHost reports whether host (a URL's host without port or
// brackets) names this computer: an IP address in 127.0.0.0/8 or ::1
// (IPv4-mapped forms included) or the name "localhost" in any case.
// Other names, "localhost." and "*.localhost" included, are refused: what
// they resolve to is up to DNS.
func loopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func required(path string, f *jsonfile.Field, key string) (*jsonfile.Node, error) {
	if v := f.Value.Get(key); v != nil {
		return v, nil
	}
	return nil, f.Err(path, fmt.Sprintf("server %q has no %q", f.Key, key), "")
}

// hintTransport adds to an unknown-field error that the field belongs to the
// other transport.
func hintTransport(err error, other string) error {
	e, ok := jsonfile.AsError(err)
	if !ok {
		return err
	}
	for _, k := range []string{`"url"`, `"headers"`, `"command"`, `"args"`, `"env"`, `"cwd"`} {
		if strings.HasSuffix(e.Msg, k) {
			e.Fix = k + " belongs to the " + other + " transport; " + e.Fix
		}
	}
	return e
}

// serversTransport reads "transport" of a "servers" entry (required).
func serversTransport(f *jsonfile.Field) (string, error) {
	t := f.Value.Get("transport")
	if t == nil {
		fix := `add "transport": "stdio" or "transport": "streamable_http"`
		if f.Value.Get("type") != nil {
			fix = `the "servers" form names it "transport", not "type"`
		}
		return "", f.Value.Err(fmt.Sprintf("server %q has no \"transport\"", f.Key), fix)
	}
	v, err := t.AsString()
	if err != nil {
		return "", err
	}
	switch v {
	case tool.TransportStdio, tool.TransportStreamableHTTP:
		return v, nil
	case "sse":
		return "", t.Err("SSE transport is not supported; use streamable_http", "")
	}
	return "", t.Err(fmt.Sprintf("unknown transport %q", v), `use "stdio" or "streamable_http"`)
}

// ecosystemTransport infers the transport of an "mcpServers" entry from
// "command" or "url", checked against an optional "type".
func ecosystemTransport(path string, f *jsonfile.Field) (string, error) {
	e := f.Value
	cmd, u := e.Get("command") != nil, e.Get("url") != nil
	if t := e.Get("type"); t != nil {
		v, err := t.AsString()
		if err != nil {
			return "", err
		}
		var want string
		switch v {
		case "stdio":
			want = tool.TransportStdio
		case "http", "streamable_http", "streamableHttp":
			want = tool.TransportStreamableHTTP
		case "sse":
			return "", t.Err("SSE transport is not supported; use streamable_http", `serve the provider over streamable HTTP and set "type": "http"`)
		default:
			return "", t.Err(fmt.Sprintf("unknown type %q", v), `use "stdio" or "http"`)
		}
		if want == tool.TransportStdio && !cmd {
			return "", t.Err(fmt.Sprintf("server %q is of type %q but has no \"command\"", f.Key, v), "")
		}
		if want == tool.TransportStreamableHTTP && !u {
			return "", t.Err(fmt.Sprintf("server %q is of type %q but has no \"url\"", f.Key, v), "")
		}
	}
	switch {
	case cmd && u:
		return "", e.Get("url").Err(fmt.Sprintf("server %q has both \"command\" and \"url\"", f.Key), `keep "command" for a program to start or "url" for a running service`)
	case cmd:
		return tool.TransportStdio, nil
	case u:
		return tool.TransportStreamableHTTP, nil
	}
	return "", f.Err(path, fmt.Sprintf("server %q has neither \"command\" nor \"url\"", f.Key), `add "command" to start a program or "url" to reach a running service`)
}

// expandMap reads an object of strings and expands ${VAR} in each value.
// It also returns the values that came from the environment: secrets.
func expandMap(n *jsonfile.Node) (map[string]string, []string, error) {
	if err := n.Expect(jsonfile.Object); err != nil {
		return nil, nil, err
	}
	out := make(map[string]string, len(n.Fields))
	var secrets []string
	for _, f := range n.Fields {
		raw, err := f.Value.AsString()
		if err != nil {
			return nil, nil, err
		}
		v, vars, err := expandVars(raw)
		if err != nil {
			return nil, nil, f.Value.Err(fmt.Sprintf("%s: %v", f.Value.Name(), err), "")
		}
		secrets = append(secrets, vars...)
		out[f.Key] = v
	}
	return out, secrets, nil
}

// expandVars replaces ${VAR} with the environment variable VAR and "$$"
// with "$". Any other "$" is kept. It also returns the values substituted.
// The error never contains a value.
func expandVars(s string) (string, []string, error) {
	if !strings.Contains(s, "$") {
		return s, nil, nil
	}
	var vals []string
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		switch s[i+1] {
		case '$':
			b.WriteByte('$')
			i++
		case '{':
			end := strings.IndexByte(s[i+2:], '}')
			if end < 0 {
				return "", nil, fmt.Errorf("\"${\" is not closed; write ${NAME}, or $$ for a literal $")
			}
			name := s[i+2 : i+2+end]
			if !validVarName(name) {
				return "", nil, fmt.Errorf("%q is not a variable name; write ${NAME} with letters, digits and '_' (defaults like ${NAME:-x} are not supported)", name)
			}
			v, ok := lookupEnv(name)
			if !ok {
				return "", nil, fmt.Errorf("environment variable %s is not set; set it before starting OpenWorker (an unset variable is never replaced by an empty string)", name)
			}
			b.WriteString(v)
			vals = append(vals, v)
			i += 2 + end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), vals, nil
}

func validVarName(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
