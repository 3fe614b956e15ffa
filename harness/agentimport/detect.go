package agentimport

import (
	"archive/zip"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// readAgentFile reads a Markdown file as a Claude Code subagent or a VS
// Code agent or chat mode: nil (and no error) when it is none of them.
func readAgentFile(path string) (*agentSource, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	md, err := splitMarkdown(path, data)
	if err != nil {
		return nil, err
	}
	k, _ := vscodeKindOf(filepath.Base(path))
	doc := &yamlDoc{path: path}
	if md.hasFront {
		if doc, err = parseYAML(path, md.front, md.fmLine); err != nil {
			return nil, err
		}
	}
	switch {
	case k != "":
		return readVSCode(path, md, doc, k == KindVSCodeAgent)
	case looksClaudeAgent(doc):
		return readClaudeAgent(path, md, doc)
	}
	return nil, nil
}

// read reads one path given to Preview into b.
func (b *builder) read(path string) {
	st, err := os.Stat(path)
	if err != nil {
		b.problem("%s cannot be read: %v", path, err)
		return
	}
	if st.IsDir() {
		b.readFolder(path, true)
		return
	}
	b.readFile(path, true)
}

// readFolder reads a plugin, a skill, or a folder of agent files (such
// as .claude/agents or .github/agents).
func (b *builder) readFolder(dir string, given bool) {
	switch {
	case isPlugin(dir):
		b.readPlugin(dir)
		return
	case exists(filepath.Join(dir, "SKILL.md")):
		b.readSkill(dir, false, given)
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.problem("%s cannot be read: %v", dir, err)
		return
	}
	src := b.source(dir, "")
	others := 0
	outer := b.others
	b.others = &others
	defer func() { b.others = outer }()
	n := b.readHostFolders(dir)
	n += b.readEntries(dir, entries)
	switch {
	case n == 0:
		src.note("this folder holds no agent, recipe, skill or plugin OpenWorker imports")
	case others == 1:
		src.note("1 other file in it is no agent, recipe, skill or plugin; it is left out")
	case others > 1:
		src.note("%d other files in it are no agent, recipe, skill or plugin; they are left out", others)
	}
}

// readHostFolders reads the host folders (hostFolders) of a project
// folder dir and returns how many there were.
func (b *builder) readHostFolders(dir string) int {
	n := 0
	for _, sub := range hostFolders {
		p := filepath.Join(dir, filepath.FromSlash(sub))
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			b.readFolder(p, false)
			n++
		}
	}
	return n
}

// readEntries reads the entries of folder dir: its files, and the
// plugins and skills among its folders (hidden ones are passed over);
// it returns how many were of a known kind.
func (b *builder) readEntries(dir string, entries []os.DirEntry) int {
	n := 0
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), "."):
		case e.Type().IsRegular():
			if b.readFile(p, false) {
				n++
			}
		case e.IsDir() && (isPlugin(p) || exists(filepath.Join(p, "SKILL.md"))):
			b.readFolder(p, false)
			n++
		}
	}
	return n
}

// unknown says a file is of no known kind: a line of its own when it
// was named, else it is counted in its folder's line (a README, a
// license or a notice is not even counted).
func (b *builder) unknown(path string, given bool, line string) {
	switch {
	case given || b.others == nil:
		b.source(path, "").note("%s", line)
	case !quiet(filepath.Base(path)):
		*b.others++
	}
}

// hostFolders are where hosts keep a project's agents and skills.
var hostFolders = []string{".claude/agents", ".claude/skills", ".github/agents", ".github/chatmodes"}

// readFile reads one file; given says it was named by the person (so a
// file of no known kind gets its line either way, but a folder's
// README is passed over quietly). It reports whether the file was of a
// known kind.
func (b *builder) readFile(path string, given bool) bool {
	base := filepath.Base(path)
	lower := strings.ToLower(base)
	switch {
	case strings.HasSuffix(lower, ".zip"):
		return b.readZip(path, given)
	case base == "SKILL.md":
		b.readSkill(filepath.Dir(path), false, given)
		return true
	case strings.HasSuffix(lower, ".md"):
		return b.readAgentMarkdown(path, given)
	case strings.HasSuffix(lower, ".yaml"), strings.HasSuffix(lower, ".yml"), strings.HasSuffix(lower, ".json"):
		return b.readRecipeFile(path, given)
	}
	b.unknown(path, given, "not an agent, recipe, skill, plugin or export of a kind OpenWorker imports (docs/import-agents.md)")
	return false
}

// readAgentMarkdown reads a Markdown file as a Claude Code subagent or a
// VS Code agent or chat mode (readFile).
func (b *builder) readAgentMarkdown(path string, given bool) bool {
	base := filepath.Base(path)
	if _, other := vscodeKindOf(base); other != "" {
		b.source(path, "").note("%s is %s; it is left out", base, other)
		return false
	}
	a, err := readAgentFile(path)
	switch {
	case err != nil:
		b.unreadable(path, given, err)
		return false
	case a == nil:
		b.unknown(path, given, "not an agent of a known kind: a Claude Code subagent has front matter with name and description, a VS Code agent or chat mode is named *.agent.md or *.chatmode.md")
		return false
	}
	b.source(path, a.kind)
	b.agents = append(b.agents, a)
	return true
}

