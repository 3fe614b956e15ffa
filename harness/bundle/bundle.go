// Package bundle loads coworker bundles (docs/bundles.md): one folder per coworker,
//
//	<bundles>/<id>/coworker/manifest.md              front matter + instructions
//	<bundles>/<id>/coworker/tools.json               the tool selection (v1, v2, v3)
//	<bundles>/<id>/coworker/skills/<skill>/SKILL.md  optional skills
//
// A manifest.md looks like
//
//	---
//	id: research
//	name: Research assistant
//	description: Finds and summarizes sources.
//	version: 1.2.0
//	skills: [citations]
//	policy:
//	  example.web_search: allow
//	  "*": ask
//	---
//	You help the user research a topic. ...
//
// Skills: when the front matter lists "skills", exactly those folders are
// loaded (each must hold a SKILL.md); without the field, every folder under
// coworker/skills is loaded, sorted by name. A skill is an Agent Skills
// folder (agentskills.io/specification): SKILL.md's front matter holds
// "name" (equal to its folder), "description", "license", "compatibility",
// "allowed-tools" and "metadata", and the folder may hold scripts/,
// references/ and assets/. What the specification refuses but loaded
// before it was followed (a legacy folder name, a long description), and
// keys it does not define, are Bundle.Notices, not errors.
//
// Files are read only when they are regular files inside the bundle: a
// symbolic link that leads out of the bundle folder (SKILL.md -> a secret
// elsewhere) is an error, as are named pipes and devices (paths.go).
//
// Every problem is a *LoadError naming the file, line and column and what to
// change. LoadDir never fails as a whole because one bundle is bad.
// Resolving the selection against the tool registry and MCP catalogs is the
// harness's job, not this package's.
//
// Bundles are also edited here (docs/bundles.md#editing), by the app's
// editor and `coworker` commands alike: ReadDraft reads a bundle, broken or
// not, as a Draft; Validate checks a Draft by the loader's own rules; Save
// writes it back atomically, keeping what it does not change byte for byte;
// Create makes a new bundle. Trash and Restore delete recoverably into
// <bundles>/.trash, which LoadDir skips like every name starting with ".";
// AttachSkill installs a skill folder or .zip, mending its name to the
// Agent Skills rule where it can (AttachSkillWithNotices says what it did).
//
//	d, problems, err := bundle.ReadDraft(dir) // problems: marked in the editor
//	d.Tools = append(d.Tools, "files.read")
//	err = bundle.Save(dir, d) // a *DraftError, or the bundle as it was on failure
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/tool"
)

// Size limits of bundle files; larger files are errors.
const (
	MaxMarkdownBytes    = 256 << 10 // manifest.md and each SKILL.md (256 KB)
	MaxFrontMatterBytes = 64 << 10  // the YAML front matter of either (64 KB)
	MaxNameChars        = 128       // characters of name
	MaxDescChars        = 2048      // characters of description
	MaxVersionChars     = 64        // characters of version
)

