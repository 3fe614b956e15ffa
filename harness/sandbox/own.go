package sandbox

import (
	"os"
	"path/filepath"
)

// ConfigDirEnv moves OpenWorker's folder (the app's --config-dir sets it
// for its own process too): docs/sandbox.md#variables.
const ConfigDirEnv = "OPENWORKER_CONFIG_DIR"

// OwnFolders are OpenWorker's own folders, which no sandboxed provider may
// write nor be given: the default <user config dir>/OpenWorker and, when
// OPENWORKER_CONFIG_DIR moves it, the folder in use. Its servers.json and
// installed extensions decide the sandboxes, and its journal holds every
// chat, wherever it is.
func OwnFolders() []string {
	var own []string
	if cfg, err := os.UserConfigDir(); err == nil {
		own = append(own, filepath.Join(cfg, "OpenWorker"))
	}
	if moved := os.Getenv(ConfigDirEnv); moved != "" {
		if abs, err := filepath.Abs(moved); err == nil && (len(own) == 0 || abs != own[0]) {
			own = append(own, abs)
		}
	}
	return own
}
