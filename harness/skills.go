package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/tool"
)

// Skills by progressive disclosure (docs/bundles.md#skills-tools): the
// system prompt lists each skill's name and description only, and a
// coworker with skills gets two native tools the harness provides, not
// tools.json: skills.load returns a skill's SKILL.md body, skills.read a
// text file of a skill's folder. They read the coworker's own files, so
// they need no consent (consent.SourceSkills); every call is journaled
// like any other. Neither runs anything: scripts/ are read as text or
// not at all, and a skill's allowed-tools grants nothing.
const (
	SkillsLoad = tool.SkillsNamespace + ".load"
	SkillsRead = tool.SkillsNamespace + ".read"
	// MaxSkillFileBytes bounds a file skills.read returns (256 KiB), or
	// the runtime's Limits.ResultBytes when that is smaller.
	MaxSkillFileBytes = 256 << 10
	// SkillsAccess is the ResolvedTool.Access of the skills tools.
	SkillsAccess = "reads only this coworker's skill folders"
)

// skillsVersion is the descriptor version of the skills tools: bump it
// when what they do or take changes.
const skillsVersion = "1.0.0"

// skillTool is skills.load (read false) or skills.read of one bundle's
// skills. max bounds what skills.read returns.
type skillTool struct {
	b    *bundle.Bundle
	read bool
	max  int
}

// skillTools returns the skills tools of b, none when it has no skills.
// resultBytes is the runtime's Limits.ResultBytes (0: no smaller bound).
func skillTools(b *bundle.Bundle, resultBytes int) []skillTool {
	if len(b.Skills) == 0 {
		return nil
	}
	max := MaxSkillFileBytes
	if resultBytes > 0 {
		max = min(max, resultBytes)
	}
	return []skillTool{{b: b, max: max}, {b: b, read: true, max: max}}
}

func (t skillTool) Descriptor() tool.Descriptor {
	names := make([]string, len(t.b.Skills))
	for i, s := range t.b.Skills {
		names[i] = s.Name
	}
	name := map[string]any{"type": "string", "enum": names, "description": "the skill's name, as your instructions list it"}
	d := tool.Descriptor{Version: skillsVersion, Risk: tool.ReadOnly, Cancellation: tool.Cooperative, Classification: tool.Internal}
	var schema map[string]any
	if t.read {
		d.Name = SkillsRead
		d.Description = "Read a file of one of your skills: a path relative to the skill's folder that its instructions name, such as references/REFERENCE.md. Returns the file's text (UTF-8, at most " + fmt.Sprint(t.max>>10) + " KiB). Nothing is run."
		schema = map[string]any{"type": "object", "properties": map[string]any{
			"name": name,
			"path": map[string]any{"type": "string", "description": "the file's path inside the skill's folder, with / between folders"},
		}, "required": []string{"name", "path"}, "additionalProperties": false}
	} else {
		d.Name = SkillsLoad
		d.Description = "Load the instructions of one of your skills (its SKILL.md). Call it before you act on a task a skill's description matches, and follow what it says."
		schema = map[string]any{"type": "object", "properties": map[string]any{"name": name}, "required": []string{"name"}, "additionalProperties": false}
	}
	d.InputSchema, _ = json.Marshal(schema)
	return d
}

func (t skillTool) Call(ctx context.Context, c *tool.Call, args json.RawMessage) (tool.Output, error) {
	var in struct{ Name, Path string }
	if err := json.Unmarshal(args, &in); err != nil {
		return tool.Output{}, &tool.ToolError{Code: "invalid_arguments", Message: err.Error()}
	}
	i := slices.IndexFunc(t.b.Skills, func(s bundle.Skill) bool { return s.Name == in.Name })
	if i < 0 {
		return tool.Output{}, &tool.ToolError{Code: "unknown_skill", Message: fmt.Sprintf("this coworker has no skill %q; its skills: %s", in.Name, strings.Join(skillNames(t.b), ", "))}
	}
	s := t.b.Skills[i]
	if !t.read {
		if len(s.Body) > t.max {
			return tool.Output{}, &tool.ToolError{Code: "too_large", Message: fmt.Sprintf("the instructions of skill %q are %d bytes, over the %d bytes a result may hold", s.Name, len(s.Body), t.max)}
		}
		return tool.Output{Text: s.Body}, nil // as loaded: the bytes the bundle digest covers
	}
	text, err := readSkillFile(s, in.Path, t.max)
	if err != nil {
		return tool.Output{}, err
	}
	return tool.Output{Text: text}, nil
}