// IDPattern is the rule for a coworker id (docs/bundles.md); the folder must be
// named after it.
var IDPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// skillPattern is the rule for a skill folder name, as it was before the
// Agent Skills specification was followed: a folder it allows still
// loads, with a notice when the specification's rule (specNamePattern)
// refuses its name.
var skillPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$`)

// Bundle is one loaded coworker.
type Bundle struct {
	ID          string // matches IDPattern; equals the folder name
	Name        string // shown to the user; any script and emoji, no control characters
	Description string
	Version     string
	// Instructions is the Markdown body of manifest.md, trimmed: the
	// coworker's system instructions. Never empty.
	Instructions string
	Skills       []Skill
	// Policy maps a qualified tool name, or "*" for every tool, to
	// one of consent.Policies (manifest front matter "policy").
	Policy map[string]string
	// Sampling lists the MCP provider namespaces allowed to ask the
	// session's model for a completion (front matter "sampling",
	// docs/mcp.md#sampling); nil allows none.
	Sampling []string
	// RequiresSandbox is front matter "requires_sandbox": every MCP
	// provider OpenWorker starts for this coworker (stdio) must run in a
	// sandbox, or the bundle does not resolve (docs/bundles.md#requires-sandbox,
	// docs/sandbox.md). Native tools are trusted host code and providers
	// reached at a URL run elsewhere: neither is affected.
	RequiresSandbox bool
	// Limits is front matter "limits" (docs/limits.md#budgets); zero
	// fields: the settings' defaults.
	Limits Limits
	// Model is front matter "model": the name of the model this
	// coworker's chats ask the configured model provider for
	// (docs/bundles.md#model); "" means the provider's default. The
	// harness does not read it: the host that opens sessions does.
	Model string
	// Folder is front matter "folder": the coworker's working folder, an
	// absolute path (docs/bundles.md#folder). When set, it replaces the
	// host's workspace for this coworker's sessions and checks: tools get
	// it in tool.Call.Workspace and MCP providers as their root
	// (docs/mcp.md#roots). "" keeps the host's workspace.
	Folder string
	Tools  Selection // tools.json
	Dir    string    // the bundle folder, <bundles>/<id>, as given to Load
	// Digest is "sha256:<hex>" of the bundle's bytes (docs/identity.md): for each of
	// coworker/manifest.md, coworker/tools.json and every loaded
	// coworker/skills/<skill>/SKILL.md, sorted by that slash-separated path
	// relative to Dir, the path, a NUL byte, the byte length in decimal, a
	// NUL byte and the file's bytes.
	Digest string
	// Notices are what loading found that does not stop the bundle
	// loading, in file order (docs/bundles.md#notices): SKILL.md keys the
	// Agent Skills specification does not define, skill names and
	// descriptions it would refuse. `openworker check` shows them; nil
	// when there are none.
	Notices []Notice
}

// Skill is one skill of a coworker: coworker/skills/<Name>/SKILL.md, an
// Agent Skills folder (agentskills.io/specification, docs/bundles.md#skills).
// The folder may hold more files (scripts/, references/, assets/, ...),
// which the model reads through the skills.read tool; nothing runs them.
type Skill struct {
	// Name is the folder name. SKILL.md front matter "name" equals it,
	// or reads as it once lowercased with every other run of characters
	// one '-' ("PDF Processing" in folder pdf-processing, with a notice).
	Name        string
	Description string // front matter "description"; may be empty (a notice)
	Body        string // the Markdown body of SKILL.md, trimmed; never empty
	Path        string // path of SKILL.md
	// License is front matter "license": a license name or the name of
	// a file in the skill folder; "" when absent.
	License string
	// Compatibility is front matter "compatibility": what the skill
	// needs of its environment, at most 500 characters; "" when absent.
	Compatibility string
	// AllowedTools is front matter "allowed-tools" (a space-delimited
	// text or a list), each entry as written ("Bash(git:*)"). It is
	// shown, never granted: a coworker's tools are its tools.json.
	AllowedTools []string
	// Metadata is front matter "metadata", a map of text; a value
	// written as a number or true/false is kept as written. nil when
	// absent.
	Metadata map[string]string
}

// Dir is the skill's folder, which holds SKILL.md.
func (s Skill) Dir() string { return filepath.Dir(s.Path) }

// Set is the result of LoadDir: the bundles that loaded, sorted by id, and
// one error per bundle folder that did not, sorted by folder.
type Set struct {
	Bundles []*Bundle
	Errors  []*LoadError
	// Skipped are the entries of the folder that are not folders (a
	// notes.txt, a bundle still zipped, a broken link), in folder order;
	// names starting with "." are not listed.
	Skipped []string
}

// Get returns the bundle with id.
func (s *Set) Get(id string) (*Bundle, bool) {
	for _, b := range s.Bundles {
		if b.ID == id {
			return b, true
		}
	}
	return nil, false
}

// LoadDir loads every bundle folder in dir. Entries whose name starts with
// "." and entries that are not folders are ignored. A bad bundle adds one
// LoadError and the others still load; the error return is only for dir
// itself (missing or unreadable), and names it.
func LoadDir(dir string) (*Set, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("bundles folder %s does not exist; pass the folder that holds one sub-folder per coworker (<id>/coworker/manifest.md)", dir)
	}
	if err != nil {
		return nil, fmt.Errorf("bundles folder %s cannot be read: %w; %s", dir, err, unreadableFix(err))
	}
	set := &Set{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if st, err := os.Stat(p); err != nil || !st.IsDir() { // follows symlinks
			set.Skipped = append(set.Skipped, p)
			continue
		}
		b, err := Load(p)
		if err != nil {
			set.Errors = append(set.Errors, err.(*LoadError))
			continue
		}
		set.Bundles = append(set.Bundles, b)
	}
	sort.Slice(set.Bundles, func(i, j int) bool { return set.Bundles[i].ID < set.Bundles[j].ID })
	sort.Slice(set.Errors, func(i, j int) bool { return set.Errors[i].Dir < set.Errors[j].Dir })
	return set, nil
}

// Load loads the bundle in bundleDir (<bundles>/<id>). The error, if any, is
// a *LoadError.
func Load(bundleDir string) (b *Bundle, err error) {
	l := &loader{dir: bundleDir}
	l.resolveRoot()
	defer func() {
		// One bundle must never take the others down, even through a bug
		// in a parser; report it as this bundle's error instead.
		if p := recover(); p != nil {
			b, err = nil, l.errf(bundleDir, 0, 0, "please report this bug", "internal error while loading the bundle: %v", p)
		}
	}()
	b, lerr := l.load()
	if lerr != nil {
		return nil, lerr
	}
	return b, nil
}

// manifestFields is the front matter of manifest.md.
type manifestFields struct {
	ID          string            `yaml:"id"`
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Version     string            `yaml:"version"`
	Skills      []string          `yaml:"skills"`
	Policy      map[string]string `yaml:"policy"`
	Sampling    []string          `yaml:"sampling"`
	// RequiresSandbox: docs/bundles.md#requires-sandbox.
	RequiresSandbox bool `yaml:"requires_sandbox"`
	// Model: docs/bundles.md#model; Folder: docs/bundles.md#folder.
	Model  string `yaml:"model"`
	Folder string `yaml:"folder"`
	// Limits: docs/limits.md#budgets.
	Limits Limits `yaml:"limits"`
}

var manifestKeys = []string{"id", "name", "description", "version", "skills", "policy", "sampling", "requires_sandbox", "model", "folder", "limits"}

// file is one hashed file of the bundle.
type file struct {
	rel  string
	data []byte
}

func (l *loader) load() (*Bundle, *LoadError) {
	cw := filepath.Join(l.dir, "coworker")
	mpath := filepath.Join(cw, "manifest.md")
	mdata, lerr := l.read(mpath, MaxMarkdownBytes, "every bundle needs coworker/manifest.md: front matter with id and name, then the instructions")
	if lerr != nil {
		return nil, lerr
	}
	if line, col := invalidUTF8OrNUL(mdata); line > 0 {
		return nil, l.errf(mpath, line, col, "save it as UTF-8 text", "manifest.md holds a NUL byte or invalid UTF-8")
	}
	fm, err := splitFrontMatter(mdata)
	if err != nil {
		return nil, l.errf(mpath, 1, 1, `add a line "---" after the last field of the front matter`, "the front matter opened on line 1 is not closed")
	}
	if !fm.present {
		return nil, l.errf(mpath, 1, 1, `begin it with a line "---", then "id:" and "name:" lines, then a line "---"`, "manifest.md does not start with YAML front matter")
	}
	if pm, _, lerr := l.parseYAML(mpath, fm.yaml, manifestKeys); lerr == nil {
		if lerr := l.checkLimitsNode(mpath, pm); lerr != nil { // before decoding, which misreads them
			return nil, lerr
		}
	}
	var mf manifestFields
	m, lerr := l.decodeYAML(mpath, fm.yaml, &mf, manifestKeys, "id", "name", "description", "version", "model", "folder")
	if lerr != nil {
		return nil, lerr
	}
	b := &Bundle{ID: mf.ID, Name: mf.Name, Description: mf.Description, Version: mf.Version, Dir: l.dir, Policy: map[string]string{}, RequiresSandbox: mf.RequiresSandbox, Model: mf.Model, Folder: mf.Folder, Limits: mf.Limits}
	if lerr := l.checkIdentity(mpath, m, b); lerr != nil {
		return nil, lerr
	}
	if lerr := l.checkModelFolder(mpath, m, b); lerr != nil {
		return nil, lerr
	}
	if lerr := l.checkPolicy(mpath, m, mf.Policy, b); lerr != nil {
		return nil, lerr
	}
	if lerr := l.checkLimits(mpath, m, mf.Limits); lerr != nil {
		return nil, lerr
	}
	b.Instructions = strings.TrimSpace(fm.body)
	if b.Instructions == "" {
		return nil, l.errf(mpath, fm.bodyLine-1, 1, "write what the coworker does", "manifest.md has no instructions after the front matter")
	}
	tpath := filepath.Join(cw, "tools.json")
	tdata, lerr := l.read(tpath, MaxToolsFileBytes, `every bundle needs coworker/tools.json; for a coworker without tools write {"version": 3, "tools": []}`)
	if lerr != nil {
		return nil, lerr
	}
	if b.Tools, err = parseSelection(tpath, tdata); err != nil {
		return nil, l.fromJSON(tpath, err)
	}
	if lerr := l.checkPolicyNames(mpath, m, b); lerr != nil {
		return nil, lerr
	}
	if lerr := l.checkSampling(mpath, m, mf.Sampling, b); lerr != nil {
		return nil, lerr
	}
	files := []file{{"coworker/manifest.md", mdata}, {"coworker/tools.json", tdata}}
	skillFiles, lerr := l.loadSkills(cw, mpath, m, mf.Skills, b)
	if lerr != nil {
		return nil, lerr
	}
	b.Digest = digest(append(files, skillFiles...))
	b.Notices = l.notices
	return b, nil
}

// read reads a bundle file of at most limit bytes, refusing a link that
// leads out of the bundle (see confine).
func (l *loader) read(path string, limit int64, missingFix string) ([]byte, *LoadError) {
	if data, ok := l.overlay[l.rel(path)]; ok { // a draft being validated (draft.go)
		if int64(len(data)) > limit {
			return nil, l.errf(path, 0, 0, "make it smaller", "%s is %d bytes; the limit is %d", filepath.Base(path), len(data), limit)
		}
		return data, nil
	}
	real, lerr := l.confine(path)
	if lerr != nil {
		return nil, lerr
	}
	data, err := jsonfile.ReadFile(real, limit)
	switch {
	case err == nil:
		return data, nil
	case errors.Is(err, fs.ErrNotExist):
		return nil, l.errf(path, 0, 0, missingFix, "%s is missing", filepath.Base(path))
	}
	if e, ok := jsonfile.AsError(err); ok {
		e.File = path // name the file as the bundle has it, not where a link led
		return nil, l.fromJSON(path, e)
	}
	return nil, l.errf(path, 0, 0, unreadableFix(err), "cannot read: %v", err)
}

func (l *loader) checkIdentity(mpath string, m *yamlMap, b *Bundle) *LoadError {
	if b.ID == "" {
		line, col := m.at("id")
		return l.errf(mpath, line, col, "add a line like \"id: "+suggestID(filepath.Base(l.dir))+"\"", "front matter has no id")
	}
	if !IDPattern.MatchString(b.ID) {
		line, col := m.at("id")
		return l.errf(mpath, line, col, "use 1 to 64 lowercase letters, digits, '_' or '-', starting with a letter or digit", "id %s is not valid", strconv.QuoteToASCII(b.ID))
	}
	if folder := filepath.Base(l.dir); folder != b.ID {
		line, col := m.at("id")
		return l.errf(mpath, line, col, "rename the folder or change the id so they match", "id %q differs from its folder name %s", b.ID, strconv.QuoteToASCII(folder))
	}
	if strings.TrimSpace(b.Name) == "" {
		line, col := m.at("name")
		return l.errf(mpath, line, col, "add a line like \"name: Research assistant\"", "front matter has no name")
	}
	checks := []struct {
		key, val  string
		multiline bool
		max       int
	}{{"name", b.Name, false, MaxNameChars}, {"description", b.Description, true, MaxDescChars}, {"version", b.Version, false, MaxVersionChars}}
	for _, c := range checks {
		if err := checkText(c.key, c.val, c.multiline, c.max); err != nil {
			line, col := m.at(c.key)
			return l.errf(mpath, line, col, "remove it", "%v", err)
		}
	}
	return nil
}

func (l *loader) checkPolicy(mpath string, m *yamlMap, policy map[string]string, b *Bundle) *LoadError {
	pm := m.sub("policy")
	names := make([]string, 0, len(policy))
	for name := range policy {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool { // file order, so the first bad entry is reported
		li, ci := pm.keyPos(names[i])
		lj, cj := pm.keyPos(names[j])
		return li < lj || li == lj && ci < cj
	})
	for _, name := range names {
		v := policy[name]
		line, col := m.at("policy")
		if e := pm.entry(name); e != nil {
			line, col = pos(e.Key)
		}
		if name != "*" {
			if err := tool.CheckMCPName(name); err != nil {
				return l.errf(mpath, line, col, `or use "*" for every tool`, "policy: %v", err)
			}
		}
		if !consent.Policy(v).Valid() {
			if e := pm.entry(name); e != nil {
				line, col = pos(e.Value)
			}
			return l.errf(mpath, line, col, "use "+consent.OneOf(consent.Policies()), "policy for %q is %s", name, strconv.QuoteToASCII(v))
		}
		b.Policy[name] = v
	}
	return nil
}

// checkPolicyNames refuses a policy entry for a tool tools.json does not
// select: a misspelled name in a deny policy would otherwise deny nothing.
// With a v1 selection (whole providers) the entry's namespace must be one of
// the providers; the tool itself is checked at resolution.
func (l *loader) checkPolicyNames(mpath string, m *yamlMap, b *Bundle) *LoadError {
	selected := map[string]bool{}
	for _, n := range b.Tools.Explicit() {
		selected[n] = true
	}
	for _, ns := range b.Tools.WholeProviders() {
		selected[ns+".*"] = true
	}
	pm := m.sub("policy")
	names := make([]string, 0, len(b.Policy))
	for name := range b.Policy {
		names = append(names, name)
	}
	sort.Slice(names, func(i, j int) bool {
		li, ci := pm.keyPos(names[i])
		lj, cj := pm.keyPos(names[j])
		return li < lj || li == lj && ci < cj
	})
	for _, name := range names {
		if name == "*" || selected[name] {
			continue
		}
		if ns, _, err := tool.SplitName(name); err == nil && selected[ns+".*"] {
			continue
		}
		line, col := m.at("policy")
		if e := pm.entry(name); e != nil {
			line, col = pos(e.Key)
		}
		return l.errf(mpath, line, col, "a policy applies only to selected tools: fix the name (names are exact and case-sensitive) or remove the entry",
			"policy names %q, which tools.json does not select", name)
	}
	return nil
}

// suggestID turns a folder name into a plausible id for a fix message.
func suggestID(folder string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return '-'
	}, folder)
	if !IDPattern.MatchString(s) {
		return "my-coworker"
	}
	return s
}

// digest hashes files as documented on Bundle.Digest.
func digest(files []file) string {
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(f.rel))
		h.Write([]byte{0})
		h.Write([]byte(strconv.Itoa(len(f.data))))
		h.Write([]byte{0})
		h.Write(f.data)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}

// Limits of the "model" and "folder" front matter fields, in characters.
const (
	MaxModelChars  = 128
	MaxFolderChars = 4096
)

// checkModelFolder checks the optional "model" and "folder" fields
// (docs/bundles.md#model, docs/bundles.md#folder): single-line text, and a
// folder that is an absolute path. Whether the folder exists is not a
// property of the bundle: it is checked when a session or check uses it.
func (l *loader) checkModelFolder(mpath string, m *yamlMap, b *Bundle) *LoadError {
	for _, c := range []struct {
		key, val string
		max      int
	}{{"model", b.Model, MaxModelChars}, {"folder", b.Folder, MaxFolderChars}} {
		if err := checkText(c.key, c.val, false, c.max); err != nil {
			line, col := m.at(c.key)
			return l.errf(mpath, line, col, "remove it", "%v", err)
		}
		if c.val != strings.TrimSpace(c.val) {
			line, col := m.at(c.key)
			return l.errf(mpath, line, col, "remove the spaces around it", "%s %q starts or ends with a space", c.key, c.val)
		}
	}
	if b.Folder != "" && !filepath.IsAbs(b.Folder) {
		line, col := m.at("folder")
		return l.errf(mpath, line, col, folderFix(b.Folder), "folder %q is not an absolute path", b.Folder)
	}
	return nil
}

// folderFix suggests the absolute form of a relative or "~" folder.
func folderFix(folder string) string {
	const generic = "write the full path of the folder (on Windows with its drive, C:\\Users\\me\\Notes); \"~\" and relative paths are not expanded"
	rest, tilde := strings.CutPrefix(folder, "~")
	if !tilde || rest != "" && rest[0] != '/' && rest[0] != '\\' {
		return generic
	}
	home, err := os.UserHomeDir()
	if err != nil || home == "" {
		return generic
	}
	return fmt.Sprintf("write the full path, e.g. folder: %q; \"~\" is not expanded", filepath.Join(home, filepath.FromSlash(rest)))
}
