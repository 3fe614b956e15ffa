package launch

import (
	"path/filepath"

	"golang.org/x/sys/windows"
)

// diskName is the name the file system keeps for the file dir\name that
// a Stat found: Windows compares names without case, so "npx.cmd" finds
// npx.CMD, and FindFirstFile of a name without wildcards gives the
// stored spelling (one lookup, no folder read). name when that fails.
func diskName(dir, name string) string {
	p, err := windows.UTF16PtrFromString(filepath.Join(dir, name))
	if err != nil {
		return name
	}
	var fd windows.Win32finddata
	h, err := windows.FindFirstFile(p, &fd)
	if err != nil {
		return name
	}
	windows.FindClose(h)
	if real := windows.UTF16ToString(fd.FileName[:]); real != "" {
		return real
	}
	return name
}
