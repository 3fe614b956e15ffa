package cli

import (
	"fmt"
	"io"

	"github.com/openworker/desktop/harness/journal"
)

// printViewLines prints, under an invocation line of journal show, the app
// view of its result and who asked it when an app view did
// (docs/journal.md#app-views):
//
//	view: ui://charts/view.html (1234 bytes, sha256:…)
//	from: the app view of charts.show (inv_…)
//
// byID holds the session's invocations, to name the tool whose view asked.
func printViewLines(w io.Writer, inv journal.Invocation, byID map[string]journal.Invocation) {
	if id, ok := journal.OriginInvocation(inv.Origin); ok {
		if o, found := byID[id]; found {
			fmt.Fprintf(w, "    from: the app view of %s (%s)\n", oneLine(o.Tool, 120), oneLine(id, 80))
		} else {
			fmt.Fprintf(w, "    from: the app view of %s (not an invocation of this session)\n", oneLine(id, 80))
		}
	} else if inv.Origin != "" {
		fmt.Fprintf(w, "    from: %s\n", oneLine(inv.Origin, 120))
	}
	if inv.UIURI != "" {
		fmt.Fprintf(w, "    view: %s (%s, %s)\n", oneLine(inv.UIURI, 200), plural(inv.UISize, "byte"), oneLine(inv.UIDigest, 80))
	}
}

// invocationsByID indexes the invocations of a session detail.
func invocationsByID(d journal.SessionDetail) map[string]journal.Invocation {
	m := make(map[string]journal.Invocation, len(d.Invocations))
	for _, inv := range d.Invocations {
		m[inv.ID] = inv
	}
	return m
}

// askedBy names who asked a call, for a table column: "model", or
// "view of INVOCATION" when an app view did (docs/journal.md#app-views).
func askedBy(origin string) string {
	if id, ok := journal.OriginInvocation(origin); ok {
		return "view of " + oneLine(id, 40)
	}
	if origin != "" {
		return oneLine(origin, 40)
	}
	return "model"
}