// readRecipeFile reads a YAML or JSON file as a Goose recipe (readFile);
// one that does not parse is unreadable when it was named or has a
// recipe's keys, else of no known kind.
func (b *builder) readRecipeFile(path string, given bool) bool {
	data, err := readFile(path)
	if err != nil {
		b.problem("%s cannot be read: %v", path, err)
		return false
	}
	doc, err := parseYAML(path, data, 1)
	switch {
	case err != nil && (given || hasRecipeKeys(data)):
		b.unreadable(path, given, err)
		return false
	case err != nil || !looksGooseRecipe(doc):
		b.unknown(path, given, "not a Goose recipe (a recipe has a title and instructions or a prompt)")
		return false
	}
	a, cfg, err := readGooseRecipe(path, doc)
	if err != nil {
		b.unreadable(path, given, err)
		return false
	}
	b.source(path, KindGooseRecipe)
	b.agents = append(b.agents, a)
	if cfg != nil {
		b.cfgs = append(b.cfgs, sourceConfig{cfg, path})
	}
	return true
}

// hasRecipeKeys reports whether data (which does not parse) has a
// recipe's keys: a title, and instructions or a prompt.
func hasRecipeKeys(data []byte) bool {
	return bytes.Contains(data, []byte("title:")) && (bytes.Contains(data, []byte("instructions:")) || bytes.Contains(data, []byte("prompt:")))
}

// unreadable says why a file of a known kind cannot be read: a problem
// (that refuses the import) when it was named, a note when it was found
// in a folder (the folder's other files are imported).
func (b *builder) unreadable(path string, given bool, err error) {
	if given {
		b.source(path, "")
		b.problem("%v", err)
		return
	}
	b.source(path, "").note("left out: %v", err)
}

// quiet reports whether a file found in a folder goes without a line:
// a README, a license or a notice.
func quiet(base string) bool {
	u := strings.ToUpper(base)
	for _, p := range []string{"README", "LICENSE", "LICENCE", "NOTICE", "COPYING", "CHANGELOG"} {
		if strings.HasPrefix(u, p) {
			return true
		}
	}
	return false
}

// readZip reads a .zip: an OpenWorker export, or a skill.
func (b *builder) readZip(path string, given bool) bool {
	zr, err := zip.OpenReader(path)
	if err != nil {
		b.unreadable(path, given, fmt.Errorf("%s is not a readable zip: %v", path, err))
		return false
	}
	isExport, isSkill := false, false
	for _, f := range zr.File {
		switch {
		case f.Name == exportMarker:
			isExport = true
		case f.Name == "SKILL.md" || strings.Count(f.Name, "/") == 1 && strings.HasSuffix(f.Name, "/SKILL.md"):
			isSkill = true
		}
	}
	zr.Close()
	switch {
	case isExport:
		b.readExport(path)
	case isSkill || given:
		b.readSkill(path, true, given)
	default:
		b.unknown(path, given, "a zip that is neither a skill nor an exported coworker")
		return false
	}
	return true
}

// readSkill reads a skill folder or zip (given: named by the person).
func (b *builder) readSkill(path string, isZip, given bool) {
	b.source(path, KindSkill)
	name, err := checkSkill(path)
	if err != nil {
		b.unreadable(path, given, err)
		return
	}
	s := skillSource{name: name, src: path}
	if b.opts.Into != "" {
		b.intoSkills = append(b.intoSkills, intoSkill{s, path})
		return
	}
	var n, d string
	if isZip {
		n, d = zipSkillFields(path)
	} else {
		n, d = skillFields(filepath.Join(path, "SKILL.md"))
	}
	b.agents = append(b.agents, skillAgent(path, s, n, d))
}

// readPlugin reads a Claude Code plugin.
func (b *builder) readPlugin(dir string) {
	src := b.source(dir, KindClaudePlugin)
	p, err := readPlugin(dir)
	if err != nil {
		b.problem("%v", err)
		return
	}
	for _, n := range p.notes {
		src.note("%s", n)
	}
	b.plugins = append(b.plugins, p.name)
	b.agents = append(b.agents, p.agents...)
	if p.servers != nil {
		b.cfgs = append(b.cfgs, sourceConfig{p.servers, dir})
	}
	if len(p.skills) == 0 {
		return
	}
	if b.opts.Into != "" {
		for _, s := range p.skills {
			b.intoSkills = append(b.intoSkills, intoSkill{s, dir})
		}
		return
	}
	a := &agentSource{kind: KindClaudePlugin, path: dir, name: p.name, description: p.description, skills: p.skills,
		notes: []string{"the plugin's skills go into a coworker named after the plugin; an import into an existing coworker adds them to it instead"}}
	if len(p.skills) == 1 {
		if f := p.skillFields[p.skills[0].name]; a.description == "" {
			a.description = f[1]
		}
	}
	a.instructions = fmt.Sprintf("You are %s. Follow the skills %s when they apply.", p.name, quoteList(skillNames(p.skills)))
	b.agents = append(b.agents, a)
}

func skillNames(ss []skillSource) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.name
	}
	return out
}

func quoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}

// source adds a Source line for path (once) and returns it.
func (b *builder) source(path string, kind Kind) sourceRef {
	for i, s := range b.plan.Sources {
		if s.Path == path {
			if kind != "" {
				b.plan.Sources[i].Kind = kind
			}
			return sourceRef{b, i}
		}
	}
	b.plan.Sources = append(b.plan.Sources, Source{Path: path, Kind: kind, Notes: []string{}})
	return sourceRef{b, len(b.plan.Sources) - 1}
}

// sourceRef is a Source being noted on.
type sourceRef struct {
	b *builder
	i int
}

func (s sourceRef) note(format string, args ...any) {
	s.b.plan.Sources[s.i].Notes = append(s.b.plan.Sources[s.i].Notes, fmt.Sprintf(format, args...))
}
