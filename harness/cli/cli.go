// Package cli is the shared command-line entry point of OpenWorker
// (docs/cli.md): the product's main.go and every partner binary build a tool
// registry and call MainWithRegistry, which runs the subcommands
//
//	openworker                      start the desktop app (when the binary has one)
//	openworker run ...              one turn with a coworker, in the terminal
//	openworker check ...            load and resolve every coworker bundle
//	openworker journal list|show|reconcile|verify
//	openworker mcp serve NAME ...   an MCP server built into the binary, on stdio
//	openworker servers import FILE  import another MCP client's config file
//	openworker coworker new|tools|list  make and change coworker bundles
//	openworker coworker import|export   bring in other hosts' agents; share a coworker
//	openworker doctor               what a bug report needs, without secrets
//	openworker version
//
// Exit codes: 0 done, 1 runtime failure, 2 bad usage or bad input.
package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/harness/internal/keychain"
	"github.com/openworker/desktop/internal/termsafe"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/doctor"
	"github.com/openworker/desktop/harness/extension"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/internal/update"
	"github.com/spf13/cobra"
)

// Exit codes (docs/cli.md).
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
	ExitParked  = 3 // run --unattended, resume: the run waits on the inbox (docs/inbox.md#unattended)
)

// Desktop starts a desktop window over the registry and returns when it
// closes. args are the command-line arguments (all flags, e.g.
// --coworkers DIR) given to a bare `openworker`.
type Desktop func(ctx context.Context, reg *tool.Registry, args []string) error

// Option configures MainWithRegistry and Run.
type Option func(*config)

type config struct {
	version        harness.Version
	desktop        Desktop
	desktopUsage   string
	desktopFile    func(arg string) bool
	servers        map[string]func(ctx context.Context, args []string) error
	stdin          io.Reader
	stdout         io.Writer
	stderr         io.Writer
	getenv         func(string) string
	terminal       func() bool
	app            bool                                        // WithAppSettings
	appDir         string                                      // the app's config dir; "" for the default
	signInStore    oauth.TokenStore                            // nil: the OS keychain (signin.go)
	signInOpen     func(ctx context.Context, url string) error // nil: the system browser
	doctor         doctor.Hooks
	extSecrets     extension.SecretStore // nil: the OS keychain (extension.go)
	extensionsHome func() string         // nil: no extensions without --extensions
	// noCheckpointWarning: openJournal does not compare the journal with
	// its newest checkpoint (journal verify compares them all).
	noCheckpointWarning bool
}

// WithVersion sets what `version` prints.
func WithVersion(v harness.Version) Option { return func(c *config) { c.version = v } }

// WithDesktop sets what a bare `openworker` starts, and the help for its
// flags (shown by --help). Without it, a bare invocation prints usage.
func WithDesktop(d Desktop, flagUsage string) Option {
	return func(c *config) { c.desktop, c.desktopUsage = d, flagUsage }
}

// WithDesktopFiles lets a bare `openworker FILE ...` start the desktop app
// when opens(FILE) holds for the first argument (a file to open, as
// Windows passes a double-clicked file; the app decides which,
// docs/app.md#opening-an-extension). Any other first word that is not a
// command stays an unknown command (exit 2).
func WithDesktopFiles(opens func(arg string) bool) Option {
	return func(c *config) { c.desktopFile = opens }
}

// UsageError marks err as bad usage: Run exits 2. A Desktop returns it for
// bad flags.
func UsageError(err error) error { return &exitError{ExitUsage, err} }

// WithMCPServer adds `openworker mcp serve NAME`, an MCP server on stdio
// built into this binary that takes no arguments (the device tools use
// it).
func WithMCPServer(name string, serve func(ctx context.Context) error) Option {
	return WithMCPServerArgs(name, func(ctx context.Context, args []string) error {
		if len(args) > 0 {
			return usageErr("the built-in MCP server %q takes no arguments; run openworker mcp serve %s", name, name)
		}
		return serve(ctx)
	})
}

// WithMCPServerArgs adds `openworker mcp serve NAME [ARGS]...`, an MCP
// server on stdio built into this binary that reads its own arguments
// (the files tools' --root DIR, docs/files.md). serve returns a
// UsageError for bad arguments.
func WithMCPServerArgs(name string, serve func(ctx context.Context, args []string) error) Option {
	return func(c *config) { c.servers[name] = serve }
}

// WithIO replaces stdin, stdout, stderr and the environment; for tests and
// embedding. isTerminal reports whether stdin is an interactive terminal.
func WithIO(stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, isTerminal func() bool) Option {
	return func(c *config) {
		c.stdin, c.stdout, c.stderr, c.getenv, c.terminal = stdin, stdout, stderr, getenv, isTerminal
	}
}

// MainWithRegistry runs the CLI with os.Args and exits the process with the
// exit code (docs/cli.md).
func MainWithRegistry(reg *tool.Registry, opts ...Option) {
	keychain.NoAutolaunch() // no session bus: no OS keychain, and no dbus-daemon left behind (docs/mcp.md#without-a-keychain)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, reg, os.Args[1:], opts...)
	stop()
	os.Exit(code)
}

// exitError carries an exit code with its message.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErr(format string, args ...any) error {
	return &exitError{ExitUsage, fmt.Errorf(format, args...)}
}

func badInput(err error) error { return &exitError{ExitUsage, err} }

