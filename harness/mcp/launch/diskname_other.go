//go:build !windows

package launch

import (
	"os"
	"strings"
)

// diskName is the name the file system keeps for the file dir/name that
// a Stat found: name itself on a file system that compares names with
// case; on one that does not (macOS's APFS by default, where the Windows
// rules are tested too) the entry of the folder that equals name without
// case, the exact one first.
func diskName(dir, name string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return name
	}
	fold := ""
	for _, e := range entries {
		switch {
		case e.Name() == name:
			return name
		case fold == "" && strings.EqualFold(e.Name(), name):
			fold = e.Name()
		}
	}
	if fold != "" {
		return fold
	}
	return name
}
