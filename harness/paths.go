package harness

import (
	"fmt"
	"os"
	"path/filepath"
)

// appDirName is the folder of OpenWorker's files under the OS user config
// dir.
const appDirName = "OpenWorker"

// ConfigDir is where the app and the CLI keep their files unless told
// otherwise (the app's --config-dir, OPENWORKER_CONFIG_DIR):
// <user config dir>/OpenWorker, that is ~/.config/OpenWorker on Linux
// (XDG_CONFIG_HOME), ~/Library/Application Support/OpenWorker on macOS and
// %AppData%\OpenWorker on Windows. The error says the user config folder
// cannot be found (no HOME).
func ConfigDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the user config folder: %w", err)
	}
	return filepath.Join(base, appDirName), nil
}

// DefaultDBPath is <ConfigDir>/journal.db, the journal the CLI opens
// without --db; "journal.db" (in the working folder) when there is no user
// config folder.
func DefaultDBPath() string {
	dir, err := ConfigDir()
	if err != nil {
		return "journal.db"
	}
	return filepath.Join(dir, "journal.db")
}

// DefaultExtensionsDir is <ConfigDir>/extensions, where the app and the
// CLI keep installed extensions (docs/extensions.md#what-is-stored); "extensions"
// when there is no user config folder.
func DefaultExtensionsDir() string {
	dir, err := ConfigDir()
	if err != nil {
		return "extensions"
	}
	return filepath.Join(dir, "extensions")
}

// StartsFileName is the file in the config folder that remembers which
// MCP commands started once (Options.StartsFile, docs/mcp.md#start-bound).
const StartsFileName = "mcp-starts.json"
