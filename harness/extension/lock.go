package extension

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockFile is the file in Dir whose OS lock Install and Remove hold, so
// that two processes (two `openworker extension install` of one file, an
// install beside the app) change the folder one after the other. Its name
// starts with "." and it is no folder, so List never takes it for an
// extension.
const lockFile = ".lock"

// lock takes the extensions folder's lock, waiting for another process
// that holds it, and returns its release. It creates Dir (mode 0700) when
// it is missing. The OS drops the lock when the process dies.
func (s *Store) lock() (unlock func(), err error) {
	if err := os.MkdirAll(s.Dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the extensions folder: %w", err)
	}
	p := filepath.Join(s.Dir, lockFile)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w; check the permissions of the extensions folder", p, err)
	}
	if err := lockExclusive(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", p, err)
	}
	return func() { f.Close() }, nil // closing the file releases the lock
}
