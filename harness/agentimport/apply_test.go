package agentimport

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
)

func writeFile(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// snapshot is every file under dir with a digest of its bytes (links as
// their targets), to tell that nothing changed.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case e.Type()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			out[rel] = "link " + l
		case e.IsDir():
			out[rel] = "dir"
		default:
			data, _ := os.ReadFile(p)
			out[rel] = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		return nil
	})
	return out
}

// fixture is a coworkers folder with a coworker "writer" that lists its
// skills, a servers file, and sources: two subagents, a recipe that
// brings a server, and a skill for writer.
type fixture struct {
	cw, servers string
	sources     []string
}

func newFixture(t *testing.T) fixture {
	dir := t.TempDir()
	f := fixture{cw: filepath.Join(dir, "coworkers"), servers: filepath.Join(dir, "servers.json")}
	writeFile(t, f.servers, `{"servers": {"kept": {"transport": "stdio", "command": "kept-mcp"}}}`+"\n")
	if _, err := bundle.Create(f.cw, bundle.Draft{ID: "writer", Name: "Writer", Instructions: "Write.", Skills: []string{}}); err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(dir, "src")
	f.sources = []string{
		writeFile(t, filepath.Join(src, "one.md"), "---\nname: one\ndescription: First.\ntools: Read\n---\nOne.\n"),
		writeFile(t, filepath.Join(src, "two.md"), "---\nname: two\ndescription: Second.\n---\nTwo.\n"),
		writeFile(t, filepath.Join(src, "recipe.yaml"), "title: Three\ninstructions: Three.\nextensions:\n  - type: stdio\n    name: added\n    cmd: added-mcp\n    available_tools: [go]\n"),
		writeFile(t, filepath.Join(src, "skill", "SKILL.md"), "---\nname: skill\ndescription: A skill.\n---\nDo it.\n"),
	}
	f.sources[3] = filepath.Dir(f.sources[3])
	return f
}

func (f fixture) plan(t *testing.T) *Plan {
	t.Helper()
	p, err := Preview(f.sources, &Options{Coworkers: f.cw, Into: "writer", Servers: &ServersTarget{Current: f.servers, Dest: f.servers}})
	if err != nil || p.Refused() || len(p.Coworkers) != 4 || p.Servers.Added() != 1 {
		t.Fatalf("plan = %+v, %v", p, err)
	}
	return p
}

// TestApplyWritesAll: every coworker loads, writer has the skill in its
// folder and its list, the servers file has the new entry after the
// kept one, and no source file changed.
func TestApplyWritesAll(t *testing.T) {
	f := newFixture(t)
	before := snapshot(t, filepath.Dir(f.sources[0]))
	res, err := Apply(f.plan(t))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, w := range res.Coworkers {
		ids = append(ids, w.ID)
		if _, err := bundle.Load(w.Dir); err != nil {
			t.Errorf("coworker %s does not load: %v", w.ID, err)
		}
	}
	if diff := cmp.Diff([]string{"one", "two", "three", "writer"}, ids); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
	d, _, _ := bundle.ReadDraft(filepath.Join(f.cw, "writer"))
	if !slices.Equal(d.Skills, []string{"skill"}) {
		t.Errorf("writer's skills = %q", d.Skills)
	}
	cfg, err := servers.ReadConfig(f.servers, nil)
	if err != nil || len(cfg.Entries) != 2 || cfg.Entries[0].Name != "kept" || cfg.Entries[1].Name != "added" {
		t.Errorf("servers file = %+v, %v", cfg, err)
	}
	if diff := cmp.Diff(before, snapshot(t, filepath.Dir(f.sources[0]))); diff != "" {
		t.Errorf("the sources changed (-before +after):\n%s", diff)
	}
	entries, _ := os.ReadDir(f.cw)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			t.Errorf("%s is left in the coworkers folder", e.Name())
		}
	}
}

// TestApplyFailureWritesNothing: a failure at any step (a rename of the
// second coworker into place, attaching a skill to writer, writing the
// servers file) leaves the coworkers folder and the servers file byte
// for byte as they were.
func TestApplyFailureWritesNothing(t *testing.T) {
	boom := errors.New("injected failure")
	steps := map[string]func(restore *[]func()){
		"second rename into place": func(restore *[]func()) {
			n := 0
			old := rename
			rename = func(from, to string) error {
				if !strings.Contains(filepath.Base(filepath.Dir(from)), ".import-") {
					return old(from, to)
				}
				if n++; n == 2 {
					return boom
				}
				return old(from, to)
			}
			*restore = append(*restore, func() { rename = old })
		},
		"attaching a skill to writer": func(restore *[]func()) {
			old := attachSkill
			attachSkill = func(dir, src string) (string, error) {
				if filepath.Base(dir) == "writer" {
					return "", boom
				}
				return old(dir, src)
			}
			*restore = append(*restore, func() { attachSkill = old })
		},
		"writing the servers file": func(restore *[]func()) {
			old := writeServers
			writeServers = func(*servers.ImportPlan, servers.KeepSecret) error { return boom }
			*restore = append(*restore, func() { writeServers = old })
		},
	}
	for name, inject := range steps {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t)
			p := f.plan(t)
			before, beforeServers := snapshot(t, f.cw), snapshot(t, filepath.Dir(f.servers))
			var restore []func()
			inject(&restore)
			defer func() {
				for _, r := range restore {
					r()
				}
			}()
			_, err := Apply(p)
			if !errors.Is(err, boom) || !strings.Contains(err.Error(), "nothing was written") {
				t.Fatalf("Apply = %v, want the injected failure and \"nothing was written\"", err)
			}
			if diff := cmp.Diff(before, snapshot(t, f.cw)); diff != "" {
				t.Errorf("the coworkers folder changed (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(beforeServers, snapshot(t, filepath.Dir(f.servers))); diff != "" {
				t.Errorf("the servers file's folder changed (-before +after):\n%s", diff)
			}
		})
	}
}
