package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
)

// skillKeys are the SKILL.md front matter keys of the Agent Skills
// specification (agentskills.io/specification). Other keys are notices.
var skillKeys = []string{"name", "description", "license", "compatibility", "allowed-tools", "metadata"}

// Limits of SKILL.md front matter fields, in characters: the Agent
// Skills specification's, and ours for license, which it leaves open. A
// description between maxSkillDescChars and MaxDescChars loads with a
// notice, as it did before the specification was followed.
const (
	maxSkillNameChars          = 64
	maxSkillDescChars          = 1024
	maxSkillCompatibilityChars = 500
	maxSkillLicenseChars       = 1024
)

// specNamePattern is the Agent Skills rule for a skill name: lowercase
// ASCII letters and digits, single hyphens between them, at most
// maxSkillNameChars (checked apart). The specification also allows
// lowercase letters of other scripts; a skill folder here is ASCII
// (skillPattern), so such a name is mended to ASCII (skillNameFor).
var specNamePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// specName reports whether s is a valid skill name by the Agent Skills
// specification.
func specName(s string) bool {
	return len(s) <= maxSkillNameChars && specNamePattern.MatchString(s)
}

// skillNameFor is the Agent Skills name a skill named s is given
// ("PDF Processing" gives "pdf-processing", "Café_notes" "cafe-notes"):
// "" when s has no ASCII letter or digit.
func skillNameFor(s string) string { return slug(s, maxSkillNameChars) }

// loadSkills loads the skills the manifest lists, or, when it has no
// "skills" field, every folder under coworker/skills (sorted by name).
func (l *loader) loadSkills(cw, mpath string, m *yamlMap, listed []string, b *Bundle) ([]file, *LoadError) {
	dir := filepath.Join(cw, "skills")
	names := listed
	onDisk := m.entry("skills") == nil // found on disk, not listed
	if onDisk {
		var lerr *LoadError
		if names, lerr = l.skillFolders(dir); lerr != nil {
			return nil, lerr
		}
	}
	seen := map[string]int{}
	var files []file
	for i, name := range names {
		line, col := m.item("skills", i)
		where := func(format string, args ...any) (string, int, int, string) {
			if onDisk {
				return filepath.Join(dir, name), 0, 0, fmt.Sprintf(format, args...)
			}
			return mpath, line, col, fmt.Sprintf(format, args...)
		}
		if !skillPattern.MatchString(name) {
			f, ln, c, msg := where("skill %s is not a valid skill folder name", strconv.QuoteToASCII(name))
			return nil, l.errf(f, ln, c, "use 1 to 64 letters, digits, '_' or '-'", "%s", msg)
		}
		if j, dup := seen[name]; dup {
			fl, fc := m.item("skills", j)
			return nil, l.errf(mpath, line, col, "list it once", "skill %q is listed twice (first at line %d, column %d)", name, fl, fc)
		}
		seen[name] = i
		path := filepath.Join(dir, name, "SKILL.md")
		missing, lerr := l.findSkill(path)
		if lerr != nil {
			return nil, lerr
		}
		if missing {
			f, ln, c, msg := where("skill %q has no coworker/skills/%s/SKILL.md", name, name)
			return nil, l.errf(f, ln, c, "create it, or remove the skill from the list", "%s", msg)
		}
		s, data, lerr := l.loadSkill(name, path)
		if lerr != nil {
			return nil, lerr
		}
		b.Skills = append(b.Skills, s)
		files = append(files, file{"coworker/skills/" + name + "/SKILL.md", data})
	}
	return files, nil
}

// skillFolders lists the folders in the skills folder dir, sorted, but
// those whose names start with "."; no folder, no skills.
func (l *loader) skillFolders(dir string) ([]string, *LoadError) {
	real, lerr := l.confine(dir)
	if lerr != nil {
		return nil, lerr
	}
	entries, err := os.ReadDir(real)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, l.errf(dir, 0, 0, "", "cannot read the skills folder: %v", err)
	}
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			if st, err := os.Stat(filepath.Join(real, e.Name())); err == nil && st.IsDir() {
				names = append(names, e.Name())
			}
		}
	}
	sort.Strings(names)
	return names, nil
}

