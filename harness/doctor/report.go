// Package doctor builds the report of `openworker doctor` and of the
// app's Diagnostics screen (docs/cli.md#doctor): the OS, the webview
// runtime, the notification back end, the keychain, the PATH programs are
// found on, the journal and its checks, each MCP provider started once
// and each A2A agent's card, then the host's own sections, with no secret
// in it (internal/redact).
//
//	rep := doctor.Diagnose(ctx, doctor.Input{JournalPath: db, Servers: reg.Servers()})
//	fmt.Print(rep.Text())
//
// The CLI's doctor command and the app both call Diagnose; what only a
// host knows comes in through Hooks: the desktop binary's Desktop facts,
// and the app's files (AppHooks, SettingsHooks).
package doctor

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"github.com/openworker/desktop/harness/mcp/launch"
)

// Report is what `openworker doctor` prints and the app's Diagnostics
// screen shows: sections in a fixed order (openworker, system,
// webview, notifications, keychain, path, journal, providers, then the
// host's own), each a list of facts. Every value has passed the report's
// redactor: it names no secret.
type Report struct {
	Sections []Section `json:"sections"`
}

// Section is one part of a Report, e.g. "journal".
type Section struct {
	Name  string `json:"name"`
	Facts []Fact `json:"facts"`
}

// Fact is one line of a section: a key ("os", "provider ledger"), a
// status when the fact is a check ("ok", "failed", "unavailable", "" for a
// plain fact) and the value, one line.
type Fact struct {
	Key    string `json:"key"`
	Status string `json:"status,omitempty"`
	Value  string `json:"value"`
}

// Statuses of a Fact that is a check.
const (
	OK          = "ok"
	Failed      = "failed"
	Unavailable = "unavailable"
)

// ErrNotChecked is what a Desktop.Notifications check returns, wrapped
// with why, when it cannot check (macOS and Windows notifications): the
// line says "unavailable", not "failed".
var ErrNotChecked = errors.New("not checked")

// Desktop are the facts only a binary with the desktop app knows: they
// need the app's build tags and platform adapters. Either may be nil, and
// then the report says the binary does not report it.
type Desktop struct {
	// Webview names the webview runtime the window uses and its version
	// ("WebKitGTK", "2.40.5"; "WebView2", "131.0.2903.70"; "WKWebView",
	// "619.1.26"). An error says why it could not be found.
	Webview func(ctx context.Context) (name, version string, err error)
	// Notifications names the notification back end in use and checks
	// that it works (nil error; ErrNotChecked when it cannot check).
	Notifications func(ctx context.Context) (backend string, err error)
}

// Hooks are the facts only the host binary knows; every field may be nil,
// and then the report says the binary does not report it (or, for
// Keychain and SearchPath, uses its own default). The product's binary
// gives the desktop app's (Desktop from package app; the rest from its
// settings, AppHooks); a partner binary fills what it has.
type Hooks struct {
	Desktop
	// Keychain checks that the OS keychain can be read; nil means the
	// default probe (go-keyring, a read of an account that is not there).
	Keychain func(ctx context.Context) error
	// SearchPath is the PATH stdio commands are resolved in and where it
	// came from (docs/mcp.md#finding-the-program); the providers section
	// starts its programs on it too. nil means launch.Default: the login
	// shell's PATH on macOS, the process's elsewhere.
	SearchPath func(ctx context.Context) launch.SearchPath
	// JournalPath and ServersFile are the host's defaults for the
	// journal and the servers file (the app's config folder); nil means
	// harness.DefaultDBPath() and no servers file. The CLI reads them;
	// Diagnose does not.
	JournalPath, ServersFile func() string
	// Secrets are more values the report must never show (API keys kept
	// in the keychain); each is hidden in every form the report could
	// print.
	Secrets func() []string
	// Sections are the host's own sections (the app's model settings),
	// printed last; their values are redacted like the others.
	Sections func(ctx context.Context) []Section
}

// Text is the report as doctor prints it: a "[name]" line per section,
// then one line per fact, "  key  status: value".
func (r *Report) Text() string {
	var b strings.Builder
	for i, s := range r.Sections {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s]\n", s.Name)
		w := 0
		for _, f := range s.Facts {
			w = max(w, len(f.Key))
		}
		for _, f := range s.Facts {
			line := fmt.Sprintf("  %-*s  ", w, f.Key)
			if f.Status != "" {
				line += f.Status + ": "
			}
			b.WriteString(strings.TrimRight(line+f.Value, " ") + "\n")
		}
	}
	return b.String()
}

// homeTilde writes the home folder as ~ (docs/cli.md#doctor).
func homeTilde(s string) string { return homeTilder().apply(s) }

// homeTilder is the tilder of this user's home folder (none without one).
func homeTilder() tilder {
	home, err := os.UserHomeDir()
	if err != nil || len(home) < 2 {
		return tilder{}
	}
	return newTilder(home)
}

// tildeFor writes home as ~ in s (tilder).
func tildeFor(home, s string) string { return newTilder(home).apply(s) }

// tilder writes a home folder as ~ where it is a whole folder: after the
// start, a space or an opening mark, and before a separator, the end, a
// closing mark or a full stop that ends the sentence (/home/ann in
// "/home/ann/x", "(/home/ann)" and "in /home/ann.", never in /home/anna,
// /home/ann+work, "C:\Users\ann smith" or /mnt/backup/home/ann). A Windows
// home (a drive letter) matches in any case and with either separator.
// Its expression is made once, for every line of a report.
type tilder struct{ re *regexp.Regexp } // nil: nothing to replace

func newTilder(home string) tilder {
	home = strings.TrimRight(home, `/\`)
	if home == "" {
		return tilder{}
	}
	var b strings.Builder
	if len(home) >= 2 && home[1] == ':' {
		b.WriteString("(?i)")
	}
	b.WriteString(`(^|[\s("'=:,;\[{<])`)
	for _, r := range home {
		if r == '/' || r == '\\' {
			b.WriteString(`[/\\]`)
		} else {
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString(`([/\\]|$|[)"'\],;:}>]|\.(?:\s|$))`)
	return tilder{regexp.MustCompile(b.String())}
}

// apply is s with the home folder as ~. Matches that share a mark
// ("/home/ann:/home/ann:/home/ann") take two passes: the first replaces
// every other one.
func (t tilder) apply(s string) string {
	if t.re == nil {
		return s
	}
	return t.re.ReplaceAllString(t.re.ReplaceAllString(s, "${1}~${2}"), "${1}~${2}")
}