// Run runs one CLI invocation and returns its exit code.
func Run(ctx context.Context, reg *tool.Registry, args []string, opts ...Option) int {
	c := &config{servers: map[string]func(context.Context, []string) error{}, stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv, terminal: stdinIsTerminal}
	for _, o := range opts {
		o(c)
	}
	c.sanitiseOutput(args)
	root := c.rootCommand(reg)
	root.SetArgs(args)
	root.SetIn(c.stdin)
	root.SetOut(c.stdout)
	root.SetErr(c.stderr)
	err := root.ExecuteContext(ctx)
	if err == nil {
		return ExitOK
	}
	fmt.Fprintln(c.stderr, "openworker:", err)
	if hint := errorHint(err); hint != "" {
		fmt.Fprintln(c.stderr, "hint:", hint)
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	if isCobraUsage(err) {
		return ExitUsage
	}
	return ExitFailure
}

// sanitiseOutput passes what the CLI prints through termsafe, so no text
// from a model, server, tool, bundle or file reaches the terminal as
// control (docs/cli.md#sanitised-output). Standard output stays byte for
// byte where it is a protocol or a file: `serve`, `mcp serve` and
// `journal export`.
func (c *config) sanitiseOutput(args []string) {
	c.stderr = termsafe.NewWriter(c.stderr)
	if len(args) > 0 && (args[0] == "serve" || args[0] == "mcp" || args[0] == "journal" && slices.Contains(args, "export")) {
		return
	}
	c.stdout = termsafe.NewWriter(c.stdout)
}

// rootCommand is "openworker": with no command it starts the desktop app
// (where the binary has one), else it holds the subcommands.
func (c *config) rootCommand(reg *tool.Registry) *cobra.Command {
	root := &cobra.Command{
		Use:           "openworker",
		Short:         "OpenWorker: a desktop home for AI coworkers",
		SilenceUsage:  true,
		SilenceErrors: true,
		// A bare invocation hands its flags to the desktop app, which has
		// its own (--coworkers, --db, ...).
		DisableFlagParsing: true,
		Args:               cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return c.runRoot(cmd, reg, args)
		},
	}
	root.CompletionOptions.DisableDefaultCmd = true
	if c.desktop != nil && c.desktopUsage != "" {
		root.Long = "OpenWorker: a desktop home for AI coworkers.\n\nWith no command it starts the desktop app, which takes these flags:\n\n" + indent(c.desktopUsage)
	}
	root.AddCommand(c.runCommand(reg), c.checkCommand(reg), c.serveCommand(reg), c.journalCommand(reg), c.mcpCommand(), c.serversCommand(reg), c.extensionCommand(reg), c.coworkerCommand(reg), c.doctorCommand(reg), c.versionCommand(), c.updateCommand(), c.inboxCommand(), c.resumeCommand(reg), c.scheduleCommand(reg))
	return root
}

// runRoot is a bare "openworker ARGS...": help, the desktop app with
// ARGS, or a usage error for an unknown command or a missing file.
func (c *config) runRoot(cmd *cobra.Command, reg *tool.Registry, args []string) error {
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") && !c.opensDesktopFile(args[0]) {
		if c.desktop != nil && c.desktopFile != nil && (strings.ContainsAny(args[0], `/\`) || filepath.Ext(args[0]) != "") {
			// a path, not a mistyped subcommand
			return usageErr("no file %s to open: it does not exist; the app opens .mcpb and .dxt extensions (docs/app.md#opening-an-extension)", args[0])
		}
		return usageErr("unknown command %q; run openworker --help", args[0])
	}
	if slices.ContainsFunc(args, isHelpFlag) {
		cmd.SetOut(c.stdout)
		return cmd.Help()
	}
	if c.desktop == nil {
		if len(args) > 0 {
			return usageErr("this binary has no desktop app, so it takes no flags without a command; run openworker --help")
		}
		cmd.SetOut(c.stdout)
		return cmd.Usage()
	}
	return c.desktop(cmd.Context(), reg, args)
}

// opensDesktopFile reports whether the desktop app of this binary opens
// arg as a file.
func (c *config) opensDesktopFile(arg string) bool {
	return c.desktop != nil && c.desktopFile != nil && c.desktopFile(arg)
}

// isHelpFlag reports whether a is a way to ask for help.
func isHelpFlag(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

func (c *config) mcpCommand() *cobra.Command {
	mcpCmd := &cobra.Command{Use: "mcp", Short: "MCP servers built into this binary"}
	names := make([]string, 0, len(c.servers))
	for n := range c.servers {
		names = append(names, n)
	}
	sort.Strings(names)
	mcpCmd.AddCommand(&cobra.Command{
		Use:       "serve NAME [ARGS]...",
		Short:     "serve a built-in MCP server on stdio",
		ValidArgs: names,
		// The words after NAME are the server's own (files: --root DIR).
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				cmd.SetOut(c.stdout)
				return cmd.Help()
			}
			if len(args) == 0 {
				return usageErr("name the built-in MCP server to serve; this binary has: %v", names)
			}
			serve, ok := c.servers[args[0]]
			if !ok {
				return usageErr("no built-in MCP server %q; this binary has: %v", args[0], names)
			}
			return serve(cmd.Context(), args[1:])
		},
	})
	return mcpCmd
}

func (c *config) versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "print the version, commit and build date",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			v := harness.BuildVersion(c.version)
			if v.Version == "" {
				v.Version = "dev"
			}
			if v.Commit == "" {
				v.Commit = "unknown"
			}
			if v.Date == "" {
				v.Date = "unknown"
			}
			fmt.Fprintf(c.stdout, "openworker %s (commit %s, built %s)\n", v.Version, v.Commit, v.Date)
			if update.TestKeyBuild() {
				// Never a release (docs/update.md#keys).
				fmt.Fprintln(c.stdout, "test build: trusts the update key in OPENWORKER_UPDATE_TEST_KEY")
			}
		},
	}
}

func isCobraUsage(err error) bool {
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "  " + l
	}
	return strings.Join(lines, "\n")
}
