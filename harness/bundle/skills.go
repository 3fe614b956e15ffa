package bundle

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// skillFields is the optional front matter of SKILL.md.
type skillFields struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
}

var skillKeys = []string{"name", "description"}

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

func (l *loader) loadSkill(name, path string) (Skill, []byte, *LoadError) {
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
	if fm.present {
		var sf skillFields
		m, lerr := l.decodeYAML(path, fm.yaml, &sf, skillKeys, "name", "description")
		if lerr != nil {
			return Skill{}, nil, lerr
		}
		if sf.Name != "" && sf.Name != name {
			line, col := m.at("name")
			return Skill{}, nil, l.errf(path, line, col, "make them equal", "skill name %s differs from its folder name %q", strconv.QuoteToASCII(sf.Name), name)
		}
		if err := checkText("description", sf.Description, true, MaxDescChars); err != nil {
			line, col := m.at("description")
			return Skill{}, nil, l.errf(path, line, col, "", "%v", err)
		}
		s.Description = sf.Description
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
