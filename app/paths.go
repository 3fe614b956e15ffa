package app

import "github.com/openworker/desktop/harness/settings"

// Paths are where the app keeps its files, all under one config dir
// (settings.Paths).
type Paths = settings.Paths

// resolvePaths returns the paths under configDir, or under the default
// config dir when configDir is "" (settings.ResolvePaths).
func resolvePaths(configDir string) (Paths, error) { return settings.ResolvePaths(configDir) }
