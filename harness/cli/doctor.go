package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/harness/mcp/launch"
	"io"
	"os"
	"strings"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// DoctorReport is what `openworker doctor` prints and the app's "Copy
// diagnostics" copies (docs/cli.md#doctor): sections in a fixed order
// (openworker, system, webview, notifications, keychain, path, journal,
// providers, then the host's own), each a list of facts. Every value has
// passed the report's redactor: it names no secret.
type DoctorReport struct {
	Sections []DoctorSection `json:"sections"`
}

// DoctorSection is one part of a DoctorReport, e.g. "journal".
type DoctorSection struct {
	Name  string       `json:"name"`
	Facts []DoctorFact `json:"facts"`
}

// DoctorFact is one line of a section: a key ("os", "provider ledger"), a
// status when the fact is a check ("ok", "failed", "unavailable", "" for
// a plain fact) and the value, one line.
type DoctorFact struct {
	Key    string `json:"key"`
	Status string `json:"status,omitempty"`
	Value  string `json:"value"`
}

// Statuses of a DoctorFact that is a check.
const (
	DoctorOK          = "ok"
	DoctorFailed      = "failed"
	DoctorUnavailable = "unavailable"
)

// ErrDoctorNotChecked is what a DoctorHooks check returns, wrapped with
// why, when it cannot check (macOS and Windows notifications): the line
// says "unavailable", not "failed".
var ErrDoctorNotChecked = errors.New("not checked")

// DoctorHooks are the facts only the host binary knows; every field may be
// nil, and then doctor says the binary does not report it (or, for
// Keychain and SearchPath, uses its own default). The product's main.go
// fills them from the app (app.DoctorHooks); a partner binary fills what
// it has.
type DoctorHooks struct {
	// Webview names the webview runtime the window uses and its version
	// ("WebKitGTK", "2.40.5"; "WebView2", "131.0.2903.70"; "WKWebView",
	// "619.1.26"). An error says why it could not be found.
	Webview func(ctx context.Context) (name, version string, err error)
	// Notifications names the notification back end in use and checks
	// that it works (nil error).
	Notifications func(ctx context.Context) (backend string, err error)
	// Keychain checks that the OS keychain can be read; nil means the
	// default probe (go-keyring, a read of an account that is not there).
	Keychain func(ctx context.Context) error
	// SearchPath is the PATH stdio commands are resolved in and where it
	// came from (docs/mcp.md#finding-the-program); the providers section
	// starts its programs on it too. nil means launch.Default: the login
	// shell's PATH on macOS, the process's elsewhere.
	SearchPath func(ctx context.Context) launch.SearchPath
	// JournalPath and ServersFile are the host's defaults for --db and
	// --servers (the app's config folder); nil means harness.DefaultDBPath() and
	// no servers file.
	JournalPath, ServersFile func() string
	// Secrets are more values the report must never show (API keys kept
	// in the keychain); each is hidden in every form doctor could print.
	Secrets func() []string
	// Sections are the host's own sections (the app's model settings),
	// printed last; their values are redacted like the others.
	Sections func(ctx context.Context) []DoctorSection
}

// WithDoctor sets the hooks of `openworker doctor` (DoctorHooks).
func WithDoctor(h DoctorHooks) Option { return func(c *config) { c.doctor = h } }

func (c *config) doctorCommand(reg *tool.Registry) *cobra.Command {
	var db, servers, format string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "doctor [--db FILE] [--servers FILE [--format FORMAT]] [--json]",
		Short: "print what a bug report needs: OS, webview, notifications, keychain, PATH, journal, providers (no secrets)",
		Long: `Print what a bug report needs: the OS and its version, the webview
runtime, the notification back end and whether it works, the keychain,
the PATH commands are searched in, the journal and its checks, and each
MCP provider with whether it starts. Secrets (API keys, the values of
servers' env and headers, passwords and query values of URLs) are never
printed (docs/cli.md#doctor). Exit 0 even when a check fails: the report
is the result.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx := cmd.Context()
			if servers == "" && c.doctor.ServersFile != nil {
				servers = c.doctor.ServersFile()
			}
			if db == "" {
				db = harness.DefaultDBPath()
				if c.doctor.JournalPath != nil {
					db = c.doctor.JournalPath()
				}
			}
			in := DoctorInput{Version: harness.BuildVersion(c.version), Hooks: c.doctor, JournalPath: db, Getenv: c.getenv, Tokens: c.tokenStore()}
			if servers != "" {
				cfg, err := c.registerServers(ctx, reg, servers, format, false)
				var ee *exitError
				if errors.As(err, &ee) || errors.Is(err, tool.ErrFrozen) { // a bad --format
					return err
				}
				in.ServersFile = servers
				if cfg == nil && err != nil {
					in.ServersErr = err
				}
			}
			in.Servers, in.Broken, in.Agents = reg.Servers(), reg.Broken(), reg.Agents()
			rep := Doctor(ctx, in)
			if asJSON {
				return writeJSON(c.stdout, rep)
			}
			_, err := io.WriteString(c.stdout, rep.Text())
			return err
		},
	}
	cmd.Flags().StringVar(&db, "db", "", "the journal file (default: the app's, else "+harness.DefaultDBPath()+")")
	cmd.Flags().StringVar(&servers, "servers", "", "the servers file whose providers are started (default: the app's)")
	cmd.Flags().StringVar(&format, "format", "", formatUsage())
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON: {\"sections\": [{\"name\", \"facts\": [{\"key\", \"status\", \"value\"}]}]}")
	return cmd
}

// Text is the report as doctor prints it: a "[name]" line per section,
// then one line per fact, "  key  status  value".
func (r *DoctorReport) Text() string {
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
func homeTilde(s string) string {
	home, err := os.UserHomeDir()
	if err != nil || len(home) < 2 {
		return s
	}
	return strings.ReplaceAll(s, home, "~")
}