// findSkill confines a skill's SKILL.md (path) and its folder, and reports
// whether the file is missing.
func (l *loader) findSkill(path string) (missing bool, _ *LoadError) {
	// Resolve the folder, then the file, so that a link is named
	// before "missing" is reported for what it leads to.
	if _, lerr := l.confine(filepath.Dir(path)); lerr != nil {
		return false, lerr
	}
	real, lerr := l.confine(path)
	if lerr != nil {
		return false, lerr
	}
	_, err := os.Stat(real)
	return errors.Is(err, fs.ErrNotExist), nil
}

// loadSkill loads the SKILL.md at path of the skill folder name. Its front
// matter is read by the Agent Skills specification: its six keys are
// decoded and checked, other keys are notices, and so are a missing name
// or description, a name or description the specification would refuse
// that loaded before it was followed (docs/bundles.md#skills).
func (l *loader) loadSkill(name, path string) (Skill, []byte, *LoadError) {
	first := len(l.notices)
	defer func() { // this skill's notices in file order
		ns := l.notices[first:]
		sort.SliceStable(ns, func(i, j int) bool {
			return ns[i].Line < ns[j].Line || ns[i].Line == ns[j].Line && ns[i].Col < ns[j].Col
		})
	}()
	data, lerr := l.read(path, MaxMarkdownBytes, "")
	if lerr != nil {
		return Skill{}, nil, lerr
	}
	if line, col := invalidUTF8OrNUL(data); line > 0 {
		return Skill{}, nil, l.errf(path, line, col, "save it as UTF-8 text", "SKILL.md holds a NUL byte or invalid UTF-8")
	}
	fm, err := splitFrontMatter(data)
	if err != nil {
		return Skill{}, nil, l.errf(path, 1, 1, `add a line "---" after the last field of the front matter`, "the front matter opened on line 1 is not closed")
	}
	s := Skill{Name: name, Path: path, Body: strings.TrimSpace(fm.body)}
	var m *yamlMap
	if fm.present {
		if m, lerr = l.skillFrontMatter(path, fm.yaml, &s); lerr != nil {
			return Skill{}, nil, lerr
		}
	} else {
		l.notef(path, 1, 1, fmt.Sprintf(`begin SKILL.md with front matter: a line "---", "name: %s", "description: " what the skill does and when to use it, and a line "---"`, suggestSkillName(name)),
			"SKILL.md has no front matter; the Agent Skills specification asks for a name and a description")
	}
	if lerr := l.checkSkillName(path, m, name); lerr != nil {
		return Skill{}, nil, lerr
	}
	if fm.present && strings.TrimSpace(s.Description) == "" {
		line, col := m.at("description")
		l.notef(path, line, col, "add a line \"description: \" saying what the skill does and when to use it", "skill %q has no description; the model is shown only its name, so it cannot tell when to load it", name)
	}
	if s.Body == "" {
		line := fm.bodyLine - 1 // the closing "---"
		if !fm.present {
			line = 1
		}
		return Skill{}, nil, l.errf(path, line, 1, "write the skill's instructions", "SKILL.md has no instructions")
	}
	return s, data, nil
}

// suggestSkillName is the name a fix suggests for the skill folder name.
func suggestSkillName(name string) string {
	if n := skillNameFor(name); n != "" {
		return n
	}
	return "my-skill"
}

