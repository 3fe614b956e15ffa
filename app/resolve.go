package app

import (
	"context"

	"github.com/openworker/desktop/harness"
)

// ResolvedToolInfo is one tool a coworker's tools.json selects, as resolved:
// its qualified name and where it runs.
type ResolvedToolInfo struct {
	Name     string `json:"name"`     // qualified name, e.g. device.system_info_get
	Provider string `json:"provider"` // "native" or "mcp:<namespace>"
}

// skippedFile is the entry of a file (not a folder) in the bundles folder.
func skippedFile(dir, file string) BrokenBundle {
	return BrokenBundle{Dir: file, File: file, Message: "this is a file, not a coworker folder, so it was skipped",
		Fix: "each coworker is a folder <id>/coworker/manifest.md; move the file out of " + dir + ", or unpack it there if it is a zipped bundle"}
}

// checkedList resolves the bundles folder dir with the harness's one check
// (harness.Runtime.Check, what `openworker check` prints) and turns the
// report into the list the UI shows. rt nil (the harness did not start)
// lists the bundles that load, unresolved: opening a chat then says why.
func checkedList(ctx context.Context, rt *harness.Runtime, dir string) CoworkerList {
	l, bundles := loadCoworkers(dir)
	if l.Error != "" || rt == nil {
		for _, b := range bundles {
			l.Coworkers = append(l.Coworkers, CoworkerInfo{ID: b.ID, Name: b.Name, Description: b.Description, Version: b.Version,
				Dir: b.Dir, Tools: []ResolvedToolInfo{}})
		}
		return l
	}
	rep, err := rt.Check(ctx, dir)
	if err != nil {
		l.Error = err.Error()
		return l
	}
	l.Broken = l.Broken[:0]
	for _, cb := range rep.Broken {
		l.Broken = append(l.Broken, BrokenBundle{ID: cb.ID, Name: cb.Name, Dir: cb.Dir, File: cb.File, Line: cb.Line, Col: cb.Col,
			Message: cb.Reason, Fix: cb.Fix})
	}
	for _, f := range rep.Skipped {
		l.Broken = append(l.Broken, skippedFile(dir, f))
	}
	for _, c := range rep.OK {
		tools := make([]ResolvedToolInfo, len(c.Tools))
		for i, t := range c.Tools {
			tools[i] = ResolvedToolInfo{Name: t.Name, Provider: t.Provider}
		}
		l.Coworkers = append(l.Coworkers, CoworkerInfo{ID: c.ID, Name: c.Name, Description: c.Description, Version: c.Version,
			Dir: c.Dir, Tools: tools})
	}
	return l
}
