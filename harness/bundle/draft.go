package bundle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"golang.org/x/text/unicode/norm"
)

// Draft is the editable form of a coworker (docs/bundles.md#editing): the
// fields of manifest.md and tools.json an editor changes. ReadDraft fills
// it from a bundle, Validate checks it by the loader's own rules, Save
// and Create write it. Front matter keys a Draft does not hold are kept
// by Save, as are comments and the body's bytes when Instructions is
// unchanged.
//
// The JSON form (lowerCamel names) is what a UI binds.
type Draft struct {
	ID          string `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Version     string `json:"version"`
	// Instructions is the Markdown body of manifest.md, trimmed of
	// surrounding blank space (as Bundle.Instructions).
	Instructions string `json:"instructions"`
	// Tools are the selected tools by qualified name, in order; Save
	// writes them as tools.json version 3. A version 2 file reads as its
	// qualified names.
	Tools []string `json:"tools"`
	// WholeProviders are the provider namespaces a tools.json version 1
	// selects whole: version 3 cannot name a whole provider, and which
	// tools one lists is known only to a registry. While it is non-empty
	// Tools must be empty and Save keeps the file version 1; an editor
	// with a registry lists the providers' tools into Tools and clears
	// it to convert (Validate says so otherwise).
	WholeProviders []string `json:"wholeProviders,omitempty"`
	// Policy maps a qualified tool name, or "*", to a consent policy
	// (ask, allow, deny): front matter "policy". Empty means no key.
	Policy map[string]string `json:"policy"`
	// Skills is front matter "skills": the skill folders to load. nil
	// (JSON null) means no key, so that every folder under
	// coworker/skills loads; an empty list loads none.
	Skills []string `json:"skills"`
	// Sampling is front matter "sampling" (docs/bundles.md#sampling);
	// empty means no key.
	Sampling []string `json:"sampling"`
	// Model is front matter "model" (docs/bundles.md#model); "" means no key.
	Model string `json:"model"`
	// Folder is front matter "folder" (docs/bundles.md#folder), an
	// absolute path; "" means no key.
	Folder string `json:"folder"`
	// RequiresSandbox is front matter "requires_sandbox"; false means no key.
	RequiresSandbox bool `json:"requiresSandbox"`
	// Limits is front matter "limits" (docs/limits.md#budgets); all zero
	// means no key.
	Limits Limits `json:"limits"`
	// OtherKeys are the front matter keys ReadDraft found that a Draft
	// does not hold (a key of a newer OpenWorker, a misspelling), in file
	// order. Save keeps the entries of exactly these, lines and comments
	// as they are: remove a name to remove its entry. Load refuses
	// unknown keys, so a bundle that has one is broken until it goes.
	OtherKeys []string `json:"otherKeys,omitempty"`
}

// Field names of Draft, as LoadError.Field holds them.
const (
	FieldID              = "id"
	FieldName            = "name"
	FieldDescription     = "description"
	FieldVersion         = "version"
	FieldInstructions    = "instructions"
	FieldTools           = "tools"
	FieldPolicy          = "policy"
	FieldSkills          = "skills"
	FieldSampling        = "sampling"
	FieldModel           = "model"
	FieldFolder          = "folder"
	FieldRequiresSandbox = "requiresSandbox"
	FieldLimits          = "limits"
	FieldOtherKeys       = "otherKeys"
)

// fieldOfKey maps a front matter key to its Draft field.
var fieldOfKey = map[string]string{
	"id": FieldID, "name": FieldName, "description": FieldDescription, "version": FieldVersion,
	"policy": FieldPolicy, "skills": FieldSkills, "sampling": FieldSampling, "model": FieldModel,
	"folder": FieldFolder, "requires_sandbox": FieldRequiresSandbox, "limits": FieldLimits,
}

// draftText maps each front matter key the loader reads as text to the
// Draft field that holds it.
var draftText = map[string]func(*Draft) *string{
	"id":          func(d *Draft) *string { return &d.ID },
	"name":        func(d *Draft) *string { return &d.Name },
	"description": func(d *Draft) *string { return &d.Description },
	"version":     func(d *Draft) *string { return &d.Version },
	"model":       func(d *Draft) *string { return &d.Model },
	"folder":      func(d *Draft) *string { return &d.Folder },
}

// ReadDraft reads the bundle in dir (<coworkers>/<id>, a link to one
// followed) as a Draft, as far as it can be read: a broken bundle still
// gives the fields that parse, so that it can be fixed in an editor.
// Tools, Policy and Sampling are never nil (JSON [] and {}); Skills is nil
// when the manifest has no "skills" key.
// problems are the bundle's problems as Load and Validate report them
// (file, line, column, fix, and the Draft field), Load's first; none
// means the bundle loads. err is only for a dir that is not a folder or
// cannot be read at all.
//
// Files are read as Load reads them: a manifest.md or tools.json that is a
// link out of the bundle is not read (its problem says so).
func ReadDraft(dir string) (d Draft, problems []*LoadError, err error) {
	st, err := os.Stat(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Draft{}, nil, fmt.Errorf("coworker folder %s does not exist", dir)
		}
		return Draft{}, nil, fmt.Errorf("coworker folder %s cannot be read: %w", dir, err)
	}
	if !st.IsDir() {
		return Draft{}, nil, fmt.Errorf("%s is a file, not a coworker folder <id>/coworker/manifest.md", dir)
	}
	if _, err := os.ReadDir(dir); err != nil {
		return Draft{}, nil, fmt.Errorf("coworker folder %s cannot be read: %w", dir, err)
	}
	l := &loader{dir: dir}
	l.resolveRoot()
	d = Draft{ID: filepath.Base(dir)}
	cw := filepath.Join(dir, "coworker")
	if data, lerr := l.read(filepath.Join(cw, "manifest.md"), MaxMarkdownBytes, ""); lerr == nil {
		readManifest(data, &d)
	}
	if data, lerr := l.read(filepath.Join(cw, "tools.json"), MaxToolsFileBytes, ""); lerr == nil {
		readTools(filepath.Join(cw, "tools.json"), data, &d)
	}
	d.Tools = nonNil(d.Tools)
	d.Sampling = nonNil(d.Sampling)
	if d.Policy == nil {
		d.Policy = map[string]string{}
	}
	if _, err := Load(dir); err != nil {
		le := err.(*LoadError)
		le.Field = fieldOf(le, dir, l.overlayOrDisk(filepath.Join(cw, "manifest.md")))
		problems = append(problems, le)
	}
	for _, p := range Validate(dir, d) {
		if !sameProblem(problems, p) {
			problems = append(problems, p)
		}
	}
	return d, problems, nil
}

// sameProblem reports whether ps holds p's message at p's place.
func sameProblem(ps []*LoadError, p *LoadError) bool {
	for _, q := range ps {
		if q.File == p.File && q.Line == p.Line && q.Col == p.Col && q.Msg == p.Msg {
			return true
		}
	}
	return false
}

// overlayOrDisk returns the bytes of a bundle file for mapping problems to
// fields, nil when it cannot be read.
func (l *loader) overlayOrDisk(path string) []byte {
	data, lerr := l.read(path, MaxMarkdownBytes, "")
	if lerr != nil {
		return nil
	}
	return data
}

// readManifest fills d from a manifest.md's bytes, field by field: a
// field that does not decode stays empty (the loader reports why).
func readManifest(data []byte, d *Draft) {
	fm, err := splitFrontMatter(data)
	if err != nil {
		return
	}
	d.Instructions = strings.TrimSpace(fm.body)
	if !fm.present {
		return
	}
	seen := map[string]bool{}
	for _, e := range topEntries(fm.yaml) {
		key := e.Key.GetToken().Value
		if seen[key] { // a duplicate (Load reports it): the first counts
			continue
		}
		seen[key] = true
		decodeField(d, key, e.Value)
	}
}

// decodeField decodes v, the value of front matter key, into d's field
// for it; a value that does not decode leaves the field as it is (Load
// says why), a key of no field goes to d.OtherKeys.
func decodeField(d *Draft, key string, v ast.Node) {
	if field, ok := draftText[key]; ok {
		_ = yaml.NodeToValue(v, field(d))
		return
	}
	switch key {
	case "requires_sandbox":
		_ = yaml.NodeToValue(v, &d.RequiresSandbox)
	case "limits":
		_ = yaml.NodeToValue(v, &d.Limits)
	case "sampling":
		_ = yaml.NodeToValue(v, &d.Sampling)
	case "skills":
		var s []string
		if yaml.NodeToValue(v, &s) == nil {
			d.Skills = nonNil(s)
		}
	case "policy":
		var p map[string]string
		if yaml.NodeToValue(v, &p) == nil && len(p) > 0 {
			d.Policy = p
		}
	default:
		d.OtherKeys = append(d.OtherKeys, key)
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// topEntries parses front matter and returns its top-level entries; nil
// when it does not parse or is not a mapping.
func topEntries(src []byte) []*ast.MappingValueNode {
	if len(src) > MaxFrontMatterBytes || tooDeep(src) >= 0 {
		return nil
	}
	// Duplicate keys are allowed here: the loader reports them, and an
	// editor that shows the first can save the front matter without the
	// second.
	f, err := parser.ParseBytes(src, parser.ParseComments, parser.AllowDuplicateMapKey())
	if err != nil || len(f.Docs) != 1 || f.Docs[0].Body == nil {
		return nil
	}
	switch b := f.Docs[0].Body.(type) {
	case *ast.MappingNode:
		return keyed(b.Values)
	case *ast.MappingValueNode:
		return keyed([]*ast.MappingValueNode{b})
	}
	return nil
}

func keyed(es []*ast.MappingValueNode) []*ast.MappingValueNode {
	out := es[:0:0]
	for _, e := range es {
		if e.Key != nil && e.Key.GetToken() != nil && e.Value != nil {
			out = append(out, e)
		}
	}
	return out
}

// readTools fills d's selection from tools.json: every version as far as
// it parses; names that break a rule are kept (Validate reports them).
func readTools(file string, data []byte, d *Draft) {
	if sel, err := parseSelection(file, data); err == nil {
		d.Tools = nonNil(sel.Explicit())
		d.WholeProviders = sel.WholeProviders()
		return
	}
	var raw struct {
		Version int             `json:"version"`
		Tools   []any           `json:"tools"`
		MCP     json.RawMessage `json:"mcp"`
	}
	if json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &raw) != nil {
		return
	}
	for _, t := range raw.Tools {
		if s, ok := t.(string); ok {
			d.Tools = append(d.Tools, s)
		}
	}
	var v1 []string
	var v2 map[string][]string
	switch {
	case json.Unmarshal(raw.MCP, &v1) == nil:
		d.WholeProviders = v1
	case json.Unmarshal(raw.MCP, &v2) == nil:
		for ns, ts := range v2 {
			for _, t := range ts {
				d.Tools = append(d.Tools, ns+"."+t)
			}
		}
	}
}

// Validate checks d as the bundle folder dir (<coworkers>/<id>; it need not
// exist yet) by the rules Load applies: d is rendered to manifest.md and
// tools.json bytes in memory, as Save would write them over what is in
// dir, and loaded from there, with skills read from dir. A problem's File,
// Line and Col are in those rendered bytes (equal to the files' when the
// draft changes nothing), its Msg and Fix those of `openworker check`, and
// its Field the Draft field it is in. After a problem in one field, the
// next is looked for with that field set aside, so one call reports a
// problem in each of several fields (at most one per field). nil means
// Save would write a bundle that loads.
func Validate(dir string, d Draft) []*LoadError {
	var problems []*LoadError
	if lerr := draftShape(dir, d); lerr != nil {
		problems = append(problems, lerr)
		d.Tools = nil // checked alone: the rest is checked below
	}
	masked := map[string]bool{}
	for range 16 {
		files := renderFiles(dir, d)
		l := &loader{dir: dir, overlay: files}
		l.resolveRoot()
		_, lerr := loadSafely(l)
		if lerr == nil {
			break
		}
		lerr.Field = fieldOf(lerr, dir, files["coworker/manifest.md"])
		problems = append(problems, lerr)
		if lerr.Field == "" || masked[lerr.Field] {
			break
		}
		masked[lerr.Field] = true
		d = setAside(dir, d, lerr.Field)
	}
	return problems
}

// loadSafely is Load's body for a prepared loader.
func loadSafely(l *loader) (b *Bundle, lerr *LoadError) {
	defer func() {
		if p := recover(); p != nil {
			b, lerr = nil, l.errf(l.dir, 0, 0, "please report this bug", "internal error while loading the bundle: %v", p)
		}
	}()
	return l.load()
}

// draftShape checks what only a Draft can get wrong: whole providers
// mixed with tools.
func draftShape(dir string, d Draft) *LoadError {
	if len(d.WholeProviders) > 0 && len(d.Tools) > 0 {
		return &LoadError{Dir: dir, File: filepath.Join(dir, "coworker", "tools.json"), Field: FieldTools,
			Msg: fmt.Sprintf("tools.json (version 1) selects every tool of %s, and version 3 cannot name a whole provider", strings.Join(d.WholeProviders, ", ")),
			Fix: "select those providers' tools one by one and clear the whole-provider selection, or remove the tools added"}
	}
	return nil
}

// setAside returns d with field replaced by a value that passes, so that
// the problems of other fields come to light.
func setAside(dir string, d Draft, field string) Draft {
	switch field {
	case FieldID:
		d.ID = filepath.Base(dir)
	case FieldName:
		d.Name = "Coworker"
	case FieldDescription:
		d.Description = ""
	case FieldVersion:
		d.Version = ""
	case FieldInstructions:
		d.Instructions = "Instructions."
	case FieldModel:
		d.Model = ""
	case FieldFolder:
		d.Folder = ""
	case FieldTools:
		d.Tools, d.WholeProviders = nil, nil
		d.Policy, d.Sampling = nil, nil // they name tools, which are gone
	case FieldPolicy:
		d.Policy = nil
	case FieldSkills:
		d.Skills = []string{}
	case FieldSampling:
		d.Sampling = nil
	case FieldLimits:
		d.Limits = Limits{}
	case FieldOtherKeys:
		d.OtherKeys = nil
	}
	return d
}

// fieldOf names the Draft field a problem of the bundle in dir is in,
// given the manifest.md bytes it was found in (nil: unknown).
func fieldOf(le *LoadError, dir string, manifest []byte) string {
	rel, err := filepath.Rel(dir, le.File)
	if err != nil {
		return ""
	}
	rel = filepath.ToSlash(rel)
	switch {
	case rel == "coworker/tools.json":
		return FieldTools
	case strings.HasPrefix(rel, "coworker/skills"):
		return FieldSkills
	case rel != "coworker/manifest.md" || le.Line == 0 || manifest == nil:
		return ""
	}
	fm, err := splitFrontMatter(manifest)
	if err != nil || !fm.present {
		return ""
	}
	if le.Line >= fm.bodyLine-1 {
		return FieldInstructions
	}
	// The front matter starts on line 2; entry i spans from its key's
	// line to the next key's.
	entries := topEntries(fm.yaml)
	field := ""
	for _, e := range entries {
		if line, _ := pos(e.Key); line <= le.Line {
			var owned bool
			if field, owned = fieldOfKey[e.Key.GetToken().Value]; !owned {
				field = FieldOtherKeys
			}
		}
	}
	return field
}

// LinkTarget reports whether the coworker folder dir is a symbolic link
// (a coworker added by link, docs/app.md#adding-a-coworker), and where it
// resolves to. ReadDraft, Save and AttachSkill follow it: they edit the
// target. Trash moves the link, not the target.
func LinkTarget(dir string) (target string, linked bool) {
	st, err := os.Lstat(dir)
	if err != nil || st.Mode()&fs.ModeSymlink == 0 {
		return "", false
	}
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t, _ := os.Readlink(dir)
		return t, true
	}
	return r, true
}

// NewID derives a coworker id (IDPattern) from a name: lowercase ASCII
// letters and digits kept (accents dropped: "Café" gives "cafe"), every
// other run of characters one '-', at most
// 64 characters; "coworker" when nothing is left. When taken(id) holds
// (nil: nothing is taken), "-2", "-3", ... is appended until it does not.
func NewID(name string, taken func(string) bool) string {
	base := slug(name, 60)
	if base == "" {
		base = "coworker"
	}
	if taken == nil {
		return base
	}
	id := base
	for n := 2; taken(id); n++ {
		id = base + "-" + strconv.Itoa(n)
	}
	return id
}

// slug is name lowercased, with ASCII letters and digits kept (accents
// dropped: "Café" gives "cafe"), every other run of characters one '-'
// between them, cut to at most max bytes; "" when nothing is left.
func slug(name string, max int) string {
	var b strings.Builder
	dash := false
	for _, r := range norm.NFD.String(strings.ToLower(name)) {
		switch {
		case unicode.Is(unicode.Mn, r): // an accent of the letter before (é = e + ´)
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		default:
			dash = true
		}
	}
	s := b.String()
	if len(s) > max {
		s = strings.TrimRight(s[:max], "-")
	}
	return s
}

// plainRE is a YAML plain scalar that reads back as the same string.
var plainRE = regexp.MustCompile(`^[A-Za-z0-9_/][A-Za-z0-9_ .,()/+@=-]*$`)

// yamlString renders s as a YAML scalar that decodes to s as a string:
// plain when that is safe, a literal block for multi-line text, else
// double-quoted (a JSON string is a valid YAML double-quoted scalar).
func yamlString(s string) string {
	if plainRE.MatchString(s) && !strings.HasSuffix(s, " ") && !looksTyped(s) {
		return s
	}
	q, _ := json.Marshal(s)
	return string(q)
}

// looksTyped reports whether a plain scalar s would decode as something
// other than a string (number, bool, null, date).
func looksTyped(s string) bool {
	m := map[string]any{}
	if err := yaml.Unmarshal([]byte("v: "+s), &m); err != nil {
		return true
	}
	str, ok := m["v"].(string)
	return !ok || str != s
}
