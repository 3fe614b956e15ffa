//go:build !windows

package atomicfile

// transient is false outside Windows: opening or renaming over a file
// open elsewhere does not fail there.
func transient(error) bool { return false }
