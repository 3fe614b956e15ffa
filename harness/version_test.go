package harness

import (
	"runtime/debug"
	"testing"
)

// A plain build says its module version, commit and commit time from the
// build info; linker stamps win; "(devel)" and missing settings stay empty.
func TestFillVersion(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "v0.9.1"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "3ac45ff0123456789abcdef0123456789abcdef0"},
		{Key: "vcs.time", Value: "2026-12-01T15:50:00Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	if got := fillVersion(Version{}, bi); got != (Version{Version: "v0.9.1", Commit: "3ac45ff01234-dirty", Date: "2026-12-01T15:50:00Z"}) {
		t.Errorf("plain build = %+v", got)
	}
	stamped := Version{Version: "1.2.0", Commit: "abc", Date: "2026-11-30"}
	if got := fillVersion(stamped, bi); got != stamped {
		t.Errorf("stamped build = %+v; want the stamps kept", got)
	}
	devel := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}
	if got := fillVersion(Version{}, devel); got != (Version{}) {
		t.Errorf("devel build without VCS info = %+v; want nothing filled in", got)
	}
}
