package app

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// seedCoworkers copies the example bundles into dir when dir is missing or
// empty (first run). A folder with anything in it is left alone. It returns
// whether it copied anything.
func seedCoworkers(dir string, examples fs.FS) (bool, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return false, nil
	}
	if examples == nil {
		return false, os.MkdirAll(dir, 0o755)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, fmt.Errorf("create the coworkers folder: %w", err)
	}
	err := fs.WalkDir(examples, ".", func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, filepath.FromSlash(p))
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := fs.ReadFile(examples, p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return false, fmt.Errorf("copy the example coworkers into %s: %w", dir, err)
	}
	return true, nil
}
