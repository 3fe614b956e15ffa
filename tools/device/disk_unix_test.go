//go:build linux || darwin

package device

import (
	"testing"

	"golang.org/x/sys/unix"
)

// checkStatfs compares the tool's total with statfs(2) on the same path.
func checkStatfs(t *testing.T, path string, u DiskUsage) {
	t.Helper()
	var st unix.Statfs_t
	if err := unix.Statfs(path, &st); err != nil {
		t.Fatal(err)
	}
	if want := uint64(st.Blocks) * uint64(st.Bsize); u.Total != want {
		t.Errorf("total = %d, want %d from statfs", u.Total, want)
	}
}