// skillFrontMatter decodes the front matter of the SKILL.md at path into
// s, field by field: a key of the specification with a value of the
// wrong kind is an error at the value, an unknown key a notice.
func (l *loader) skillFrontMatter(path string, src []byte, s *Skill) (*yamlMap, *LoadError) {
	m, _, lerr := l.parseYAML(path, src, skillKeys)
	if lerr != nil {
		return nil, lerr
	}
	var front string // the name, checked by checkSkillName
	for _, e := range m.entries {
		key := e.Key.GetToken().Value
		if !slices.Contains(skillKeys, key) {
			line, col := pos(e.Key)
			l.notef(path, line, col, "remove it, or move it under \"metadata:\"",
				"SKILL.md front matter has the key %s, which the Agent Skills specification does not define; it is ignored (the keys are %s)", strconv.QuoteToASCII(key), strings.Join(skillKeys, ", "))
		}
	}
	texts := []struct {
		key       string
		dst       *string
		multiline bool
		max       int
		fix       string
	}{
		{"name", &front, false, MaxNameChars, "write the skill's name on one line"},
		{"description", &s.Description, true, MaxDescChars, fmt.Sprintf("shorten it to at most %d characters (the Agent Skills specification's limit); move details into the body", maxSkillDescChars)},
		{"license", &s.License, true, maxSkillLicenseChars, "name the license (Apache-2.0), or the file in the skill folder that holds it (LICENSE.txt)"},
		{"compatibility", &s.Compatibility, true, maxSkillCompatibilityChars, fmt.Sprintf("shorten it to at most %d characters (the Agent Skills specification's limit)", maxSkillCompatibilityChars)},
	}
	for _, t := range texts {
		if lerr := l.textNode(path, m, t.key); lerr != nil {
			return nil, lerr
		}
		n := m.value(t.key)
		if n == nil {
			*t.dst = ""
			continue
		}
		var v string
		if err := yaml.NodeToValue(n, &v); err != nil {
			return nil, l.yamlError(path, err, skillKeys)
		}
		if err := checkText(t.key, v, t.multiline, t.max); err != nil {
			line, col := pos(n)
			return nil, l.errf(path, line, col, t.fix, "%v", err)
		}
		*t.dst = v
	}
	if n := utf8.RuneCountInString(s.Description); n > maxSkillDescChars {
		line, col := m.at("description")
		l.notef(path, line, col, texts[1].fix, "the description of skill %q is %d characters; the Agent Skills specification allows at most %d", s.Name, n, maxSkillDescChars)
	}
	var lerr2 *LoadError
	if s.AllowedTools, lerr2 = l.allowedTools(path, m); lerr2 != nil {
		return nil, lerr2
	}
	if s.Metadata, lerr2 = l.skillMetadata(path, m); lerr2 != nil {
		return nil, lerr2
	}
	return m, nil
}

// allowedTools decodes "allowed-tools": a space-delimited text ("Bash(git
// add:*) Read", split at blanks and commas outside parentheses) or a
// list of texts.
func (l *loader) allowedTools(path string, m *yamlMap) ([]string, *LoadError) {
	n := m.value("allowed-tools")
	bad := func(n ast.Node) *LoadError {
		line, col := pos(n)
		return l.errf(path, line, col, "write the tool names on one line separated by spaces (allowed-tools: Read Grep), or as a list",
			"front matter: allowed-tools must be text or a list of texts, not %s", strings.ToLower(n.Type().String()))
	}
	var names []string
	switch v := n.(type) {
	case nil, *ast.NullNode:
		return nil, nil
	case *ast.StringNode, *ast.LiteralNode:
		var text string
		if err := yaml.NodeToValue(v, &text); err != nil {
			return nil, l.yamlError(path, err, skillKeys)
		}
		names = splitTools(text)
	case *ast.SequenceNode:
		for _, item := range v.Values {
			switch item.(type) {
			case *ast.StringNode, *ast.LiteralNode:
			default:
				return nil, bad(item)
			}
			var text string
			if err := yaml.NodeToValue(item, &text); err != nil {
				return nil, l.yamlError(path, err, skillKeys)
			}
			if text = strings.TrimSpace(text); text != "" {
				names = append(names, text)
			}
		}
	default:
		return nil, bad(n)
	}
	for _, name := range names {
		if err := checkText("allowed-tools", name, false, MaxNameChars); err != nil {
			line, col := pos(n)
			return nil, l.errf(path, line, col, "remove it", "%v", err)
		}
	}
	return names, nil
}

