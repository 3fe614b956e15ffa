package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
	"github.com/shirou/gopsutil/v4/host"
	"github.com/zalando/go-keyring"
)

// Input is what Diagnose reports on.
type Input struct {
	Version harness.Version
	Hooks   Hooks
	// Journal is an open journal to check (the app's own); without it,
	// JournalPath is opened for the checks and closed after (a missing
	// file is reported, not created).
	Journal     *journal.Journal
	JournalPath string
	// ServersFile is the servers file the providers come from ("" for
	// none) and ServersErr why it could not be read.
	ServersFile string
	ServersErr  error
	// Servers are the MCP providers to start, each once; Broken the
	// entries that could not be used.
	Servers []tool.MCPServer
	Broken  []tool.BrokenMCP
	// Agents are the A2A agents whose cards to read (docs/a2a.md).
	Agents []tool.A2AAgent
	// StartsFile is the first-start memory the providers are started
	// with (harness.StartsFileName in the config folder): a start that
	// succeeds is remembered, so a later start is not taken for a
	// download (docs/mcp.md#start-bound); "" remembers nothing.
	StartsFile string
	// StartTimeout bounds each provider start; 0 means
	// mcp.DefaultStartTimeout, as check and run use.
	StartTimeout time.Duration
	InstallDir   string
	// Getenv reads the environment; nil means os.Getenv.
	Getenv func(string) string
	// Tokens are the stored sign-ins remote providers start with (never
	// asked for here, and never in the report: docs/mcp.md#sign-in); nil
	// sends no token.
	Tokens oauth.TokenStore

	searchPath launch.SearchPath // Hooks.SearchPath's answer, read once by Diagnose
}

// keychainProbeTimeout bounds the default keychain probe: on Linux a
// Secret Service that never answers must not hold the report.
const keychainProbeTimeout = 5 * time.Second

// Diagnose builds the report of `openworker doctor` and the app's "Copy
// diagnostics" (docs/cli.md#doctor): it starts each provider of
// in.Servers (at most 16 at once, each within the start timeout), lists
// its tools and ends it, reads each agent's card, runs the journal's
// checks (quick_check, the newest chain entries, then the full verify)
// and asks the hooks. Every value is redacted (redactor) before it is
// returned.
func Diagnose(ctx context.Context, in Input) *Report {
	if in.Getenv == nil {
		in.Getenv = os.Getenv
	}
	if in.Hooks.SearchPath != nil {
		in.searchPath = in.Hooks.SearchPath(ctx)
	} else {
		in.searchPath = launch.Default(ctx)
	}
	rep := &Report{}
	rep.Sections = append(rep.Sections,
		openWorkerSection(in),
		systemSection(ctx),
		webviewSection(ctx, in.Hooks),
		notificationsSection(ctx, in.Hooks),
		keychainSection(ctx, in.Hooks),
		pathSection(in.searchPath),
		journalSection(ctx, in),
		providersSection(ctx, in),
	)
	if in.Hooks.Sections != nil {
		rep.Sections = append(rep.Sections, in.Hooks.Sections(ctx)...)
	}
	r := newRedactor(in)
	for i := range rep.Sections {
		for j := range rep.Sections[i].Facts {
			f := &rep.Sections[i].Facts[j]
			f.Key = r.clean(f.Key)
			f.Value = r.clean(f.Value)
		}
	}
	return rep
}

func fact(key, value string) Fact { return Fact{Key: key, Value: value} }

func checkFact(key string, err error, okValue string) Fact {
	if err != nil {
		return Fact{Key: key, Status: Failed, Value: err.Error()}
	}
	return Fact{Key: key, Status: OK, Value: okValue}
}

func openWorkerSection(in Input) Section {
	v := harness.BuildVersion(in.Version)
	s := Section{Name: "openworker"}
	s.Facts = append(s.Facts, fact("version", fmt.Sprintf("%s (commit %s, built %s)", orUnknown(v.Version, "dev"), orUnknown(v.Commit, "unknown"), orUnknown(v.Date, "unknown"))))
	if exe, err := os.Executable(); err == nil {
		s.Facts = append(s.Facts, fact("executable", exe))
	}
	return s
}

