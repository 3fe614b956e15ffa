package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// lockFileName is the single-instance lock file in the config dir.
const lockFileName = "openworker.lock"

// ErrAlreadyRunning is returned by acquireInstanceLock when another process
// holds the lock: another OpenWorker runs on the same config dir.
var ErrAlreadyRunning = errors.New("OpenWorker is already running")

// instanceLock is an exclusive, non-blocking OS lock on a file (flock on
// unix, LockFileEx on Windows). It decides which start is first, before
// Wails' single-instance lock is tried: that one is taken only inside
// wails.Run, after the journal is open, and on Linux needs a D-Bus session
// bus; without one a second start would open a second window on the same
// journal (docs/cli.md#the-desktop-app). The OS drops the lock when the
// process ends, however it ends, so a crash leaves no stale lock.
type instanceLock struct {
	f *os.File
}

// acquireInstanceLock creates path (and its folder) if needed and locks it.
// When another open file holds the lock it returns an error wrapping
// ErrAlreadyRunning that names the holder's pid when known. On success the
// file holds this process's pid (for diagnostics only).
func acquireInstanceLock(path string) (*instanceLock, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create the folder of the lock file: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open the lock file: %w", err)
	}
	held, err := lockFile(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if held {
		f.Close()
		if pid := readLockPID(path); pid > 0 {
			return nil, fmt.Errorf("%w (process %d holds %s)", ErrAlreadyRunning, pid, path)
		}
		return nil, fmt.Errorf("%w (%s is locked)", ErrAlreadyRunning, path)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &instanceLock{f: f}, nil
}

// Release unlocks and closes the file; the file stays (removing it would
// race with a process that just opened it). Release on nil is a no-op.
func (l *instanceLock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := errors.Join(unlockFile(l.f), l.f.Close())
	l.f = nil
	return err
}

// readLockPID reads the pid the holder wrote, 0 when unreadable (Windows
// refuses reads of a locked region).
func readLockPID(path string) int {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	return pid
}