// splitTools splits an allowed-tools text at blanks and commas outside
// parentheses: "Bash(git add:*) Read, Grep" gives "Bash(git add:*)",
// "Read", "Grep".
func splitTools(s string) []string {
	var out []string
	depth, start := 0, -1
	for i, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')' && depth > 0:
			depth--
		case depth == 0 && (r == ',' || unicode.IsSpace(r)):
			if start >= 0 {
				out = append(out, s[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

// skillMetadata decodes "metadata": a mapping whose values are texts; a
// number or true/false is kept as written, a list or mapping is a
// notice and left out.
func (l *loader) skillMetadata(path string, m *yamlMap) (map[string]string, *LoadError) {
	n := m.value("metadata")
	if n == nil {
		return nil, nil
	}
	if _, null := n.(*ast.NullNode); null {
		return nil, nil
	}
	sub := m.sub("metadata")
	if sub == nil {
		line, col := pos(n)
		return nil, l.errf(path, line, col, `write "metadata:" on its own line and "key: value" lines indented under it`,
			"front matter: metadata must be a mapping of names to texts, not %s", strings.ToLower(n.Type().String()))
	}
	out := map[string]string{}
	for _, e := range sub.entries {
		key := e.Key.GetToken().Value
		if err := checkText("a metadata key", key, false, MaxNameChars); err != nil {
			line, col := pos(e.Key)
			return nil, l.errf(path, line, col, "rename it", "%v", err)
		}
		var v string
		switch val := e.Value.(type) {
		case *ast.StringNode, *ast.LiteralNode:
			if err := yaml.NodeToValue(val, &v); err != nil {
				return nil, l.yamlError(path, err, skillKeys)
			}
		case *ast.IntegerNode, *ast.FloatNode, *ast.BoolNode, *ast.InfinityNode, *ast.NanNode:
			v = val.GetToken().Value
		case *ast.NullNode:
		default:
			line, col := pos(e.Value)
			l.notef(path, line, col, "write the value as text", "metadata %s is %s, not text; it is ignored", strconv.QuoteToASCII(key), strings.ToLower(e.Value.Type().String()))
			continue
		}
		if err := checkText("metadata "+strconv.QuoteToASCII(key), v, true, MaxDescChars); err != nil {
			line, col := pos(e.Value)
			return nil, l.errf(path, line, col, "shorten it", "%v", err)
		}
		out[key] = v
	}
	return out, nil
}

// checkSkillName checks the name of the skill in folder name, its
// SKILL.md at path with front matter m (nil when it has none): a front
// matter name that is neither the folder's name nor reads as it
// (skillNameFor) is an error; a missing name, or one the Agent Skills
// specification would refuse, is a notice.
func (l *loader) checkSkillName(path string, m *yamlMap, name string) *LoadError {
	var front string
	if n := m.value("name"); n != nil {
		_ = yaml.NodeToValue(n, &front) // checked by skillFrontMatter
	}
	line, col := m.at("name")
	switch {
	case front != "" && front != name && skillNameFor(front) != name:
		fix := fmt.Sprintf("make them equal: write \"name: %s\"", name)
		if n := skillNameFor(front); n != "" {
			fix = fmt.Sprintf("make them equal: rename the folder to %q, or write \"name: %s\"", n, name)
		}
		return l.errf(path, line, col, fix, "skill name %s differs from its folder name %q", strconv.QuoteToASCII(front), name)
	case front != "" && front != name:
		l.notef(path, line, col, fmt.Sprintf("write \"name: %s\"", name),
			"skill name %s is not a valid Agent Skills name (lowercase letters, digits and single hyphens); it is read as its folder's name %q", strconv.QuoteToASCII(front), name)
	case !specName(name):
		l.notef(filepath.Dir(path), 0, 0, fmt.Sprintf("rename the folder to %q (and its name: in SKILL.md)", suggestSkillName(name)),
			"skill folder name %q is not a valid Agent Skills name: lowercase letters, digits and single hyphens, at most %d characters", name, maxSkillNameChars)
	case m != nil && front == "":
		l.notef(path, line, col, fmt.Sprintf("add a line \"name: %s\"", name), "SKILL.md front matter has no name; the Agent Skills specification asks for one, equal to the folder's name")
	}
	return nil
}
