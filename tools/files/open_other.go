//go:build !unix

package files

// openNonblock: opening a file does not wait on this OS.
const openNonblock = 0
