//go:build !windows

package sandbox

// Release puts back what Prepare changed for the program whose temporary
// folder is temp; only Windows changes anything (labels_windows.go).
func Release(temp string) error { return nil }

// RestoreLeftLabels puts back what an earlier run left; only Windows
// leaves anything (labels_windows.go).
func RestoreLeftLabels() error { return nil }
