//go:build !linux && !darwin && !windows

package sandbox

func systemPaths() []string { return nil }
