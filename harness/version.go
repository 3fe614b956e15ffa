package harness

import (
	"runtime/debug"
	"strings"
)

// Version names a build of OpenWorker: its version, commit and build date,
// as the product's release build stamps them at link time
// (-X main.version=…; docs/cli.md#version). Empty fields are unknown.
type Version struct {
	Version, Commit, Date string
}

// BuildVersion is v with what the linker did not stamp filled in from what
// Go embeds in every build (debug.ReadBuildInfo): the module version
// (unless "(devel)"), the VCS revision (first 12 hex digits, "-dirty" when
// the tree had changes) and the commit time. A plain `go build` thus says
// which commit it is; the release script's -X stamps still win
// (docs/cli.md#version).
func BuildVersion(v Version) Version {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	return fillVersion(v, bi)
}

// fillVersion fills the empty fields of v from bi.
func fillVersion(v Version, bi *debug.BuildInfo) Version {
	if v.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v.Version = bi.Main.Version
	}
	var rev, at string
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			at = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if v.Commit == "" && rev != "" {
		v.Commit = rev[:min(len(rev), 12)]
		if dirty {
			v.Commit += "-dirty"
		}
	}
	if v.Date == "" && at != "" {
		v.Date = strings.TrimSpace(at)
	}
	return v
}