func orUnknown(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// systemSection is the OS, its version and the kernel (gopsutil).
func systemSection(ctx context.Context) Section {
	s := Section{Name: "system"}
	hi, err := host.InfoWithContext(ctx)
	if err != nil && hi == nil {
		s.Facts = append(s.Facts, Fact{Key: "os", Status: Failed, Value: runtime.GOOS + ": " + err.Error()})
	} else {
		s.Facts = append(s.Facts,
			fact("os", strings.TrimSpace(fmt.Sprintf("%s %s %s", hi.OS, hi.Platform, hi.PlatformVersion))),
			fact("kernel", strings.TrimSpace(hi.KernelVersion+" "+hi.KernelArch)))
	}
	s.Facts = append(s.Facts, fact("arch", runtime.GOOS+"/"+runtime.GOARCH), fact("go", runtime.Version()))
	return s
}

func webviewSection(ctx context.Context, h Hooks) Section {
	s := Section{Name: "webview"}
	if h.Webview == nil {
		s.Facts = append(s.Facts, Fact{Key: "runtime", Status: Unavailable, Value: "this binary has no desktop window"})
		return s
	}
	name, version, err := h.Webview(ctx)
	if err != nil {
		s.Facts = append(s.Facts, Fact{Key: "runtime", Status: Failed, Value: strings.TrimSpace(name + " " + err.Error())})
		return s
	}
	s.Facts = append(s.Facts, Fact{Key: "runtime", Status: OK, Value: name + " " + version})
	return s
}

func notificationsSection(ctx context.Context, h Hooks) Section {
	s := Section{Name: "notifications"}
	if h.Notifications == nil {
		s.Facts = append(s.Facts, Fact{Key: "backend", Status: Unavailable, Value: "this binary reports no notification back end"})
		return s
	}
	backend, err := h.Notifications(ctx)
	works := checkFact("works", err, "yes")
	if errors.Is(err, ErrNotChecked) {
		works.Status = Unavailable
	}
	s.Facts = append(s.Facts, fact("backend", backend), works)
	return s
}

func keychainSection(ctx context.Context, h Hooks) Section {
	probe := h.Keychain
	if probe == nil {
		probe = keychainProbe
	}
	return Section{Name: "keychain", Facts: []Fact{checkFact("available", bounded(ctx, keychainProbeTimeout, probe), "yes (the OS keychain can be read)")}}
}

// keychainProbe reads an account that is never written: not found means
// the keychain answered.
func keychainProbe(context.Context) error {
	_, err := keyring.Get("OpenWorker doctor", "probe")
	if err != nil && !errors.Is(err, keyring.ErrNotFound) {
		return fmt.Errorf("%v (on Linux a Secret Service such as GNOME Keyring must be running)", err)
	}
	return nil
}

// bounded runs f, giving up after d: a keychain that never answers must
// not hold the report (f goes on in the background and its answer is
// dropped).
func bounded(ctx context.Context, d time.Duration, f func(context.Context) error) error {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- f(ctx) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("no answer within %s", d)
	}
}

// pathSection is the PATH stdio commands are searched in, one folder a
// line, a missing folder marked.
func pathSection(sp launch.SearchPath) Section {
	s := Section{Name: "path", Facts: []Fact{fact("source", sp.Describe())}}
	for _, d := range filepath.SplitList(sp.Path) {
		if d == "" {
			continue
		}
		if _, err := os.Stat(d); err != nil {
			d += " (missing)"
		}
		s.Facts = append(s.Facts, fact("dir", d))
	}
	return s
}

// journalSection is the journal's path, size, schema and checks.
func journalSection(ctx context.Context, in Input) Section {
	s := Section{Name: "journal"}
	j := in.Journal
	path := in.JournalPath
	if j != nil {
		path = j.Path()
	}
	s.Facts = append(s.Facts, fact("path", path))
	fi, err := os.Stat(path)
	if err != nil {
		s.Facts = append(s.Facts, Fact{Key: "file", Status: Unavailable, Value: "no journal there yet (one is created at the first chat)"})
		return s
	}
	s.Facts = append(s.Facts, fact("size", fmt.Sprintf("%d bytes (%.1f MB)", fi.Size(), float64(fi.Size())/1e6)))
	if j == nil {
		j, err = journal.Open(path, &journal.Options{Reading: true})
		if err != nil {
			s.Facts = append(s.Facts, Fact{Key: "open", Status: Failed, Value: err.Error()})
			return s
		}
		defer j.Close()
	}
	schema := fmt.Sprintf("v%d", journal.SchemaVersion())
	if b := j.Backup(); b.Path != "" {
		schema += " (" + b.String() + ")"
	}
	s.Facts = append(s.Facts, fact("schema", schema))
	h, err := j.Check(ctx)
	switch {
	case err != nil:
		s.Facts = append(s.Facts, Fact{Key: "quick check", Status: Failed, Value: "could not run: " + err.Error()})
		return s
	case !h.OK():
		s.Facts = append(s.Facts, Fact{Key: "quick check", Status: Failed, Value: h.String()})
		return s
	}
	s.Facts = append(s.Facts, Fact{Key: "quick check", Status: OK, Value: "quick_check and the newest chain entries"})
	v, err := j.Verify(ctx)
	switch {
	case err != nil:
		s.Facts = append(s.Facts, Fact{Key: "verify", Status: Failed, Value: "could not run: " + err.Error()})
	case len(v.Integrity) > 0:
		s.Facts = append(s.Facts, Fact{Key: "verify", Status: Failed, Value: fmt.Sprintf("PRAGMA integrity_check: %s (%d problems)", strings.ReplaceAll(v.Integrity[0], "\n", " "), len(v.Integrity))})
	case !v.OK:
		s.Facts = append(s.Facts, Fact{Key: "verify", Status: Failed, Value: fmt.Sprintf("hash chain broken: first broken link %s (%d breaks)", v.First, len(v.Breaks))})
	default:
		s.Facts = append(s.Facts, Fact{Key: "verify", Status: OK, Value: fmt.Sprintf("%d chain entries and %d rows", v.Entries, v.Rows)})
	}
	return s
}