// skillNames lists the names of b's skills.
func skillNames(b *bundle.Bundle) []string {
	out := make([]string, len(b.Skills))
	for i, s := range b.Skills {
		out[i] = s.Name
	}
	return out
}

// readSkillFile reads the text file at the slash-separated path p inside
// skill s's folder, of at most max bytes. The path must be relative and
// stay in the folder: "..", an absolute path, a drive or a backslash is
// refused, and the file is opened through an os.Root of the folder, so a
// link that leads out of it is refused too. A refusal is a
// *tool.ToolError that says why.
func readSkillFile(s bundle.Skill, p string, max int) (string, error) {
	if err := checkSkillPath(s, p); err != nil {
		return "", err
	}
	root, err := os.OpenRoot(s.Dir())
	if err != nil {
		return "", skillRefusal("unreadable", "skill %q's folder cannot be opened: %v", s.Name, err)
	}
	defer root.Close()
	f, err := openSkillFile(root, s, p, max)
	if err != nil {
		return "", err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, int64(max)+1))
	switch {
	case err != nil:
		return "", skillRefusal("unreadable", "%q of skill %q cannot be read: %v", p, s.Name, unwrapPath(err))
	case len(data) > max: // it grew since Stat
		return "", skillRefusal("too_large", "%q of skill %q is over %d bytes; skills.read returns files of at most %d bytes", p, s.Name, max, max)
	case !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0:
		return "", skillRefusal("not_text", "%q of skill %q is not a text file (UTF-8 without NUL bytes); skills.read reads text only", p, s.Name)
	}
	return string(data), nil
}

