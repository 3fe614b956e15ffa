//go:build !windows

package settings

// knownDocuments is Windows' Known Folder; elsewhere there is none.
func knownDocuments() string { return "" }
