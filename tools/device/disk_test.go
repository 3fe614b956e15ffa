package device

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestDiskUsage(t *testing.T) {
	cs := connect(t, nil)
	dir := t.TempDir()
	var u DiskUsage
	res := call(t, cs, "disk_usage_get", map[string]any{"path": dir}, nil, &u)
	if res.IsError {
		t.Fatalf("disk_usage_get failed: %s", errorText(res))
	}
	if u.Path != dir || u.Total == 0 || u.Used > u.Total || u.Free > u.Total || u.UsedPercent < 0 || u.UsedPercent > 100 {
		t.Errorf("disk_usage_get(%s) = %+v, want the path and consistent sizes", dir, u)
	}
	checkStatfs(t, dir, u)

	var def DiskUsage
	if res := call(t, cs, "disk_usage_get", nil, nil, &def); res.IsError || def.Path != defaultDiskPath() || def.Total == 0 {
		t.Errorf("disk_usage_get() = %+v (error %q), want the default path %s", def, errorText(res), defaultDiskPath())
	}
}

func TestDiskUsageBadPath(t *testing.T) {
	cs := connect(t, nil)
	for _, tt := range []struct{ path, want string }{
		{"relative/dir", "not absolute"},
		{filepath.Join(t.TempDir(), "missing"), "no such file or folder"},
	} {
		res := call(t, cs, "disk_usage_get", map[string]any{"path": tt.path}, nil, nil)
		if !res.IsError || !strings.Contains(errorText(res), tt.want) {
			t.Errorf("disk_usage_get(%q) = error %v %q, want a tool error containing %q", tt.path, res.IsError, errorText(res), tt.want)
		}
	}
}
