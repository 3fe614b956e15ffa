package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/doctor"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/redact"
)

// The Diagnostics screen (docs/app.md#diagnostics): Settings →
// Diagnostics opens it; it asks DiagnosticsPlan which servers a run would
// start (only those a coworker uses) and which of them may download first
// (never started here, through npx, uvx, …), asks the person before those,
// runs RunDiagnostics and shows the report, which it can copy or save
// (SaveDiagnostics).

// DiagnosticsServer is an MCP server the Diagnostics screen would start.
type DiagnosticsServer struct {
	Namespace string   `json:"namespace"`
	Coworkers []string `json:"coworkers"` // names of the coworkers that use it
	// MayDownload says why its start may download first ("npx may still
	// be downloading the package": it never started on this computer),
	// "" when it only runs what is there (mcp.MayDownload).
	MayDownload string `json:"may_download"`
}

// DiagnosticsPlan is what a run of the diagnostics would start.
type DiagnosticsPlan struct {
	Servers []DiagnosticsServer `json:"servers"` // by namespace
	// Unused are the namespaces of the servers file that no coworker
	// uses: never started by the diagnostics.
	Unused []string `json:"unused"`
}

// DiagnosticsReport is a run's report: its sections as the screen shows
// them, the text that Copy and Save take, and how long the run took.
type DiagnosticsReport struct {
	Sections []doctor.Section `json:"sections"`
	Text     string           `json:"text"`
	TookMS   int64            `json:"took_ms"`
}

// fileSaver is the optional part of Dialogs that asks where to save a
// file (the Wails runtime's save dialog); "" when the person cancels.
type fileSaver interface {
	SaveFile(title, start, name string) (string, error)
}

// DiagnosticsPlan lists the servers a run of the diagnostics starts: those
// of the registry that a coworker of the coworkers folder names (a whole
// provider or one of its tools), each with the coworkers that use it and
// whether its start may download first. Nothing is started.
func (a *Activity) DiagnosticsPlan() (DiagnosticsPlan, error) {
	rt := a.engine.runtime()
	if rt == nil {
		return DiagnosticsPlan{Servers: []DiagnosticsServer{}, Unused: []string{}}, nil
	}
	p := diagnosticsPlan(rt.Registry(), coworkerNamespaces(a.settings.coworkersDir()), a.startsFile())
	n := 0
	for _, s := range p.Servers {
		if s.MayDownload != "" {
			n++
		}
	}
	noteEditor(fmt.Sprintf("diagnostics plan %d downloads", n)) // e2e builds only (e2e_hook.go)
	return p, nil
}

func (a *Activity) startsFile() string {
	return filepath.Join(a.paths.ConfigDir, harness.StartsFileName)
}

// diagnosticsPlan splits the servers of reg into those used (by the
// coworkers named in used, by namespace) and the unused.
func diagnosticsPlan(reg *tool.Registry, used map[string][]string, startsFile string) DiagnosticsPlan {
	p := DiagnosticsPlan{Servers: []DiagnosticsServer{}, Unused: []string{}}
	for _, srv := range reg.Servers() {
		names, ok := used[srv.Namespace]
		if !ok {
			p.Unused = append(p.Unused, srv.Namespace)
			continue
		}
		p.Servers = append(p.Servers, DiagnosticsServer{Namespace: srv.Namespace, Coworkers: names, MayDownload: mcp.MayDownload(srv, startsFile)})
	}
	sort.Slice(p.Servers, func(i, j int) bool { return p.Servers[i].Namespace < p.Servers[j].Namespace })
	sort.Strings(p.Unused)
	return p
}

// coworkerNamespaces maps each provider namespace the coworkers of dir
// name to those coworkers' names (a folder that cannot be read names
// none).
func coworkerNamespaces(dir string) map[string][]string {
	out := map[string][]string{}
	set, err := bundle.LoadDir(dir)
	if err != nil {
		return out
	}
	for _, b := range set.Bundles {
		seen := map[string]bool{}
		namespaces := b.Tools.WholeProviders()
		for _, n := range b.Tools.Explicit() {
			if ns, _, ok := strings.Cut(n, "."); ok {
				namespaces = append(namespaces, ns)
			}
		}
		for _, ns := range namespaces {
			if !seen[ns] {
				seen[ns] = true
				out[ns] = append(out[ns], orID(b.Name, b.ID))
			}
		}
	}
	return out
}

func orID(name, id string) string {
	if name != "" {
		return name
	}
	return id
}

