package app

import (
	"context"
	"fmt"
	"os"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/model"
)

// ResolvedToolInfo is one tool a coworker's tools.json selects, as resolved:
// its qualified name and where it runs.
type ResolvedToolInfo struct {
	Name     string `json:"name"`     // qualified name, e.g. device.system_info_get
	Provider string `json:"provider"` // "native" or "mcp:<namespace>"
	// Placement is where its calls go: "on this computer" (with a
	// sandboxed provider's sandbox in words after it) or a remote host
	// name (docs/consent.md#placement).
	Placement string `json:"placement"`
	// ProgramPath is the program its stdio provider runs, as resolved
	// (docs/mcp.md#finding-the-program); absent for native tools and HTTP
	// providers. The coworker card shows it.
	ProgramPath string `json:"program_path,omitempty"`
	// Access is what its calls can reach (docs/sandbox.md#in-words): a
	// sandboxed stdio provider's sandbox in words ("sandboxed: …"),
	// "runs with your full access" for an unsandboxed one and native
	// tools, "" for a provider reached at a URL. The card shows it under
	// the provider's "runs PATH" line.
	Access string `json:"access,omitempty"`
}

// LeftOutInfo is a tool of a whole provider (tools.json version 1) that
// was left out because the model provider's tool-name rule refuses its
// name (docs/bundles.md): the Coworkers card shows Message as a warning.
type LeftOutInfo struct {
	Tool    string `json:"tool"`    // qualified name
	Message string `json:"message"` // the warning: the tool, the rule it breaks, where in tools.json
}

// skippedFile is the entry of a file (not a folder) in the bundles folder.
func skippedFile(dir, file string) BrokenBundle {
	return BrokenBundle{Dir: file, File: file, Message: "this is a file, not a coworker folder, so it was skipped",
		Fix: "each coworker is a folder <id>/coworker/manifest.md; move the file out of " + dir + ", or unpack it there if it is a zipped bundle"}
}

// ResolveFixInApp is BrokenBundle.Fix of a coworker that loads but does not
// resolve: harness.ResolveFix and where the app adds a provider.
const ResolveFixInApp = harness.ResolveFix + ", for instance with Settings → Import MCP servers…, or install an extension that provides it (Settings → Extensions → Install extension…)"

// fixInApp is the fix of a checked bundle as the app words it.
func fixInApp(fix string) string {
	if fix == harness.ResolveFix {
		return ResolveFixInApp
	}
	return fix
}

// checkedList resolves the bundles folder dir with the harness's one check
// (harness.Runtime.Check, what `openworker check` prints; it loads the
// folder once) and turns the report into the list the UI shows. rt nil
// (the harness did not start) lists the bundles that load, unresolved:
// opening a chat then says why. rule is the tool-name rule of the model
// provider new chats use (nil: the rule both providers share). exts (nil:
// none) relates the report to the installed extensions
// (env.extensionAnnotator): each coworker lists the extensions it uses.
func checkedList(ctx context.Context, rt *harness.Runtime, dir string, rule model.NameRule,
	exts func(context.Context, *harness.CheckReport) []extension.Provider) CoworkerList {
	l := CoworkerList{Dir: dir, Coworkers: []CoworkerInfo{}, Broken: []BrokenBundle{}}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		l.Error = fmt.Sprintf("the coworkers folder %s does not exist or is not a folder; choose another one", dir)
		return l
	}
	if rt == nil {
		set, err := bundle.LoadDir(dir)
		if err != nil {
			l.Error = err.Error()
			return l
		}
		for _, e := range set.Errors {
			l.Broken = append(l.Broken, BrokenBundle{Dir: e.Dir, File: e.File, Line: e.Line, Col: e.Col, Message: e.Msg, Fix: e.Fix})
		}
		for _, f := range set.Skipped {
			l.Broken = append(l.Broken, skippedFile(dir, f))
		}
		for _, b := range set.Bundles {
			l.Coworkers = append(l.Coworkers, CoworkerInfo{ID: b.ID, Name: b.Name, Description: b.Description, Version: b.Version,
				Dir: b.Dir, Tools: []ResolvedToolInfo{}, LeftOut: []LeftOutInfo{}, Extensions: []ExtensionUse{}})
		}
		return l
	}
	rep, err := rt.Check(ctx, dir, rule)
	if err != nil {
		l.Error = err.Error()
		return l
	}
	var providers []extension.Provider
	if exts != nil {
		providers = exts(ctx, rep)
	}
	for _, cb := range rep.Broken { // load errors (Reason is the message without the position) and resolve errors
		bb := BrokenBundle{ID: cb.ID, Name: cb.Name, Dir: cb.Dir, File: cb.File, Line: cb.Line, Col: cb.Col,
			Message: cb.Reason, Fix: fixInApp(cb.Fix), Provider: cb.Provider}
		if fix := timeoutFix(rt.Registry(), cb.Provider, cb.Reason); fix != "" { // slow, not misconfigured (docs/app.md#starting)
			bb.Fix = fix
		}
		l.Broken = append(l.Broken, bb)
	}
	for _, f := range rep.Skipped {
		l.Broken = append(l.Broken, skippedFile(dir, f))
	}
	for _, c := range rep.OK {
		tools := make([]ResolvedToolInfo, len(c.Tools))
		for i, t := range c.Tools {
			tools[i] = ResolvedToolInfo{Name: t.Name, Provider: t.Provider, Placement: t.Placement, Access: t.Access, ProgramPath: t.ProgramPath}
		}
		left := make([]LeftOutInfo, len(c.LeftOut))
		for i, lo := range c.LeftOut {
			left[i] = LeftOutInfo{Tool: lo.Tool, Message: lo.Message}
		}
		l.Coworkers = append(l.Coworkers, CoworkerInfo{ID: c.ID, Name: c.Name, Description: c.Description, Version: c.Version,
			Dir: c.Dir, Tools: tools, LeftOut: left, Extensions: extensionUses(providers, c.Tools)})
	}
	return l
}
