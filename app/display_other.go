//go:build !linux

package app

// displayMissing is Linux's question: macOS and Windows always have one.
func displayMissing(func(string) string) bool { return false }
