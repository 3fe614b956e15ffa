package agentimport

import (
	"archive/zip"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
)

// Agent Skills (agentskills.io): a folder holding SKILL.md, or a .zip of
// one. Skills are attached with bundle.AttachSkill, by its rules
// (docs/bundles.md#attaching-a-skill): into Options.Into's coworker, or
// into a new coworker that holds the skill.

// skillSource is a skill to attach: a folder or a .zip.
type skillSource struct {
	name string // the folder name it gets (AttachSkill's)
	src  string
}

// checkSkill attaches src to a throwaway bundle folder, as Apply will to
// the real one, and returns the skill's name: the same checks, so a
// skill that passes here attaches there.
func checkSkill(src string) (string, error) {
	tmp, err := os.MkdirTemp("", "openworker-skill-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	return bundle.AttachSkill(tmp, src)
}

// skillFields reads the name and description of the SKILL.md in dir
// (best effort: "" when they cannot be read).
func skillFields(skillMD string) (name, description string) {
	data, err := readFile(skillMD)
	if err != nil {
		return "", ""
	}
	md, err := splitMarkdown(skillMD, data)
	if err != nil || !md.hasFront {
		return "", ""
	}
	doc, err := parseYAML(skillMD, md.front, md.fmLine)
	if err != nil {
		return "", ""
	}
	name, _ = doc.str("name")
	description, _ = doc.str("description")
	return name, description
}

// zipSkillFields reads the name and description of the SKILL.md of a
// skill zip (at its top, or in its one folder).
func zipSkillFields(path string) (name, description string) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return "", ""
	}
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "SKILL.md" && !(strings.Count(f.Name, "/") == 1 && strings.HasSuffix(f.Name, "/SKILL.md")) {
			continue
		}
		if f.UncompressedSize64 > MaxSourceBytes {
			return "", ""
		}
		tmp, err := os.MkdirTemp("", "openworker-skillmd-")
		if err != nil {
			return "", ""
		}
		defer os.RemoveAll(tmp)
		r, err := f.Open()
		if err != nil {
			return "", ""
		}
		out := filepath.Join(tmp, "SKILL.md")
		w, err := os.Create(out)
		if err == nil {
			_, err = w.ReadFrom(r)
			w.Close()
		}
		r.Close()
		if err != nil {
			return "", ""
		}
		return skillFields(out)
	}
	return "", ""
}

// skillAgent is the coworker a skill imported alone becomes: named and
// described after it, holding it.
func skillAgent(path string, s skillSource, name, description string) *agentSource {
	if name == "" {
		name = s.name
	}
	return &agentSource{
		kind: KindSkill, path: path, name: name, description: description,
		instructions: fmt.Sprintf("You are %s. Follow the skill %q when it applies.", name, s.name),
		skills:       []skillSource{s},
		notes:        []string{"a skill imported alone becomes a coworker holding it; an import into an existing coworker adds it to that one instead"},
	}
}
