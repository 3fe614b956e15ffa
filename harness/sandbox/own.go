package sandbox

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
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

// Within reports whether p is dir or inside it ("..x" is a name inside),
// compared as the file system compares names: without case on macOS and
// Windows, whose usual file systems (APFS, NTFS) ignore it, so that a path
// typed in other letters is not taken for another folder.
func Within(dir, p string) bool {
	dir, p = filepath.Clean(dir), filepath.Clean(p)
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		dir, p = strings.ToLower(dir), strings.ToLower(p)
	}
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
