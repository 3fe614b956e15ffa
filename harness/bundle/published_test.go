package bundle

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// publishedSkills holds skills copied byte for byte from public skill
// collections at pinned commits; each collection's NOTICE.md names its
// source, commit and license.
const publishedSkills = "testdata/published-skills"

// TestPublishedSkills: spec-valid skills of two public collections
// (anthropics/skills, openai/skills) attach under their own names, with
// their resources, and load with their fields and no notice.
func TestPublishedSkills(t *testing.T) {
	tests := []struct {
		src, name, license string
		desc               string // the description's start
		metadata           map[string]string
		resource           string // a file of the skill besides SKILL.md
	}{
		{"anthropics-skills/skills/brand-guidelines", "brand-guidelines", "Complete terms in LICENSE.txt",
			"Applies Anthropic's official brand colors and typography", nil, "LICENSE.txt"},
		{"anthropics-skills/skills/internal-comms", "internal-comms", "Complete terms in LICENSE.txt",
			"A set of resources to help me write all kinds of internal communications", nil, "examples/3p-updates.md"},
		{"openai-skills/skills/.curated/gh-address-comments", "gh-address-comments", "",
			"Help address review/issue comments on the open GitHub PR", map[string]string{"short-description": "Address comments in a GitHub PR review"}, "scripts/fetch_comments.py"},
		{"openai-skills/skills/.experimental/create-plan", "create-plan", "",
			"Create a concise plan.", map[string]string{"short-description": "Create a plan"}, "LICENSE.txt"},
	}
	dir := newCoworker(t)
	for _, tc := range tests {
		src := filepath.Join(publishedSkills, filepath.FromSlash(tc.src))
		name, notices, err := AttachSkillWithNotices(dir, src)
		if err != nil || name != tc.name || len(notices) != 0 {
			t.Fatalf("AttachSkillWithNotices(%s) = %q, %q, %v; want %q and no notice", tc.src, name, notices, err, tc.name)
		}
		res := filepath.FromSlash(tc.resource)
		if got, want := readFile(t, filepath.Join(dir, "coworker", "skills", name, res)), readFile(t, filepath.Join(src, res)); got != want {
			t.Errorf("%s: %s was not copied as it is", tc.name, tc.resource)
		}
	}
	b, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Notices) != 0 {
		t.Errorf("notices: %q", b.Notices)
	}
	if len(b.Skills) != len(tests) {
		t.Fatalf("%d skills loaded, want %d", len(b.Skills), len(tests))
	}
	got := map[string]Skill{}
	for _, s := range b.Skills {
		got[s.Name] = s
	}
	for _, tc := range tests {
		s := got[tc.name]
		if !strings.HasPrefix(s.Description, tc.desc) || s.License != tc.license || !cmp.Equal(s.Metadata, tc.metadata) || s.Body == "" {
			t.Errorf("skill %s = description %q, license %q, metadata %v", tc.name, s.Description, s.License, s.Metadata)
		}
	}
}

// TestPublishedSkillsMended: published skills that break the
// specification (obra/superpowers v1.0.0: names with capitals and
// spaces, a name that differs from its folder, keys it does not define)
// attach under mended names and say so; put in a coworker by hand
// instead, the one whose name differs from its folder is refused at
// file, line and column with the fix.
func TestPublishedSkillsMended(t *testing.T) {
	const sp = "obra-superpowers/skills/"
	tests := []struct {
		src, name string
		notices   []string // fragments, in order
	}{
		{sp + "debugging/root-cause-tracing", "root-cause-tracing", []string{
			`root-cause-tracing/SKILL.md:2:7: skill name "Root Cause Tracing" (from its SKILL.md) is not a valid Agent Skills name (lowercase letters, digits and single hyphens); the skill is attached as coworker/skills/root-cause-tracing`,
			`root-cause-tracing/SKILL.md:2:7: skill name "Root Cause Tracing" is not a valid Agent Skills name (lowercase letters, digits and single hyphens); it is read as its folder's name "root-cause-tracing"`,
			`root-cause-tracing/SKILL.md:4:1: SKILL.md front matter has the key "when_to_use"`,
			`:5:1: SKILL.md front matter has the key "version"`,
			`:6:1: SKILL.md front matter has the key "languages"`,
		}},
		{sp + "collaboration/brainstorming", "brainstorming-ideas-into-designs", []string{
			`brainstorming/SKILL.md:2:7: skill name "Brainstorming Ideas Into Designs" (from its SKILL.md) is not a valid Agent Skills name (lowercase letters, digits and single hyphens); the skill is attached as coworker/skills/brainstorming-ideas-into-designs`,
			`brainstorming-ideas-into-designs/SKILL.md:2:7: skill name "Brainstorming Ideas Into Designs" is not a valid Agent Skills name`,
			`:4:1: SKILL.md front matter has the key "when_to_use"`,
			`:5:1: SKILL.md front matter has the key "version"`,
		}},
		{sp + "testing/condition-based-waiting", "condition-based-waiting", []string{
			`skill name "Condition-Based Waiting" (from its SKILL.md) is not a valid Agent Skills name`,
			`it is read as its folder's name "condition-based-waiting"`,
			`"when_to_use"`, `"version"`, `"languages"`,
		}},
	}
	dir := newCoworker(t)
	var loadNotices int
	for _, tc := range tests {
		src := filepath.Join(publishedSkills, filepath.FromSlash(tc.src))
		name, notices, err := AttachSkillWithNotices(dir, src)
		if err != nil || name != tc.name {
			t.Fatalf("AttachSkillWithNotices(%s) = %q, %v; want %q", tc.src, name, err, tc.name)
		}
		if len(notices) != len(tc.notices) {
			t.Fatalf("%s: notices = %q", tc.name, notices)
		}
		for i, f := range tc.notices {
			if !strings.Contains(notices[i].String(), f) {
				t.Errorf("%s: notice %d = %q\nwant it to hold %q", tc.name, i, notices[i], f)
			}
		}
		loadNotices += len(tc.notices) - 1 // all but the one about attaching
	}
	b, err := Load(dir)
	if err != nil || len(b.Skills) != len(tests) {
		t.Fatalf("Load = %+v, %v", b, err)
	}
	if len(b.Notices) != loadNotices {
		t.Errorf("Load gave %d notices, want %d: %q", len(b.Notices), loadNotices, b.Notices)
	}

	// By hand: the folder keeps its published name, which is not the skill's.
	cw := newCoworker(t)
	from := filepath.Join(publishedSkills, "obra-superpowers", "skills", "collaboration", "brainstorming", "SKILL.md")
	md := filepath.Join(cw, "coworker", "skills", "brainstorming", "SKILL.md")
	writeFile(t, md, readFile(t, from))
	_, err = Load(cw)
	var le *LoadError
	if !errors.As(err, &le) || le.File != md || le.Line != 2 || le.Col != 7 ||
		le.Error() != md+`:2:7: skill name "Brainstorming Ideas Into Designs" differs from its folder name "brainstorming"; make them equal: rename the folder to "brainstorming-ideas-into-designs", or write "name: brainstorming"` {
		t.Errorf("Load(a skill copied by hand) = %v", err)
	}
	if _, err := os.Stat(filepath.Join(publishedSkills, "obra-superpowers", "skills", "collaboration", "brainstorming-ideas-into-designs")); err == nil {
		t.Errorf("attaching wrote into the source")
	}
}
