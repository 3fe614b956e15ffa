package extension

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/openworker/desktop/harness/extension/archive"
	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// Server returns the MCP provider of the installed extension r: its
// manifest read again from r.Dir, started as manifest.Launch says with
// r's values and its sensitive ones from the SecretStore (which become
// the provider's Secrets, redacted from everything it sends back). The
// provider is a stdio one in namespace r.Namespace; Source names the
// extension and its manifest file.
func (s *Store) Server(r Record, host manifest.Host) (tool.MCPServer, error) {
	file := filepath.Join(r.Dir, archive.ManifestName)
	srv := tool.MCPServer{Namespace: r.Namespace, Transport: tool.TransportStdio, Source: file}
	if fi, err := os.Stat(r.Dir); err != nil || !fi.IsDir() {
		return srv, fmt.Errorf("extension %s: the folder of version %s, %s, is missing; install the extension again (from %s: its settings are kept), or remove it",
			r.Name, r.Version, r.Dir, orUnknown(r.Source))
	}
	raw, err := jsonfile.ReadFile(file, manifest.MaxSize)
	if err != nil {
		return srv, fmt.Errorf("extension %s: %w; install it again (from %s)", r.Name, err, orUnknown(r.Source))
	}
	m, err := manifest.Parse(raw, file)
	if err != nil {
		return srv, fmt.Errorf("extension %s: %w", r.Name, err)
	}
	values := map[string]any{}
	for k, v := range r.Values {
		values[k] = v
	}
	var secrets []string
	for _, k := range r.Sensitive {
		v, err := s.secrets().Get(r.Name, k)
		if err != nil {
			return srv, err
		}
		if v != "" {
			values[k] = v
			secrets = append(secrets, v)
		}
	}
	l, err := m.Launch(manifest.LaunchInput{Host: host, Dir: r.Dir, Values: values})
	if err != nil {
		return srv, fmt.Errorf("extension %s %s: %w; change its settings or install it again", r.Name, r.Version, err)
	}
	srv.Program, srv.Args, srv.Env, srv.Dir, srv.Secrets = l.Command, l.Args, l.Env, l.Dir, secrets
	srv.Sandbox = placementFor(r, m)
	return srv, nil
}

// Servers returns the providers of every installed, enabled extension,
// and as broken the ones that cannot start from their record (a damaged
// folder, a value that no longer checks): each error names the extension
// and the fix, and disables only that provider.
func (s *Store) Servers(host manifest.Host) (servers []tool.MCPServer, broken []tool.BrokenMCP) {
	recs, errs := s.List()
	for _, err := range errs {
		broken = append(broken, tool.BrokenMCP{Source: s.Dir, Err: err, Extension: true})
	}
	for _, r := range recs {
		if r.Disabled {
			continue
		}
		srv, err := s.Server(r, host)
		if err != nil {
			broken = append(broken, tool.BrokenMCP{Namespace: r.Namespace, Source: srv.Source, Err: err, Entry: true, Extension: true})
			continue
		}
		servers = append(servers, srv)
	}
	return servers, broken
}

// Register registers in reg the providers of the installed extensions
// (Servers), as servers.RegisterServersFile does for a servers file: a broken
// one is recorded with reg.RegisterBroken, a namespace reg already has is
// that extension's error. A missing extensions folder registers nothing.
func (s *Store) Register(reg *tool.Registry, host manifest.Host) error {
	servers, broken := s.Servers(host) // a missing folder lists nothing
	var first error
	for _, b := range broken {
		if err := reg.RegisterBroken(b); err != nil && first == nil {
			first = err
		}
	}
	for _, srv := range servers {
		if err := reg.RegisterMCPEntry(srv); err != nil && first == nil {
			first = err
		}
	}
	return first
}
