package settings

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/openworker/desktop/harness/servers"
)

// serversFileName is the app's own servers file in its config dir, the
// destination of an import when the file in use is another client's.
const serversFileName = "servers.json"

// ImportDest is where an import (docs/servers.md#import) writes when the
// app uses current ("" for none) and keeps its files in configDir: current
// itself when it is in the product's form or does not exist yet, else
// <configDir>/servers.json. A current file that cannot be read is an
// error naming it.
func ImportDest(current, configDir string) (string, error) {
	fallback := filepath.Join(configDir, serversFileName)
	if current == "" {
		return fallback, nil
	}
	cfg, err := servers.ReadConfig(current, nil)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return current, nil
	case err != nil:
		return "", fmt.Errorf("the servers file in use cannot be read, so an import cannot keep its entries: %w", err)
	case cfg.Format == servers.FormatOpenWorker:
		return current, nil
	}
	return fallback, nil
}

// ImportTarget is where `openworker servers import --write` writes for the
// app whose config dir is configDir ("" for the default,
// harness.ConfigDir): current is the servers file its saved settings name
// ("" for none), dest the file to write (ImportDest). The error is for
// settings or a servers file that cannot be read.
func ImportTarget(configDir string) (current, dest string, err error) {
	paths, err := ResolvePaths(configDir)
	if err != nil {
		return "", "", err
	}
	s, err := Load(paths.Settings)
	if err != nil {
		return "", "", err
	}
	dest, err = ImportDest(s.ServersPath, paths.ConfigDir)
	return s.ServersPath, dest, err
}

// UseServersFile saves path as the servers file of the settings in
// configDir ("" for the default): the app uses it from its next start
// (a running app keeps the file it has until Settings are saved).
// The other settings are kept as saved.
func UseServersFile(configDir, path string) error {
	paths, err := ResolvePaths(configDir)
	if err != nil {
		return err
	}
	_, err = Update(paths.Settings, func(s *Settings) { s.ServersPath = path })
	return err
}
