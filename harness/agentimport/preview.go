package agentimport

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
)

// builder is one Preview under way.
type builder struct {
	opts       Options
	plan       *Plan
	agents     []*agentSource // each becomes a coworker, in read order
	intoSkills []intoSkill    // skills for Options.Into
	cfgs       []sourceConfig
	plugins    []string
	cleanup    []string // temporary folders to remove when Preview returns
	others     *int     // while a folder is read: its files of no known kind
}

// sourceConfig is the servers a source brings.
type sourceConfig struct {
	cfg  *servers.Config
	from string // the source's path
}

// intoSkill is a skill for Options.Into, with the source it came from.
type intoSkill struct {
	skillSource
	from string
}

func (b *builder) problem(format string, args ...any) {
	b.plan.Problems = append(b.plan.Problems, fmt.Sprintf(format, args...))
}

// ErrNoCoworkersFolder is returned by Preview for Options without
// Coworkers.
var ErrNoCoworkersFolder = errors.New("no coworkers folder to import into")

// Preview reads the sources at paths (files and folders of any Kind; a
// folder of agent files such as .claude/agents is read file by file)
// and returns what importing them into opts.Coworkers would do. Nothing
// is written: source files are only read, and a skill is checked by
// attaching it to a temporary folder. Apply does it.
//
// Each agent, recipe, plugin agent or export becomes a new coworker whose
// id is made from its name (bundle.NewID, free in the coworkers folder);
// a skill goes into opts.Into's coworker, or into a new coworker named
// after it (a plugin's skills: after the plugin). Tool names are mapped
// by the rules of docs/import-agents.md#mapping against opts.Catalog and
// the servers file; what does not map is in the coworker's Unmapped with
// why and is not granted. Fields that do not carry over are in Ignored.
// A path that is no source of a known kind gets a note in Sources.
//
// The error is only for opts that cannot be used (no coworkers folder);
// every problem of a source is in Plan.Problems (file, line and fix),
// and a plan with problems is refused by Apply.
func Preview(paths []string, opts *Options) (*Plan, error) {
	if opts == nil || opts.Coworkers == "" {
		return nil, ErrNoCoworkersFolder
	}
	b := &builder{opts: *opts, plan: &Plan{Coworkers: []*Coworker{}, Sources: []Source{}, Problems: []string{}, opts: *opts}}
	defer func() {
		for _, d := range b.cleanup {
			os.RemoveAll(d)
		}
	}()
	if len(paths) == 0 {
		b.problem("no file or folder to import; name agent files, recipes, skill folders, plugins or exported .zip files")
		return b.plan, nil
	}
	for _, p := range paths {
		b.read(p)
	}
	m := newMapper(opts.Catalog)
	m.plugins = b.plugins
	b.serversStep(m)
	b.coworkersStep(m)
	b.intoStep()
	if len(b.plan.Coworkers) == 0 && (b.plan.Servers == nil || b.plan.Servers.Added() == 0) && len(b.plan.Problems) == 0 {
		b.problem("nothing to import: none of the paths is an agent, recipe, skill, plugin or export of a kind OpenWorker imports (see each source's note)")
	}
	return b.plan, nil
}

// serversStep learns the servers file's namespaces and plans adding the
// servers the sources bring.
func (b *builder) serversStep(m *mapper) {
	st := b.opts.Servers
	if st != nil {
		cur := st.Current
		if cur == "" {
			cur = st.Dest
		}
		if cfg, err := servers.ReadConfig(cur, nil); err == nil {
			for _, e := range cfg.Entries {
				if e.Server.Namespace != "" && !e.Disabled {
					m.servers[e.Server.Namespace] = true
					m.byName[e.Name] = e.Server.Namespace
				}
			}
		}
	}
	if len(b.cfgs) == 0 {
		return
	}
	if st == nil {
		for _, sc := range b.cfgs {
			for _, e := range sc.cfg.Entries {
				why := "no servers file was given to add it to"
				m.notAdded[e.Name], m.notAdded[e.Server.Namespace] = why, why
				b.source(sc.from, "").note("MCP server %q is not added: %s", e.Name, why)
			}
		}
		return
	}
	merged := b.merge()
	current, err := servers.ImportKept(st.Current, st.Dest)
	if err != nil {
		b.problem("the servers the sources bring cannot be added: %v", err)
		return
	}
	plan, err := servers.PlanImportInto(merged, current, st.Dest, st.Taken)
	if err != nil {
		b.problem("the servers the sources bring cannot be added: %v", err)
		return
	}
	b.plan.Servers = plan
	for _, it := range plan.Items {
		switch it.Action {
		case servers.ImportAdd, servers.ImportSame:
			m.servers[it.Namespace] = true
			m.byName[it.Name] = it.Namespace
		default:
			m.notAdded[it.Name], m.notAdded[it.Namespace] = it.Why, it.Why
		}
	}
}

