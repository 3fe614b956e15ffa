package servers

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// The values of a config entry: its strings, key-value lists and inputs,
// and their ${…} substitution into the server (docs/servers.md).

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
