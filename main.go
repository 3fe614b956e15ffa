// Command openworker is OpenWorker Desktop: with no arguments it starts the
// desktop app; with a subcommand it is the shared CLI (see harness/cli).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/openworker/desktop/app"
	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/doctor"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/tools/device"
	"github.com/openworker/desktop/tools/files"
	"github.com/openworker/desktop/tools/notification"
)

// Stamped at link time: -ldflags "-X main.version=... -X main.commit=... -X main.date=...";
// a plain `go build` gets them from Go's build info (harness.BuildVersion).
var version, commit, date string

func main() {
	// A copy of this binary started as the watchdog of another does only
	// that; every other start makes this process the subreaper of its
	// providers' descendants (docs/mcp.md#process-tree).
	mcp.RunWatchdogIfAsked()
	_ = mcp.EnableProcessTree()
	v := harness.BuildVersion(harness.Version{Version: version, Commit: commit, Date: date})
	if v.Version != "" {
		device.Version = v.Version
		files.Version = v.Version
	}
	reg := tool.NewRegistry()
	if err := register(reg); err != nil {
		fmt.Fprintln(os.Stderr, "openworker:", err)
		os.Exit(cli.ExitFailure)
	}
	opts := []cli.Option{
		cli.WithVersion(v),
		cli.WithMCPServer("device", device.ServeStdio),
		cli.WithMCPServerArgs("files", func(ctx context.Context, args []string) error {
			err := files.ServeStdio(ctx, args)
			if errors.Is(err, files.ErrUsage) {
				return cli.UsageError(err)
			}
			return err
		}),
		cli.WithExtensionsHome(harness.DefaultExtensionsDir),
		// The app's files (journal, servers file, settings, API keys):
		// harness/settings, read by doctor and servers import.
		cli.WithAppSettings(os.Getenv("OPENWORKER_CONFIG_DIR")),
		// What only the desktop binary knows: the webview runtime and the
		// notification back end.
		cli.WithDoctor(doctor.Hooks{Desktop: app.DesktopFacts(os.Getenv)}),
	}
	if app.WindowAvailable {
		opts = append(opts, cli.WithDesktop(func(ctx context.Context, reg *tool.Registry, args []string) error {
			err := app.Run(ctx, reg, app.Options{Version: v.Version, Build: v, Args: args})
			if errors.Is(err, app.ErrNoWebView) {
				// Already shown, on stderr and in the log: its own exit code
				// (docs/install.md#webview2).
				os.Exit(app.ExitNoWebView)
			}
			if errors.Is(err, app.ErrUsage) {
				return cli.UsageError(err)
			}
			return err
		}, app.FlagUsage()), cli.WithDesktopFiles(app.OpensFile))
	}
	cli.MainWithRegistry(reg, opts...)
}

// register adds the reference notification tools and the built-in MCP
// providers device and files, which are this same executable run as
// `openworker mcp serve device` and `openworker mcp serve files`; files
// works on the session's workspace (its MCP root, the app's default
// workspace included), in the default
// sandbox where this system can enforce it (docs/files.md#sandbox).
func register(reg *tool.Registry) error {
	if err := notification.Register(reg, platform.Default()); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this executable to launch the device and files providers: %w", err)
	}
	if err := reg.RegisterMCP(tool.MCPServer{Namespace: "device", Program: exe, Args: []string{"mcp", "serve", "device"}}); err != nil {
		return err
	}
	// DefaultRoot: files has no folder of its own, so it works in the
	// app's default workspace too (docs/files.md#roots)
	return reg.RegisterMCP(tool.MCPServer{Namespace: "files", Program: exe, Args: []string{"mcp", "serve", "files"}, Sandbox: filesSandbox(), DefaultRoot: true})
}

// filesSandbox is the files provider's placement: the default preset
// (read the system and its own folder, write only the workspace and a
// temp folder, no network) where this system can enforce it, else none.
// Ubuntu 24.04's AppArmor lets a program make a user namespace but not
// mount in it (kernel.apparmor_restrict_unprivileged_userns=1), which
// sandbox.Supported does not see and the provider could then not start:
// there it runs unsandboxed too, and says so (docs/files.md#sandbox).
func filesSandbox() *tool.Sandbox {
	p := tool.DefaultSandbox()
	if sandbox.Supported(p) != nil {
		return nil
	}
	if b, err := os.ReadFile("/proc/sys/kernel/apparmor_restrict_unprivileged_userns"); err == nil && strings.TrimSpace(string(b)) == "1" {
		return nil
	}
	return p
}