// merge joins the servers of every source into one config, each
// namespace once: a second entry of a namespace is dropped (said in the
// source's notes when it differs from the first).
func (b *builder) merge() *servers.Config {
	out := &servers.Config{Format: b.cfgs[0].cfg.Format}
	var paths []string
	first := map[string]servers.ConfigEntry{}
	for _, sc := range b.cfgs {
		cfg := sc.cfg
		paths = append(paths, cfg.Path)
		if cfg.Format != out.Format {
			out.Format = "several formats"
		}
		out.Notices = append(out.Notices, cfg.Notices...)
		for _, e := range cfg.Entries {
			ns := e.Server.Namespace
			if prev, dup := first[ns]; dup && ns != "" {
				a, _ := servers.MarshalServersFile([]servers.ConfigEntry{prev})
				c, _ := servers.MarshalServersFile([]servers.ConfigEntry{e})
				if string(a) != string(c) {
					b.source(sc.from, "").note("MCP server %q (%s) is left out: %s has another server of namespace %q, which is the one added",
						e.Name, e.Server.Source, prev.Server.Source, ns)
				}
				continue
			}
			first[ns] = e
			out.Entries = append(out.Entries, e)
		}
	}
	out.Path = strings.Join(paths, ", ")
	return out
}

// coworkersStep makes the coworker of each agent: id, mapped tools,
// draft, checked by the loader's rules.
func (b *builder) coworkersStep(m *mapper) {
	used := map[string]bool{}
	taken := func(id string) bool {
		if used[id] {
			return true
		}
		_, err := os.Lstat(filepath.Join(b.opts.Coworkers, id))
		return err == nil
	}
	for _, a := range b.agents {
		c := a.coworker(m)
		want := c.Name
		if a.export != nil {
			want = a.export.id
		}
		c.ID = bundle.NewID(want, taken)
		used[c.ID] = true
		if a.export != nil {
			if c.ID != a.export.id {
				c.note("its id %q is taken in the coworkers folder: it is imported as %q", a.export.id, c.ID)
			}
			b.exportDraft(a.export, c)
		} else {
			c.draft = bundle.Draft{ID: c.ID, Name: c.Name, Description: c.Description, Instructions: c.Instructions,
				Tools: slices.Clone(c.Tools), Model: c.Model}
			for _, p := range bundle.Validate(filepath.Join(b.opts.Coworkers, c.ID), c.draft) {
				b.problem("coworker %s (from %s) would not load: %s", c.ID, c.Source, p.Error())
			}
		}
		b.plan.Coworkers = append(b.plan.Coworkers, c)
	}
}

// intoStep adds the skills for Options.Into to its coworker.
func (b *builder) intoStep() {
	if b.opts.Into == "" {
		return
	}
	if !bundle.IDPattern.MatchString(b.opts.Into) {
		b.problem("%q, the coworker to add skills to, is not a coworker id", b.opts.Into)
		return
	}
	dir := filepath.Join(b.opts.Coworkers, b.opts.Into)
	d, problems, err := bundle.ReadDraft(dir)
	if err != nil {
		b.problem("no coworker %q to add skills to: %v", b.opts.Into, err)
		return
	}
	for _, p := range problems {
		b.problem("coworker %s, which the skills would go into, is broken: %s", b.opts.Into, p.Error())
	}
	c := &Coworker{ID: b.opts.Into, Name: d.Name, Description: d.Description, Into: true, Source: dir, Tools: d.Tools, Mapped: []Mapping{},
		Unmapped: []Unmapped{}, Skills: []string{}, Ignored: []Ignored{}, Notes: []string{}, draft: d}
	root := dir
	if t, linked := bundle.LinkTarget(dir); linked {
		root = t
	}
	for _, s := range b.intoSkills {
		if slices.Contains(c.Skills, s.name) {
			b.problem("two skills named %q go into coworker %s (from %s and another source); rename one", s.name, b.opts.Into, s.from)
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, "coworker", "skills", s.name)); err == nil {
			b.problem("coworker %s has a skill %q already; remove it from the coworker first, or rename the one to import (%s)", b.opts.Into, s.name, s.src)
			continue
		}
		c.Skills = append(c.Skills, s.name)
		c.skills = append(c.skills, s.skillSource)
	}
	if len(c.skills) == 0 {
		if len(b.intoSkills) == 0 {
			b.plan.Sources = append(b.plan.Sources, Source{Path: dir, Notes: []string{fmt.Sprintf("none of the paths is a skill, so nothing goes into coworker %s", b.opts.Into)}})
		}
		return
	}
	if d.Skills != nil {
		c.note("its manifest lists its skills: %s %s added to the list", quoteList(c.Skills), map[bool]string{true: "is", false: "are"}[len(c.Skills) == 1])
	}
	b.plan.Coworkers = append(b.plan.Coworkers, c)
}
