package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/settings"
)

// Editor is the coworker editor (docs/app.md#coworker-editor): a new
// coworker (blank or from a template), editing one (a broken one too,
// with its problems marked), duplicating, deleting to the trash and
// restoring, skills, and giving tools in one step (givetools.go); the
// tools to pick from are ToolCatalog's (editor_tools.go). It has no state
// of its own: every call reads the coworkers folder in use afresh, and
// none holds a lock across disk I/O. A save is picked up by the live
// reload (livereload.go), which lists the coworkers again.
type Editor struct {
	*env
	engine    *engine
	settings  *settingsStore
	model     *modelState // its tool-name rule decides what can be selected
	coworkers *Coworkers  // lists the folder after a restore
	examples  fs.FS       // the templates: one bundle folder each (examples.Coworkers)
}

// CoworkerDraft is a coworker as the editor shows it.
type CoworkerDraft struct {
	Draft bundle.Draft `json:"draft"`
	Dir   string       `json:"dir"` // the bundle folder; "" for a new coworker not saved yet
	New   bool         `json:"new"` // not on disk yet: Save creates it
	// LinkedTo is where a coworker added as a link resolves to: saving
	// edits the files there (docs/app.md#adding-a-coworker); "" otherwise.
	LinkedTo string `json:"linked_to"`
	// Problems are why it does not load, as on disk (EditCoworker) or as
	// edited (CheckCoworker), in the words of `openworker check`.
	Problems []DraftProblem `json:"problems"`
	Skills   []DraftSkill   `json:"skills"`   // its skill folders on disk, by name
	Template string         `json:"template"` // the template it was made from, "" otherwise
	// DefaultLimits are Settings' default limits: what each limit the
	// draft leaves at 0 takes (docs/app.md#coworker-editor).
	DefaultLimits settings.Limits `json:"default_limits"`
}

// DraftProblem is one problem of a draft: where it is (File, Line, Col,
// as `openworker check` prints them), which field of the editor it is in
// (a bundle.Draft JSON name; "" for none), what is wrong and the fix.
type DraftProblem struct {
	Field   string `json:"field"`
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Message string `json:"message"`
	Fix     string `json:"fix"`
}

// DraftSkill is a skill folder of a coworker (coworker/skills/<name>).
type DraftSkill struct {
	Name        string `json:"name"`
	Description string `json:"description"` // from its SKILL.md, "" when it does not load
}

// CoworkerTemplate is a starting point of "New coworker": one of the
// example bundles (examples/coworkers).
type CoworkerTemplate struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Tools       []string `json:"tools"`
	// NeedsFolder is true for a template that works on a folder the
	// person picks: it selects tools of the built-in files provider.
	NeedsFolder bool `json:"needs_folder"`
}

// SavedCoworker is what SaveCoworker wrote.
type SavedCoworker struct {
	Dir  string `json:"dir"`
	ID   string `json:"id"`
	Name string `json:"name"`
	// Written is the folder the files went to: Dir, or a linked
	// coworker's target.
	Written string `json:"written"`
}

// TrashedCoworker is a coworker DeleteCoworker moved to the trash.
type TrashedCoworker struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Token string `json:"token"` // where it went: what RestoreCoworker takes back
	Where string `json:"where"` // the trash, in words
}

// problems turns the bundle package's problems into the editor's.
func problems(les []*bundle.LoadError) []DraftProblem {
	out := []DraftProblem{}
	for _, le := range les {
		out = append(out, DraftProblem{Field: le.Field, File: le.File, Line: le.Line, Col: le.Col, Message: le.Msg, Fix: le.Fix})
	}
	return out
}

// inFolder returns dir absolute when it names a coworker right inside
// the coworkers folder in use (as written: a linked coworker's entry is
// inside, its target need not be), else an error.
func (ed *Editor) inFolder(dir string) (string, error) {
	root := ed.settings.coworkersDir()
	abs, err := filepath.Abs(dir)
	if err != nil || dir == "" {
		return "", fmt.Errorf("no coworker folder %q", dir)
	}
	if filepath.Dir(abs) != filepath.Clean(root) && filepath.Dir(realPath(abs)) != realPath(root) {
		return "", fmt.Errorf("%s is not a coworker of the coworkers folder %s", abs, root)
	}
	if strings.HasPrefix(filepath.Base(abs), ".") {
		return "", fmt.Errorf("%s is not a coworker folder", abs)
	}
	return abs, nil
}

// taken reports whether a coworker id is taken in the coworkers folder dir.
func taken(dir string) func(string) bool {
	return func(id string) bool {
		_, err := os.Lstat(filepath.Join(dir, id))
		return err == nil
	}
}

