package servers

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ImportKept reads the servers file whose entries an import into dest
// keeps (the current argument of PlanImport; docs/servers.md#import):
//
//   - current is the servers file in use ("" for none); when it is ""
//     or dest itself, dest is read;
//   - when current is another file (of another client's format, which an
//     import does not write), its entries move into dest, and dest must
//     not exist yet: an import would write one over the other, so that is
//     an error saying to choose dest in Settings first;
//   - dest, when read, must be in the product's form (FormatOpenWorker):
//     an import rewrites it whole.
//
// A file that does not exist gives nil and no error (nothing to keep).
// The file is read without inputs (none is asked) and with the process
// environment; an entry that needs a value is kept as written. Every
// error names the file and the fix.
func ImportKept(current, dest string) (*Config, error) {
	read := func(path string) (*Config, error) {
		cfg, err := ReadConfig(path, nil)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("the servers file in use: %w", err)
		}
		if samePath(path, dest) && cfg.Format != FormatOpenWorker {
			return nil, fmt.Errorf("%s is a %s file, and an import writes only OpenWorker's own servers.json form over it: import into another file, or move that one away first", path, cfg.Format)
		}
		return cfg, nil
	}
	if current == "" || samePath(current, dest) {
		return read(dest)
	}
	if _, err := os.Stat(dest); err == nil {
		return nil, fmt.Errorf("the app uses %s, and %s exists too; importing would write one over the other: choose %s in Settings first",
			current, dest, filepath.Clean(dest))
	}
	return read(current)
}
