package app

import "sync"

// settingsStore holds the settings in use (the saved ones with this
// run's flags on top) and as saved in settings.json, and writes that file.
//
// mu guards the two copies and is held only to copy them. writeMu makes
// each write of the file one step (read what it needs, write, keep the
// result), so two writers never lose each other's change; it is held
// across that local file write and taken by writers only: no read of the
// settings waits for it.
type settingsStore struct {
	file             string // settings.json
	flags            config // this run's flags, kept out of the file (keepSaved)
	defaultCoworkers string // the coworkers folder when none is chosen

	writeMu sync.Mutex

	mu    sync.Mutex
	inUse Settings
	saved Settings
	// loadErr is why settings.json could not be read at start (the
	// defaults are in use, and a notice says so).
	loadErr error
}

// broken reports whether settings.json could not be read at start.
func (s *settingsStore) broken() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.loadErr != nil
}

// get returns the settings in use.
func (s *settingsStore) get() Settings {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inUse
}

// coworkersDir is the bundles folder in use.
func (s *settingsStore) coworkersDir() string {
	return coworkersDirOf(s.get(), s.defaultCoworkers)
}

// coworkersDirOf is the bundles folder of s, def when none is chosen.
func coworkersDirOf(s Settings, def string) string {
	if s.CoworkersDir != "" {
		return s.CoworkersDir
	}
	return def
}

// theme is the theme in use: "system", "light" or "dark".
func (s *settingsStore) theme() string {
	if t := s.get().Theme; t != "" {
		return t
	}
	return ThemeSystem
}

// write runs f with the settings in use and as saved, holding writeMu,
// and keeps what it returns: f does the file's I/O and returns the new
// copies (the ones it was given when nothing changed) and its error.
func (s *settingsStore) write(f func(inUse, saved Settings) (Settings, Settings, error)) error {
	s.writeMu.Lock()
	defer s.writeMu.Unlock()
	s.mu.Lock()
	inUse, saved := s.inUse, s.saved
	s.mu.Unlock()
	inUse, saved, err := f(inUse, saved)
	s.mu.Lock()
	s.inUse, s.saved = inUse, saved
	s.mu.Unlock()
	return err
}

// save makes change(the settings in use) the settings in use and writes
// them, less this run's flags (keepSaved), to settings.json. When change
// or the write fails nothing changes. It returns the settings in use
// before and after.
func (s *settingsStore) save(change func(Settings) (Settings, error)) (before, after Settings, err error) {
	err = s.write(func(inUse, saved Settings) (Settings, Settings, error) {
		before, after = inUse, inUse
		next, err := change(inUse)
		if err != nil {
			return inUse, saved, err
		}
		file := s.flags.keepSaved(next, inUse, saved)
		if err := SaveSettings(s.file, file); err != nil {
			return inUse, saved, err
		}
		after = next
		return next, file, nil
	})
	return before, after, err
}

// update changes settings.json as it is on disk with change (its other
// fields stay as they are there, updateSettingsFile) and, when that
// worked, the settings in use the same way.
func (s *settingsStore) update(change func(*Settings)) error {
	return s.write(func(inUse, saved Settings) (Settings, Settings, error) {
		file, err := updateSettingsFile(s.file, change)
		if err != nil {
			return inUse, saved, err
		}
		change(&inUse)
		return inUse, file, nil
	})
}