// Templates lists the templates of "New coworker", sorted by name.
func (ed *Editor) Templates() ([]CoworkerTemplate, error) {
	noteEditor("templates")
	out := []CoworkerTemplate{}
	if ed.examples == nil {
		return out, nil
	}
	entries, err := fs.ReadDir(ed.examples, ".")
	if err != nil {
		return nil, fmt.Errorf("read the templates: %w", err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		d, err := ed.templateDraft(e.Name())
		if err != nil {
			ed.log.Warn("template", "id", e.Name(), "err", err)
			continue
		}
		t := CoworkerTemplate{ID: e.Name(), Name: d.Name, Description: d.Description, Tools: append([]string{}, d.Tools...)}
		for _, name := range d.Tools {
			t.NeedsFolder = t.NeedsFolder || strings.HasPrefix(name, "files.")
		}
		out = append(out, t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// templateDraft reads the example bundle id as a draft (copied to a
// temporary folder: the loader reads files on disk).
func (ed *Editor) templateDraft(id string) (bundle.Draft, error) {
	if !bundle.IDPattern.MatchString(id) {
		return bundle.Draft{}, fmt.Errorf("no template %q", id)
	}
	sub, err := fs.Sub(ed.examples, id)
	if err != nil {
		return bundle.Draft{}, fmt.Errorf("no template %q", id)
	}
	if _, err := fs.Stat(sub, "coworker/manifest.md"); err != nil {
		return bundle.Draft{}, fmt.Errorf("no template %q", id)
	}
	tmp, err := os.MkdirTemp("", "openworker-template-")
	if err != nil {
		return bundle.Draft{}, err
	}
	defer os.RemoveAll(tmp)
	dir := filepath.Join(tmp, id)
	if err := os.CopyFS(dir, sub); err != nil {
		return bundle.Draft{}, fmt.Errorf("read template %q: %w", id, err)
	}
	d, ps, err := bundle.ReadDraft(dir)
	if err != nil {
		return bundle.Draft{}, err
	}
	if len(ps) > 0 {
		return bundle.Draft{}, fmt.Errorf("template %q does not load: %s", id, ps[0].Error())
	}
	return d, nil
}

// NewCoworker returns the draft of a new coworker: blank (template "") or
// a copy of the template's fields under a free id. Nothing is written;
// SaveCoworker creates it. Its problems are not listed yet (a blank one
// has no name): CheckCoworker says them as the person edits.
func (ed *Editor) NewCoworker(template string) (CoworkerDraft, error) {
	dir := ed.settings.coworkersDir()
	d := bundle.Draft{Version: "1.0.0", Tools: []string{}}
	if template != "" {
		var err error
		if d, err = ed.templateDraft(template); err != nil {
			return CoworkerDraft{}, err
		}
		d.ID = bundle.NewID(d.ID, taken(dir))
	}
	noteEditor("new " + template)
	return CoworkerDraft{Draft: d, New: true, Problems: []DraftProblem{}, Skills: []DraftSkill{}, Template: template, DefaultLimits: ed.settings.get().Limits}, nil
}

// EditCoworker reads the coworker in dir (a folder of the coworkers folder
// in use) as far as it can be read, with its problems marked: a broken
// coworker opens too, so it can be fixed (bundle.ReadDraft).
func (ed *Editor) EditCoworker(dir string) (CoworkerDraft, error) {
	abs, err := ed.inFolder(dir)
	if err != nil {
		return CoworkerDraft{}, err
	}
	d, ps, err := bundle.ReadDraft(abs)
	if err != nil {
		return CoworkerDraft{}, err
	}
	noteEditor("edit " + abs)
	out := CoworkerDraft{Draft: d, Dir: abs, Problems: problems(ps), Skills: skillsOf(abs), DefaultLimits: ed.settings.get().Limits}
	if target, linked := bundle.LinkTarget(abs); linked {
		out.LinkedTo = target
	}
	return out, nil
}

// skillsOf lists the skill folders of the bundle in dir, with the
// descriptions of those that load.
func skillsOf(dir string) []DraftSkill {
	desc := map[string]string{}
	if b, err := bundle.Load(dir); err == nil {
		for _, s := range b.Skills {
			desc[s.Name] = s.Description
		}
	}
	out := []DraftSkill{}
	entries, _ := os.ReadDir(filepath.Join(dir, "coworker", "skills"))
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			out = append(out, DraftSkill{Name: e.Name(), Description: desc[e.Name()]})
		}
	}
	return out
}

// newDir is where a new coworker with draft d would go: its id, or one
// made from its name.
func newDir(root string, d bundle.Draft) (string, bundle.Draft) {
	if d.ID == "" {
		d.ID = bundle.NewID(d.Name, taken(root))
	}
	return filepath.Join(root, d.ID), d
}

// CheckCoworker checks d by the loader's own rules (bundle.Validate) as
// the coworker in dir, or as a new one when dir is "", and returns its
// problems in the words of `openworker check`, each with its field; none
// when Save would write a coworker that loads. A new one whose id is
// taken gets a problem in "id".
func (ed *Editor) CheckCoworker(dir string, d bundle.Draft) ([]DraftProblem, error) {
	if dir == "" {
		root := ed.settings.coworkersDir()
		var at string
		at, d = newDir(root, d)
		ps := problems(bundle.Validate(at, d))
		if _, err := os.Lstat(at); err == nil {
			ps = append(ps, DraftProblem{Field: bundle.FieldID, File: at, Message: fmt.Sprintf("a coworker %q exists already in %s", d.ID, root), Fix: "choose another id"})
		}
		return ps, nil
	}
	abs, err := ed.inFolder(dir)
	if err != nil {
		return nil, err
	}
	return problems(bundle.Validate(abs, d)), nil
}

// SaveCoworker writes d: over the coworker in dir (bundle.Save: each file
// atomically, front matter keys the editor does not hold and the body's
// bytes kept; a linked coworker's target is written), or as a new
// coworker when dir is "" (bundle.Create, its id made from the name when
// empty). A draft that does not load is refused naming its first problem,
// and nothing is written. The live reload lists the coworkers again.
func (ed *Editor) SaveCoworker(dir string, d bundle.Draft) (SavedCoworker, error) {
	root := ed.settings.coworkersDir()
	if dir == "" {
		_, d = newDir(root, d)
		created, err := bundle.Create(root, d)
		if err != nil {
			return SavedCoworker{}, err
		}
		ed.log.Info("coworker created", "id", d.ID, "dir", created)
		return SavedCoworker{Dir: created, ID: d.ID, Name: d.Name, Written: created}, nil
	}
	abs, err := ed.inFolder(dir)
	if err != nil {
		return SavedCoworker{}, err
	}
	if err := bundle.Save(abs, d); err != nil {
		return SavedCoworker{}, err
	}
	written := abs
	if target, linked := bundle.LinkTarget(abs); linked {
		written = target
	}
	ed.log.Info("coworker saved", "id", d.ID, "dir", written)
	return SavedCoworker{Dir: abs, ID: d.ID, Name: d.Name, Written: written}, nil
}

// DuplicateCoworker copies the coworker in dir, skills and all, to a new
// folder under a free id made from its name, named "NAME (copy)", and
// returns the copy's draft. The copy is made and renamed in a hidden
// folder of the coworkers folder, so a failed copy leaves nothing. A
// coworker that does not load is refused: fix it first.
func (ed *Editor) DuplicateCoworker(dir string) (CoworkerDraft, error) {
	abs, err := ed.inFolder(dir)
	if err != nil {
		return CoworkerDraft{}, err
	}
	d, ps, err := bundle.ReadDraft(abs)
	if err != nil {
		return CoworkerDraft{}, err
	}
	if len(ps) > 0 {
		return CoworkerDraft{}, fmt.Errorf("%s does not load (%s); fix it before duplicating it", abs, ps[0].Error())
	}
	root := filepath.Dir(abs)
	d.Name = strings.TrimSpace(d.Name + " (copy)")
	if n := []rune(d.Name); len(n) > bundle.MaxNameChars {
		d.Name = string(n[:bundle.MaxNameChars])
	}
	d.ID = bundle.NewID(d.ID+"-copy", taken(root))
	tmp, err := os.MkdirTemp(root, ".adding-"+d.ID+"-")
	if err != nil {
		return CoworkerDraft{}, fmt.Errorf("duplicate %s: %w", abs, err)
	}
	defer os.RemoveAll(tmp)
	staged := filepath.Join(tmp, d.ID)
	if err := copyTree(abs, staged); err != nil {
		return CoworkerDraft{}, fmt.Errorf("duplicate %s: %w", abs, err)
	}
	if err := bundle.Save(staged, d); err != nil {
		return CoworkerDraft{}, fmt.Errorf("duplicate %s: %w", abs, err)
	}
	dest := filepath.Join(root, d.ID)
	if err := os.Rename(staged, dest); err != nil {
		return CoworkerDraft{}, fmt.Errorf("duplicate %s: put the copy in place: %w", abs, err)
	}
	ed.log.Info("coworker duplicated", "from", abs, "to", dest)
	return ed.EditCoworker(dest)
}

// DeleteCoworker moves the coworker in dir to the trash of the coworkers
// folder (bundle.Trash: a linked coworker's link goes, never its target)
// and says where; RestoreCoworker takes it back. Trashed coworkers are
// removed after bundle.TrashRetention (purgeTrash).
func (ed *Editor) DeleteCoworker(dir string) (TrashedCoworker, error) {
	abs, err := ed.inFolder(dir)
	if err != nil {
		return TrashedCoworker{}, err
	}
	name := filepath.Base(abs)
	if d, _, err := bundle.ReadDraft(abs); err == nil && d.Name != "" {
		name = d.Name
	}
	t, err := bundle.Trash(filepath.Dir(abs), filepath.Base(abs))
	if err != nil {
		return TrashedCoworker{}, err
	}
	ed.log.Info("coworker deleted", "id", t.ID, "trash", t.Path)
	return TrashedCoworker{ID: t.ID, Name: name, Token: t.Path,
		Where: fmt.Sprintf("the trash of the coworkers folder (%s, kept %d days)", bundle.TrashFolder, int(bundle.TrashRetention.Hours()/24))}, nil
}

// RestoreCoworker moves the coworker id that DeleteCoworker moved to
// token back into the coworkers folder in use (bundle.Restore: refused
// when that id is taken again) and returns the list.
func (ed *Editor) RestoreCoworker(id, token string) (CoworkerList, error) {
	root := ed.settings.coworkersDir()
	if err := bundle.Restore(root, bundle.Trashed{ID: id, Path: token}); err != nil {
		return CoworkerList{}, err
	}
	ed.log.Info("coworker restored", "id", id)
	l := ed.coworkers.list(root)
	ed.emit.Emit(EventCoworkersChanged, l)
	return l, nil
}

// zipDialog is the picker of a skill's .zip; wailsUI has it.
type zipDialog interface {
	ChooseZip(title, start string) (string, error)
}

// ChooseSkill asks for a skill to attach with the native picker: a folder
// holding SKILL.md (kind "folder") or a .zip of one ("zip"); "" when the
// person cancels.
func (ed *Editor) ChooseSkill(kind string) (string, error) {
	if ed.dialogs == nil {
		return "", errors.New("no file picker is available")
	}
	home, _ := os.UserHomeDir()
	switch kind {
	case "folder":
		return ed.dialogs.ChooseDirectory("Choose a skill folder (it holds SKILL.md)", home)
	case "zip":
		if d, ok := ed.dialogs.(zipDialog); ok {
			return d.ChooseZip("Choose a skill (.zip)", home)
		}
		return ed.dialogs.ChooseFile("Choose a skill (.zip)", home)
	}
	return "", fmt.Errorf("unknown kind of skill %q: use folder or zip", kind)
}

// AttachSkill copies the skill folder or .zip at path into the coworker in
// dir (bundle.AttachSkill: a linked coworker's target) and returns the
// coworker as it is on disk now. The manifest is not changed: when it
// lists its skills, the editor adds the name and saves.
func (ed *Editor) AttachSkill(dir, path string) (CoworkerDraft, error) {
	abs, err := ed.inFolder(dir)
	if err != nil {
		return CoworkerDraft{}, err
	}
	name, err := bundle.AttachSkill(abs, path)
	if err != nil {
		return CoworkerDraft{}, err
	}
	ed.log.Info("skill attached", "coworker", abs, "skill", name)
	return ed.EditCoworker(abs)
}

// ChooseWorkingFolder asks for a coworker's working folder with the
// native picker, starting at start (or the home folder); "" when the
// person cancels.
func (ed *Editor) ChooseWorkingFolder(start string) (string, error) {
	if ed.dialogs == nil {
		return "", errors.New("no folder picker is available")
	}
	if st, err := os.Stat(start); start == "" || err != nil || !st.IsDir() {
		start, _ = os.UserHomeDir()
	}
	return ed.dialogs.ChooseDirectory("Choose the coworker's working folder", start)
}

// purgeTrash removes the coworkers trashed more than
// bundle.TrashRetention ago from the trash of dir, in the background (the
// app calls it when it opens a coworkers folder).
func (a *env) purgeTrash(dir string) {
	go func() {
		gone, err := bundle.PurgeTrash(dir, bundle.TrashRetention)
		if err != nil {
			a.log.Warn("coworkers trash", "dir", dir, "err", err)
		}
		for _, t := range gone {
			a.log.Info("removed from the coworkers trash", "id", t.ID, "trashed", t.At)
		}
	}()
}
