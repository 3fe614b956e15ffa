package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"golang.org/x/sys/windows"
)

// The Low labels Prepare gives write paths are not left behind
// (docs/sandbox.md#windows-labels): each one set is recorded, in memory
// and in a file, with the label the path had before, and Release puts
// that back once the last sandboxed program using the path has ended. A
// path that already had the Low label is not touched, so nothing is
// taken from it. RestoreLeftLabels puts back what a run that crashed left.

// labelUse is one path whose label Prepare changed.
type labelUse struct {
	Path string `json:"path"`
	Dir  bool   `json:"dir"`
	// Before is the path's label in SDDL ("S:(ML;;NW;;;ME)"), "" for none.
	Before string          `json:"before"`
	users  map[string]bool // the Rules.Temp of each program using it
}

var (
	labelsMu sync.Mutex
	labels   = map[string]*labelUse{} // by path
	// labelRecord is the file the changed labels are recorded in:
	// %LOCALAPPDATA%\OpenWorker\sandbox-labels.json; tests move it.
	labelRecord = defaultLabelRecord()
)

func defaultLabelRecord() string {
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "OpenWorker", "sandbox-labels.json")
}

// labelFor gives path the Low label for the sandboxed program whose
// temporary folder is user, recording what it had before.
func labelFor(path string, dir bool, user string) error {
	labelsMu.Lock()
	defer labelsMu.Unlock()
	if u, ok := labels[path]; ok {
		u.users[user] = true
		return nil
	}
	before, err := currentLabel(path)
	if err != nil {
		return fmt.Errorf("read the integrity label of %s: %w", path, err)
	}
	if strings.Contains(before, ";;;LW)") {
		return nil // Low already, not by us: left as it is
	}
	u := &labelUse{Path: path, Dir: dir, Before: before, users: map[string]bool{user: true}}
	labels[path] = u
	// Recorded before the change, so a crash in between is undone too.
	if err := saveLabelRecord(); err != nil {
		delete(labels, path)
		return err
	}
	if err := labelLow(path, dir); err != nil {
		delete(labels, path)
		saveLabelRecord()
		return err
	}
	return nil
}

// Release puts back the labels Prepare set for the program whose
// temporary folder is temp (Rules.Temp), where no other sandboxed
// program still uses them. harness/mcp calls it once the process tree
// has ended. The errors name each path that could not be restored.
func Release(temp string) error {
	labelsMu.Lock()
	defer labelsMu.Unlock()
	var errs []error
	for path, u := range labels {
		if !u.users[temp] {
			continue
		}
		delete(u.users, temp)
		if len(u.users) > 0 {
			continue
		}
		if err := restoreLabel(u.Path, u.Before); err != nil && !errors.Is(err, windows.ERROR_FILE_NOT_FOUND) && !errors.Is(err, windows.ERROR_PATH_NOT_FOUND) {
			errs = append(errs, err)
			continue
		}
		delete(labels, path)
	}
	if err := saveLabelRecord(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// RestoreLeftLabels puts back the labels recorded by an earlier run that
// did not end cleanly (the app calls it at start, before any sandboxed
// program runs).
func RestoreLeftLabels() error {
	if labelRecord == "" {
		return nil
	}
	b, err := os.ReadFile(labelRecord)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	var left []labelUse
	if err := json.Unmarshal(b, &left); err != nil {
		return fmt.Errorf("%s: %v; delete it (the labels it lists stay Low)", labelRecord, err)
	}
	labelsMu.Lock()
	defer labelsMu.Unlock()
	var errs []error
	for _, u := range left {
		if _, inUse := labels[u.Path]; inUse {
			continue
		}
		if err := restoreLabel(u.Path, u.Before); err != nil && !errors.Is(err, windows.ERROR_FILE_NOT_FOUND) && !errors.Is(err, windows.ERROR_PATH_NOT_FOUND) {
			errs = append(errs, err)
		}
	}
	if err := saveLabelRecord(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// saveLabelRecord writes the labels in use to labelRecord (removing it
// when there are none). labelsMu is held.
func saveLabelRecord() error {
	if labelRecord == "" {
		return nil
	}
	if len(labels) == 0 {
		if err := os.Remove(labelRecord); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		return nil
	}
	list := make([]labelUse, 0, len(labels))
	for _, u := range labels {
		list = append(list, *u)
	}
	b, err := json.MarshalIndent(list, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(labelRecord), 0o700); err != nil {
		return fmt.Errorf("record the sandbox's labels: %w", err)
	}
	tmp := labelRecord + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("record the sandbox's labels: %w", err)
	}
	if err := os.Rename(tmp, labelRecord); err != nil {
		return fmt.Errorf("record the sandbox's labels: %w", err)
	}
	return nil
}

// currentLabel is path's mandatory label in SDDL, "" when it has none.
func currentLabel(path string) (string, error) {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.LABEL_SECURITY_INFORMATION)
	if err != nil {
		return "", err
	}
	s := sd.String()
	if i := strings.Index(s, "S:"); i >= 0 {
		return s[i:], nil
	}
	return "", nil
}

// restoreLabel gives path the label before (SDDL; "" removes the label,
// which Windows then reads as Medium).
func restoreLabel(path, before string) error {
	var sacl *windows.ACL
	if before != "" {
		sd, err := windows.SecurityDescriptorFromString(before)
		if err != nil {
			return fmt.Errorf("the recorded label of %s: %w", path, err)
		}
		if sacl, _, err = sd.SACL(); err != nil {
			return fmt.Errorf("the recorded label of %s: %w", path, err)
		}
	} else {
		// An empty SACL: no label.
		sd, err := windows.SecurityDescriptorFromString("S:")
		if err != nil {
			return err
		}
		if sacl, _, err = sd.SACL(); err != nil {
			return err
		}
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.LABEL_SECURITY_INFORMATION, nil, nil, nil, sacl); err != nil {
		return fmt.Errorf("put back the integrity label of %s: %w", path, err)
	}
	return nil
}
