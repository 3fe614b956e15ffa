// Command openworker is OpenWorker Desktop: with no arguments it starts the
// desktop app; with a subcommand it is the shared CLI (see harness/cli).
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/openworker/desktop/app"
	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/cli"
	"github.com/openworker/desktop/harness/doctor"
	"github.com/openworker/desktop/harness/tool"
	"github.com/openworker/desktop/platform"
	"github.com/openworker/desktop/tools/device"
	"github.com/openworker/desktop/tools/notification"
)

// Stamped at link time: -ldflags "-X main.version=... -X main.commit=... -X main.date=...";
// a plain `go build` gets them from Go's build info (harness.BuildVersion).
var version, commit, date string

func main() {
	v := harness.BuildVersion(harness.Version{Version: version, Commit: commit, Date: date})
	if v.Version != "" {
		device.Version = v.Version
	}
	reg := tool.NewRegistry()
	if err := register(reg); err != nil {
		fmt.Fprintln(os.Stderr, "openworker:", err)
		os.Exit(cli.ExitFailure)
	}
	opts := []cli.Option{
		cli.WithVersion(v),
		cli.WithMCPServer("device", device.ServeStdio),
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
			if errors.Is(err, app.ErrUsage) {
				return cli.UsageError(err)
			}
			return err
		}, app.FlagUsage()), cli.WithDesktopFiles(app.OpensFile))
	}
	cli.MainWithRegistry(reg, opts...)
}

// register adds the reference notification tools and the device provider,
// which is this same executable run as `openworker mcp serve device`.
func register(reg *tool.Registry) error {
	if err := notification.Register(reg, platform.Default()); err != nil {
		return err
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this executable to launch the device provider: %w", err)
	}
	return reg.RegisterMCP(tool.MCPServer{Namespace: "device", Program: exe, Args: []string{"mcp", "serve", "device"}})
}