// RunDiagnostics builds the report (docs/app.md#diagnostics): the facts of
// `openworker doctor` for the app as it runs, starting each server a
// coworker uses (DiagnosticsPlan) once. A server whose start may download
// is started only when allowDownloads; otherwise its line says it was not
// started and why. Servers no coworker uses are never started (one line
// names them). The model in use is sent one tiny request (Test
// connection's). Secrets are redacted. It takes at most a minute (2½ with downloads).
func (a *Activity) RunDiagnostics(allowDownloads bool) (DiagnosticsReport, error) {
	if a.base == nil {
		return DiagnosticsReport{}, errors.New("the app has not started yet")
	}
	start := time.Now()
	plan, _ := a.DiagnosticsPlan()
	in, err := a.diagnosticsInput()
	if err != nil {
		return DiagnosticsReport{}, err
	}
	started, notStarted := map[string]bool{}, []doctor.Fact{}
	for _, s := range plan.Servers {
		if s.MayDownload != "" && !allowDownloads {
			notStarted = append(notStarted, doctor.Fact{Key: "provider " + s.Namespace, Status: doctor.Unavailable,
				Value: "not started: " + s.MayDownload + " (it never started on this computer); run the diagnostics again and allow downloads to start it"})
			continue
		}
		started[s.Namespace] = true
	}
	var servers []tool.MCPServer
	for _, srv := range in.Servers {
		if started[srv.Namespace] {
			servers = append(servers, srv)
		}
	}
	in.Servers = servers
	bound := diagnosticsTimeout
	if allowDownloads { // a first npx start may take mcp.DownloadStartTimeout
		bound = mcp.DownloadStartTimeout + diagnosticsTimeout/2
	}
	ctx, cancel := context.WithTimeout(a.base, bound)
	defer cancel()
	rep := doctor.Diagnose(ctx, in)
	for i := range rep.Sections {
		if s := &rep.Sections[i]; s.Name == "providers" {
			s.Facts = append(s.Facts, notStarted...)
			if len(plan.Unused) > 0 {
				s.Facts = append(s.Facts, doctor.Fact{Key: "not started", Value: fmt.Sprintf("no coworker uses %s", strings.Join(plan.Unused, ", "))})
			}
		}
	}
	noteEditor("diagnostics report") // e2e builds only (e2e_hook.go)
	return DiagnosticsReport{Sections: rep.Sections, Text: rep.Text(), TookMS: time.Since(start).Milliseconds()}, nil
}

// diagnosticsInput is doctor's input for the app as it runs: its journal,
// the providers and broken entries of its servers file, its settings.
func (a *Activity) diagnosticsInput() (doctor.Input, error) {
	j, _ := a.engine.openJournal() // nil when it did not open
	settings, servers, rt, rtErr := a.settings.get(), a.servers.state(), a.engine.runtime(), a.engine.runtimeErr()
	in := doctor.Input{Version: a.cfg.Build, Journal: j, JournalPath: a.paths.Journal,
		ServersFile: settings.ServersPath, Getenv: a.cfg.Getenv, StartsFile: a.startsFile()}
	if servers.err != nil && servers.whole {
		in.ServersErr = servers.err
	}
	if rt != nil {
		reg := rt.Registry()
		in.Servers, in.Broken, in.Agents = reg.Servers(), reg.Broken(), reg.Agents()
	}
	in.Hooks = doctor.SettingsHooks(a.cfg.Getenv, a.keys, func() (Settings, error) { return settings, nil })
	in.Hooks.Desktop = DesktopFacts(a.cfg.Getenv)
	in.Hooks.SearchPath = a.searchPath // the PATH the app starts programs on (nil: launch.Default)
	sections := in.Hooks.Sections
	// The host's sections are redacted with the others: the model's
	// reachability (its error may name the base URL) is one of them.
	in.Hooks.Sections = func(ctx context.Context) []doctor.Section {
		out := sections(ctx)
		for i := range out {
			if out[i].Name == "model" {
				out[i].Facts = append(out[i].Facts, a.modelReachable(ctx))
			}
		}
		if rtErr != nil {
			out = append(out, doctor.Section{Name: "runtime", Facts: []doctor.Fact{{Key: "error", Status: doctor.Failed, Value: rtErr.Error()}}})
		}
		return out
	}
	return in, nil
}

// modelReachable is the fact "reachable": one tiny request to the model
// in use (model.TestConnection), its latency or the failure and its fix.
// Its text never holds the key (the error names the request, not its
// headers).
func (a *Activity) modelReachable(ctx context.Context) doctor.Fact {
	c, _ := a.modelConfig(a.settings.get())
	ctx, cancel := model.WithProbeTimeout(ctx, probeTimeout)
	defer cancel()
	conn, err := model.TestConnection(ctx, c)
	if err != nil {
		// The error names the request: its URL may hold a password or key.
		v := redact.New(redact.URLSecrets(c.BaseURL)).Replace(err.Error())
		var pe *model.ProbeError
		if errors.As(err, &pe) {
			if fix := probeAdvice(c, pe); fix != "" {
				v += "; " + fix
			}
		}
		return doctor.Fact{Key: "reachable", Status: doctor.Failed, Value: v}
	}
	return doctor.Fact{Key: "reachable", Status: doctor.OK, Value: fmt.Sprintf("yes, %d ms (%s)", conn.Latency.Milliseconds(), conn.Via)}
}

// SaveDiagnostics asks where to save text (a report of RunDiagnostics)
// with the native save dialog, starting in the home folder with the name
// openworker-diagnostics-DATE.txt, and writes it there in one step. It
// returns the path written, "" when the person cancels.
func (a *Activity) SaveDiagnostics(text string) (string, error) {
	fs, ok := a.dialogs.(fileSaver)
	if !ok {
		return "", errors.New("no save dialog is available; copy the report instead")
	}
	home, _ := os.UserHomeDir()
	name := "openworker-diagnostics-" + time.Now().Format("2006-01-02") + ".txt"
	path, err := fs.SaveFile("Save the diagnostics", home, name)
	if err != nil || path == "" {
		return "", err
	}
	if err := doctor.Save(path, text); err != nil {
		return "", err
	}
	a.log.Info("diagnostics saved", "path", path)
	return path, nil
}
