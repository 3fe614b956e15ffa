package extension

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/extension/manifest"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
)

// placementFor is the sandbox the server of r runs in
// (docs/extensions.md#sandbox): r.Sandbox, where ${provider_dir} is the
// extension's folder; with the default preset the folders and files the
// person chose in its settings (user_config fields of type directory and
// file) are added, folders to write and files to read, so that an
// extension works on what it was given. A value can be the manifest's
// default, so what would make the sandbox pointless is never added
// (addable): a path that is not absolute or holds a sandbox variable
// (values are paths, never templates), a filesystem root, the home
// folder or a folder above it, a hidden folder or file of the home
// folder or anything inside one (keys, shell start-up files, autostart
// entries), and a folder that holds OpenWorker's own folder (<user config
// dir>/OpenWorker, whose servers.json and installed.json decide the
// sandboxes) or anything inside it, each also after following links. Nil
// when r has no sandbox.
func placementFor(r Record, m *manifest.Manifest) *tool.Sandbox {
	if r.Sandbox == nil {
		return nil
	}
	p := *r.Sandbox
	p.Read = append([]string(nil), p.Read...)
	p.Write = append([]string(nil), p.Write...)
	if p.Preset != tool.PresetDefault {
		return &p
	}
	home, _ := os.UserHomeDir()
	for _, f := range m.UserConfig {
		if f.Type != manifest.FieldDirectory && f.Type != manifest.FieldFile {
			continue
		}
		for _, v := range pathValues(r.Values[f.Key]) {
			if !addable(v, home, f.Type == manifest.FieldDirectory) {
				continue
			}
			if f.Type == manifest.FieldDirectory {
				p.Write = append(p.Write, v)
			} else {
				p.Read = append(p.Read, v)
			}
		}
	}
	p.Preset = "" // no longer the bare preset: its words list the chosen paths
	return &p
}

// addable reports whether the settings value v may be added to the
// default sandbox (placementFor): an absolute path without "${" that,
// as written and with its links followed, is not in the home folder's
// hidden folders and files and, for a folder, not a root nor holds the
// home folder.
func addable(v, home string, dir bool) bool {
	if !filepath.IsAbs(v) || strings.Contains(v, "${") {
		return false
	}
	paths := append([]string{filepath.Clean(v)}, resolved(v)...)
	homes := []string{home}
	if home != "" {
		homes = append(homes, resolved(home)...)
	}
	var own []string // OpenWorker's own folders, as written and resolved
	for _, o := range sandbox.OwnFolders() {
		own = append(append(own, o), resolved(o)...)
	}
	for _, p := range paths {
		if withheld(p, homes, own, dir) {
			return false
		}
	}
	return true
}

// resolved is p with its links followed, or nothing when they cannot be.
func resolved(p string) []string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return []string{r}
	}
	return nil
}

// withheld reports whether path p may not join the sandbox: hidden in one
// of homes or inside OpenWorker's own folder, or for a folder a root or
// one that holds them.
func withheld(p string, homes, own []string, dir bool) bool {
	for _, h := range homes {
		if dir && tooWide(p, h) || hiddenIn(p, h) {
			return true
		}
	}
	for _, o := range own {
		if dir && tooWide(p, o) || sandbox.Within(o, p) {
			return true
		}
	}
	return false
}

// tooWide reports whether dir is a filesystem root or holds home.
func tooWide(dir, home string) bool {
	if filepath.Dir(dir) == dir {
		return true
	}
	if home == "" {
		return false
	}
	return sandbox.Within(dir, home)
}

// hiddenIn reports whether p is a hidden folder or file of home ("~/.ssh",
// "~/.bashrc") or inside one.
func hiddenIn(p, home string) bool {
	if home == "" {
		return false
	}
	rel, err := filepath.Rel(filepath.Clean(home), p)
	if err != nil {
		return false
	}
	first, _, _ := strings.Cut(filepath.ToSlash(rel), "/")
	return first != "." && first != ".." && strings.HasPrefix(first, ".")
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
func (s *Store) SetSandbox(name string, p *tool.Sandbox) (Record, error) {
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