// skillRefusal is the *tool.ToolError of a refused skills.read.
func skillRefusal(code, format string, args ...any) error {
	return &tool.ToolError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// checkSkillPath refuses a path that is not relative, slash-separated and
// inside skill s's folder.
func checkSkillPath(s bundle.Skill, p string) error {
	switch {
	case p == "":
		return skillRefusal("invalid_path", "the path is empty; name a file in skill %q's folder, such as references/REFERENCE.md", s.Name)
	case strings.HasPrefix(p, "/") || filepath.IsAbs(p) || filepath.VolumeName(p) != "":
		return skillRefusal("invalid_path", "%q is an absolute path; give the file's path inside skill %q's folder, such as references/REFERENCE.md", p, s.Name)
	case strings.ContainsAny(p, `\:`):
		return skillRefusal("invalid_path", "%q holds a backslash or a colon; write the path inside the skill's folder with / between folders, such as references/REFERENCE.md", p)
	case slices.Contains(strings.Split(p, "/"), ".."):
		return skillRefusal("invalid_path", "%q leads out of skill %q's folder (\"..\"); skills.read reads only files inside it", p, s.Name)
	case !fs.ValidPath(p):
		return skillRefusal("invalid_path", "%q is not a plain path inside the skill's folder (no empty, \".\" or \"..\" parts); write it like references/REFERENCE.md", p)
	}
	return nil
}

// openSkillFile opens p in root, refusing what is missing, leads out of
// root, is not a regular file or is over max bytes.
func openSkillFile(root *os.Root, s bundle.Skill, p string, max int) (*os.File, error) {
	f, err := root.Open(filepath.FromSlash(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, skillRefusal("not_found", "skill %q has no file %q", s.Name, p)
	case err != nil && escapes(root, p):
		return nil, skillRefusal("invalid_path", "%q is a link that leads out of skill %q's folder; skills.read reads only files inside it", p, s.Name)
	case err != nil:
		return nil, skillRefusal("unreadable", "%q of skill %q cannot be opened: %v", p, s.Name, unwrapPath(err))
	}
	st, err := f.Stat()
	switch {
	case err != nil:
		err = skillRefusal("unreadable", "%q of skill %q cannot be read: %v", p, s.Name, unwrapPath(err))
	case st.IsDir():
		err = skillRefusal("is_folder", "%q is a folder of skill %q; name a file in it%s", p, s.Name, listing(f))
	case !st.Mode().IsRegular():
		err = skillRefusal("unreadable", "%q of skill %q is not a regular file", p, s.Name)
	case st.Size() > int64(max):
		err = skillRefusal("too_large", "%q of skill %q is %d bytes; skills.read returns files of at most %d bytes", p, s.Name, st.Size(), max)
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// escapes reports whether p, which root could not open, is a link that
// leads out of root: a link in it whose target root refuses.
func escapes(root *os.Root, p string) bool {
	parts := strings.Split(p, "/")
	for i := range parts {
		sub := filepath.FromSlash(strings.Join(parts[:i+1], "/"))
		st, err := root.Lstat(sub)
		if err != nil {
			return false
		}
		if st.Mode()&fs.ModeSymlink != 0 {
			_, err := root.Stat(sub)
			return err != nil && !errors.Is(err, fs.ErrNotExist)
		}
	}
	return false
}

// unwrapPath is a *fs.PathError's cause, so a message does not repeat
// the folder's full path.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// listing names up to 20 entries of the folder f, for an error.
func listing(f *os.File) string {
	names, err := f.Readdirnames(21)
	if err != nil && len(names) == 0 {
		return ""
	}
	slices.Sort(names)
	more := ""
	if len(names) > 20 {
		names, more = names[:20], ", …"
	}
	return ": it holds " + strings.Join(names, ", ") + more
}

// addSkillTools adds the skills tools of the resolver's bundle after its
// selection: their names are reserved (tool.SkillsNamespace), so no
// selected tool has them, but their aliases still go by the rule.
func (r *resolver) addSkillTools(resultBytes int) *ResolveError {
	for _, st := range skillTools(r.b, resultBytes) {
		d := st.Descriptor().WithDefaults()
		t := ResolvedTool{Name: d.Name, Alias: tool.Alias(d.Name), Provider: ProviderNative, Remote: d.Name, Placement: tool.PlacementLocal,
			Access: SkillsAccess, Descriptor: d, native: st, skills: true}
		if err := r.addHarnessTool(t, "a coworker with skills"); err != nil {
			return err
		}
	}
	return nil
}

// addHarnessTool adds t, a tool the harness itself gives the coworker
// (skills.load, openworker.read_resource), to the resolution: its alias
// checked by the provider's rule and its descriptor pinned, as a
// selected native tool's. given says to whom it is given, for the error.
func (r *resolver) addHarnessTool(t ResolvedTool, given string) *ResolveError {
	if why := r.res.aliasProblem(t.Name, t.Alias, r.rule); why != "" {
		return &ResolveError{Coworker: r.b.ID, Tool: t.Name, Msg: "the tool the harness gives " + given + " cannot be offered: " + why}
	}
	t.pinned, _ = json.Marshal(t.Descriptor)
	pin, err := pinDescriptor(t.Descriptor)
	if err != nil {
		return &ResolveError{Coworker: r.b.ID, Tool: t.Name, Msg: err.Error()}
	}
	t.Pin = pin
	r.res.byAlias[t.Alias] = len(r.res.Tools)
	r.res.Tools = append(r.res.Tools, t)
	return nil
}

// skillsOutcome is the consent outcome of a call to a skills tool: allowed
// without asking, whatever the mode and the policies.
func skillsOutcome(name string) consent.Outcome {
	return consent.Outcome{Decision: consent.AllowOnce, Source: consent.SourceSkills,
		Reason: name + " reads this coworker's own skill files; it needs no approval"}
}

// skillsPrompt is the part of the system prompt that lists the skills:
// each one's name and description, and how to load it.
func skillsPrompt(b *bundle.Bundle) string {
	if len(b.Skills) == 0 {
		return ""
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n\n## Skills\n\nYou have these skills. When a task matches a skill's description, call %s with its name to load its instructions before you act, and follow them; call %s with its name and a path to read a file of the skill that its instructions name.\n\n",
		tool.Alias(SkillsLoad), tool.Alias(SkillsRead))
	for _, s := range b.Skills {
		desc := strings.Join(strings.Fields(s.Description), " ")
		if desc == "" {
			desc = "(no description)"
		}
		fmt.Fprintf(&sb, "- %s: %s\n", s.Name, desc)
	}
	return strings.TrimRight(sb.String(), "\n")
}
