package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/sandbox"
)

// placementFor is the sandbox the server of r runs in
// (docs/extensions.md#sandbox): r.Sandbox, where ${provider_dir} is the
// extension's folder; with the default preset the folders and files the
// person chose in its settings (user_config fields of type directory and
// file) are added, folders to write and files to read, so that an
// extension works on what it was given. A folder that is a filesystem
// root, the home folder or a folder above it is never added (a manifest's
// default of ${HOME} would otherwise make the sandbox pointless for
// writes). Nil when r has no sandbox.
func placementFor(r Record, m *manifest.Manifest) *sandbox.Placement {
	if r.Sandbox == nil {
		return nil
	}
	p := *r.Sandbox
	p.Read = append([]string(nil), p.Read...)
	p.Write = append([]string(nil), p.Write...)
	if p.Preset != sandbox.PresetDefault {
		return &p
	}
	for _, f := range m.UserConfig {
		if f.Type != manifest.FieldDirectory && f.Type != manifest.FieldFile {
			continue
		}
		for _, v := range pathValues(r.Values[f.Key]) {
			if sandbox.CheckTemplate(v) != nil {
				continue // not an absolute path: nothing to add
			}
			if f.Type == manifest.FieldDirectory {
				if tooWide(v) {
					continue
				}
				p.Write = append(p.Write, v)
			} else {
				p.Read = append(p.Read, v)
			}
		}
	}
	p.Preset = "" // no longer the bare preset: its words list the chosen paths
	return &p
}

// tooWide reports whether dir is a filesystem root or holds the home
// folder.
func tooWide(dir string) bool {
	dir = filepath.Clean(dir)
	if filepath.Dir(dir) == dir {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return false
	}
	rel, err := filepath.Rel(dir, filepath.Clean(home))
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."))
}

func pathValues(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}

// SetSandbox sets the sandbox of the installed extension name (nil: none,
// it runs with the person's full access) and returns its record. New
// sessions start its server inside it; running ones keep theirs
// (docs/extensions.md#sandbox).
func (s *Store) SetSandbox(name string, p *sandbox.Placement) (Record, error) {
	if err := checkName(name); err != nil {
		return Record{}, err
	}
	unlock, err := s.lock()
	if err != nil {
		return Record{}, err
	}
	defer unlock()
	r, err := s.Get(name)
	if err != nil {
		return Record{}, err
	}
	r.Sandbox = p
	if err := s.save(r); err != nil {
		return Record{}, fmt.Errorf("extension %s: save its sandbox: %w", name, err)
	}
	return r, nil
}
