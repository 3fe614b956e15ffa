package agentimport

import (
	"archive/zip"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/servers"
)

// Result is what Apply wrote.
type Result struct {
	Coworkers []Written `json:"coworkers"`
	// ServersAdded is the number of entries added to ServersFile.
	ServersAdded int    `json:"servers_added"`
	ServersFile  string `json:"servers_file,omitempty"`
}

// Written is one coworker Apply made, or (Into) the one it added skills
// to.
type Written struct {
	ID     string   `json:"id"`
	Dir    string   `json:"dir"`
	Skills []string `json:"skills"`
	Into   bool     `json:"into,omitempty"`
}

// RefusedError is returned by Apply for a plan with problems; nothing
// was written.
type RefusedError struct{ Problems []string }

func (e *RefusedError) Error() string {
	msg := "the import is refused, and nothing was written: " + e.Problems[0]
	if n := len(e.Problems) - 1; n > 0 {
		msg += fmt.Sprintf(" (and %d more)", n)
	}
	return msg
}

// The steps Apply takes that tests make fail.
var (
	rename       = os.Rename
	attachSkill  = bundle.AttachSkill
	writeServers = func(p *servers.ImportPlan, secrets servers.KeepSecret) error {
		if secrets == nil {
			return p.Write()
		}
		return p.WriteMoving(nil, secrets)
	}
)

// Apply does what p says (docs/import-agents.md#atomic), all or nothing:
//
//  1. every new coworker is built, its skills attached and the whole
//     bundle loaded, in a hidden folder ".import-*" of the coworkers
//     folder (which the loader skips);
//  2. each is renamed into place (an id taken meanwhile fails);
//  3. skills for Options.Into are attached to it (each is itself copied
//     to a hidden folder and renamed into place), and its manifest's
//     skills list, when it has one, is saved with them;
//  4. the servers file is written (servers.ImportPlan.Write: a copy of
//     the old one to .bak, then one rename; with ServersTarget.Secrets,
//     WriteMoving, the literal secrets kept in the keychain first).
//
// A step that fails undoes the steps before it, so a failed import
// leaves the coworkers folder and the servers file as they were (a
// crash between two renames can leave the coworkers renamed so far; the
// hidden folder holds the rest and is never loaded). A refused plan
// (Plan.Problems) is a *RefusedError and writes nothing. Source files
// are only read. Apply must not run twice on one plan.
func Apply(p *Plan) (*Result, error) {
	if p.Refused() {
		return nil, &RefusedError{Problems: p.Problems}
	}
	dir := p.opts.Coworkers
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	staging, err := os.MkdirTemp(dir, ".import-")
	if err != nil {
		return nil, fmt.Errorf("import: %w", err)
	}
	defer os.RemoveAll(staging)
	into, err := stageAll(staging, p.Coworkers)
	if err != nil {
		return nil, err
	}
	res := &Result{Coworkers: []Written{}}
	undoPlaced, err := placeAll(dir, staging, p.Coworkers, res)
	if err != nil {
		return nil, err
	}

	undoInto := func() error { return nil }
	if into != nil {
		undo, err := addSkills(dir, into)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("import: %w; nothing was written", err), undoPlaced())
		}
		undoInto = undo
		res.Coworkers = append(res.Coworkers, Written{ID: into.ID, Dir: filepath.Join(dir, into.ID), Skills: into.Skills, Into: true})
	}

	if s := p.Servers; s != nil && s.Added() > 0 {
		var secrets servers.KeepSecret
		if p.opts.Servers != nil {
			secrets = p.opts.Servers.Secrets
		}
		if err := writeServers(s, secrets); err != nil {
			return nil, errors.Join(fmt.Errorf("import: the servers file %s: %w; nothing was written", s.Dest, err), undoInto(), undoPlaced())
		}
		res.ServersAdded, res.ServersFile = s.Added(), s.Dest
	}
	syncDir(dir)
	return res, nil
}

// stageAll builds the bundle of each new coworker of cs in staging
// (stage) and returns the one whose skills go into an existing coworker
// (Coworker.Into), if any.
func stageAll(staging string, cs []*Coworker) (into *Coworker, err error) {
	for _, c := range cs {
		if c.Into {
			into = c
			continue
		}
		if err := stage(staging, c); err != nil {
			return nil, fmt.Errorf("import: coworker %s (from %s): %w; nothing was written", c.ID, c.Source, err)
		}
	}
	return into, nil
}

