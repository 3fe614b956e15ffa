package schedule

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openworker/desktop/harness/bundle"
)

// coworkers is the bundles folder RunDue loads once per call, to leave a
// slot due rather than spend it on a coworker that cannot run.
type coworkers struct {
	dir string
	set *bundle.Set
}

// loadCoworkers loads the folder dir, else def; its error names the
// folder and says that no slot was claimed.
func loadCoworkers(dir, def string) (*coworkers, error) {
	if dir == "" {
		dir = def
	}
	if dir == "" {
		return nil, errors.New("no coworkers folder is set; no slot was claimed, the due ones stay due")
	}
	set, err := bundle.LoadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("%w; no slot was claimed, the due ones stay due", err)
	}
	return &coworkers{dir, set}, nil
}

// problem says why the coworker id cannot run from the folder, or nil.
func (c *coworkers) problem(id string) error {
	if _, ok := c.set.Get(id); ok {
		return nil
	}
	for _, e := range c.set.Errors {
		if filepath.Base(e.Dir) == id {
			return fmt.Errorf("coworker %q cannot load: %w", id, e)
		}
	}
	return fmt.Errorf("no coworker %q in %s (found: %s)", id, c.dir, KnownCoworkers(c.set))
}

// KnownCoworkers lists the ids of the bundles of set for a message:
// "a, b, c", or "none".
func KnownCoworkers(set *bundle.Set) string {
	ids := make([]string, 0, len(set.Bundles))
	for _, b := range set.Bundles {
		ids = append(ids, b.ID)
	}
	slices.Sort(ids)
	if len(ids) == 0 {
		return "none"
	}
	return strings.Join(ids, ", ")
}

// CheckCoworker reports whether the coworker id can be loaded from the
// bundles folder dir (schedule add and edit, before a schedule is
// written); the error lists the ids it found.
func CheckCoworker(dir, id string) error {
	set, err := bundle.LoadDir(dir)
	if err != nil {
		return err
	}
	return (&coworkers{dir, set}).problem(id)
}
