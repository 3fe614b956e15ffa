package settings

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/openworker/desktop/harness"
)

// Paths are where the app keeps its files. All of them derive from one
// config dir, so tests (and the app's --config-dir flag,
// OPENWORKER_CONFIG_DIR) can move everything at once and never touch the
// person's real folders.
type Paths struct {
	ConfigDir        string // harness.ConfigDir(): <os.UserConfigDir()>/OpenWorker
	Settings         string // settings.json (no secrets)
	Journal          string // journal.db (docs/journal.md; --db overrides)
	LogFile          string // logs/openworker.log (rotated)
	DefaultCoworkers string // <documents>/OpenWorker Coworkers
}

// ResolvePaths returns the paths under configDir (made absolute), or under
// harness.ConfigDir() when configDir is "". The error says the user config
// folder cannot be found.
func ResolvePaths(configDir string) (Paths, error) {
	if configDir == "" {
		dir, err := harness.ConfigDir()
		if err != nil {
			return Paths{}, err
		}
		configDir = dir
	}
	abs, err := filepath.Abs(configDir)
	if err != nil {
		return Paths{}, err
	}
	return Paths{
		ConfigDir:        abs,
		Settings:         filepath.Join(abs, "settings.json"),
		Journal:          filepath.Join(abs, "journal.db"),
		LogFile:          filepath.Join(abs, "logs", "openworker.log"),
		DefaultCoworkers: filepath.Join(documentsDir(), "OpenWorker Coworkers"),
	}, nil
}

// documentsDir is the person's documents folder: XDG_DOCUMENTS_DIR (from
// the environment or ~/.config/user-dirs.dirs) on Linux, the Known Folder
// FOLDERID_Documents on Windows (OneDrive may have moved it), ~/Documents
// on macOS and when neither says, falling back to the home folder.
func documentsDir() string {
	if d := knownDocuments(); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	if runtime.GOOS != "darwin" && runtime.GOOS != "windows" {
		if d := os.Getenv("XDG_DOCUMENTS_DIR"); d != "" {
			return d
		}
		if d := xdgUserDir(home, "XDG_DOCUMENTS_DIR"); d != "" {
			return d
		}
	}
	if home == "" {
		return "."
	}
	return filepath.Join(home, "Documents")
}

// xdgUserDir reads one entry of user-dirs.dirs, e.g.
// XDG_DOCUMENTS_DIR="$HOME/Documents".
func xdgUserDir(home, key string) string {
	cfg := os.Getenv("XDG_CONFIG_HOME")
	if cfg == "" {
		cfg = filepath.Join(home, ".config")
	}
	f, err := os.Open(filepath.Join(cfg, "user-dirs.dirs"))
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if !ok || k != key {
			continue
		}
		v = strings.Trim(v, `"`)
		v = strings.Replace(v, "$HOME", home, 1)
		if filepath.IsAbs(v) && filepath.Clean(v) != filepath.Clean(home) {
			return v
		}
	}
	return ""
}
