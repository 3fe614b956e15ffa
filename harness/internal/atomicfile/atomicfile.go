// Package atomicfile replaces a file in one step, so a reader (or a crash)
// sees the old content or the new, never a part.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteFile replaces path with data: a temporary file in the same folder,
// written, synced, given mode perm, then renamed over path. On any error
// path is unchanged and the temporary file is removed; the error names
// path.
func WriteFile(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name()) // after the rename there is nothing to remove
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := retry(func() error { return os.Rename(tmp.Name(), path) }); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