// placeAll renames the staged bundle of each new coworker of cs into dir,
// adding it to res; undo moves them back to staging. When one cannot be
// placed (its id was taken meanwhile), those placed so far are moved back
// and the error says so.
func placeAll(dir, staging string, cs []*Coworker, res *Result) (undo func() error, err error) {
	var placed []string // ids renamed into place
	undo = func() error {
		var errs []error
		for i := len(placed) - 1; i >= 0; i-- {
			if err := rename(filepath.Join(dir, placed[i]), filepath.Join(staging, placed[i])); err != nil {
				errs = append(errs, fmt.Errorf("could not take coworker %s back out: %w; remove %s", placed[i], err, filepath.Join(dir, placed[i])))
			}
		}
		return errors.Join(errs...)
	}
	for _, c := range cs {
		if c.Into {
			continue
		}
		final := filepath.Join(dir, c.ID)
		if _, err := os.Lstat(final); err == nil {
			return nil, errors.Join(fmt.Errorf("import: coworker %q was made in %s meanwhile; preview the import again: nothing was written", c.ID, dir), undo())
		}
		if err := rename(filepath.Join(staging, c.ID), final); err != nil {
			return nil, errors.Join(fmt.Errorf("import: coworker %s: %w; nothing was written", c.ID, err), undo())
		}
		placed = append(placed, c.ID)
		res.Coworkers = append(res.Coworkers, Written{ID: c.ID, Dir: final, Skills: c.Skills})
	}
	return undo, nil
}

// stage builds c's bundle in staging/<id> and loads it.
func stage(staging string, c *Coworker) error {
	bdir := filepath.Join(staging, c.ID)
	if ex := c.export; ex != nil {
		zr, err := zip.OpenReader(ex.zip)
		if err != nil {
			return err
		}
		err = extractTree(ex.zip, &zr.Reader, ex.id+"/", bdir)
		zr.Close()
		if err != nil {
			return err
		}
		if err := bundle.Save(bdir, c.draft); err != nil {
			return err
		}
	} else {
		if _, err := bundle.Create(staging, c.draft); err != nil {
			return err
		}
		for _, s := range c.skills {
			name, err := attachSkill(bdir, s.src)
			if err != nil {
				return err
			}
			if name != s.name {
				return fmt.Errorf("skill %s was attached as %q, not %q as previewed; preview the import again", s.src, name, s.name)
			}
		}
	}
	if _, err := bundle.Load(bdir); err != nil {
		return err
	}
	return nil
}

// addSkills attaches into's skills to its coworker and, when its
// manifest lists skills, saves the list with them; the func undoes it.
func addSkills(dir string, into *Coworker) (undo func() error, err error) {
	bdir := filepath.Join(dir, into.ID)
	root := bdir
	if t, linked := bundle.LinkTarget(bdir); linked {
		root = t
	}
	skills := filepath.Join(root, "coworker", "skills")
	_, statErr := os.Lstat(skills)
	madeSkills := statErr != nil // AttachSkill makes it: undo removes it
	var attached []string
	undo = func() error {
		var errs []error
		if into.draft.Skills != nil {
			if err := bundle.Save(bdir, into.draft); err != nil {
				errs = append(errs, fmt.Errorf("could not put back the skills list of coworker %s: %w", into.ID, err))
			}
		}
		for i := len(attached) - 1; i >= 0; i-- {
			if err := bundle.RemoveSkill(bdir, attached[i]); err != nil {
				errs = append(errs, err)
			}
		}
		if madeSkills {
			os.Remove(skills) // only when empty
		}
		return errors.Join(errs...)
	}
	for _, s := range into.skills {
		name, err := attachSkill(bdir, s.src)
		if err != nil {
			return nil, errors.Join(fmt.Errorf("skill %s into coworker %s: %w", s.src, into.ID, err), undo())
		}
		attached = append(attached, name)
	}
	if into.draft.Skills != nil {
		d, _, err := bundle.ReadDraft(bdir)
		if err == nil {
			d.Skills = append(d.Skills, attached...)
			err = bundle.Save(bdir, d)
		}
		if err != nil {
			return nil, errors.Join(fmt.Errorf("coworker %s: its skills list: %w", into.ID, err), undo())
		}
	}
	return undo, nil
}

// syncDir makes the renames in dir durable where the OS allows it.
func syncDir(dir string) {
	if f, err := os.Open(dir); err == nil {
		f.Sync()
		f.Close()
	}
}
