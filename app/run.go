package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openworker/desktop/examples"
	"github.com/openworker/desktop/frontend"
	"github.com/openworker/desktop/harness/tool"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
)

// Options configure Run.
type Options struct {
	// Version is shown in the window and the logs.
	Version string
	// Args are the command-line arguments after the program name (see
	// parseArgs for the flags); tests and the e2e script use them to point
	// the app at temporary folders and a scripted model.
	Args []string
}

// ErrNoWindow is returned by Run in a binary built without the Wails tags
// (see WindowAvailable).
var ErrNoWindow = errors.New("this binary was built without the desktop window; build it with -tags desktop,production (scripts/app-build.sh)")

// Run builds the harness runtime over reg and shows the desktop window. It
// returns when the window closes (or at once, with nil, when another
// instance is already running: that one is brought to the front). reg must
// not be frozen yet: servers.json providers from the settings are added to
// it. ctx cancels running turns when done.
func Run(ctx context.Context, reg *tool.Registry, opts Options) error {
	if !WindowAvailable {
		return ErrNoWindow
	}
	if bindingsBuild {
		// Only the bound methods matter: Wails writes their TypeScript.
		return wails.Run(&options.App{Title: "OpenWorker", Bind: []any{&App{}}})
	}
	cfg, err := parseArgs(opts.Args)
	if err != nil {
		return err
	}
	cfg.Version = opts.Version
	if !frontend.Built() {
		return errors.New("the UI is not built into this binary: run `npm --prefix frontend ci && npm --prefix frontend run build`, then build again (scripts/app-build.sh does both)")
	}
	paths, err := resolvePaths(cfg.ConfigDir)
	if err != nil {
		return err
	}
	logger, closer := newLogger(paths.LogFile)
	defer closer.Close()
	logger.Info("start", "version", opts.Version, "config", paths.ConfigDir)

	ui := &wailsUI{}
	a, err := newApp(ctx, reg, cfg, deps{Emitter: ui, Dialogs: ui, Logger: logger, Examples: examples.Coworkers(), Notifier: defaultNotifier()})
	if err != nil {
		return err
	}
	icon, _ := fs.ReadFile(frontend.Dist(), "icon.png")
	sum := sha256.Sum256([]byte(a.paths.ConfigDir))
	err = wails.Run(&options.App{
		Title:     "OpenWorker",
		Width:     1240,
		Height:    820,
		MinWidth:  860,
		MinHeight: 560,
		AssetServer: &assetserver.Options{
			Assets: frontend.Dist(),
		},
		BackgroundColour: &options.RGBA{R: 246, G: 247, B: 249, A: 255},
		OnStartup: func(wctx context.Context) {
			ui.setContext(wctx)
			a.startup()
		},
		OnShutdown: func(context.Context) { a.shutdown() },
		Bind:       []any{a},
		// One instance per config folder: a second start shows the first
		// window and exits (SPEC issue 5, Wails' single-instance lock).
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId:               "openworker_" + hex.EncodeToString(sum[:6]),
			OnSecondInstanceLaunch: func(options.SecondInstanceData) { ui.show() },
		},
		Linux: &linux.Options{Icon: icon, ProgramName: "openworker", WindowIsTranslucent: false},
	})
	if err != nil {
		a.shutdown()
	}
	return err
}

// parseArgs reads the app's flags; each flag may also be given in the
// environment as OPENWORKER_<FLAG> (OPENWORKER_CONFIG_DIR, OPENWORKER_COWORKER,
// ...), which is how scripts pass them through the CLI's bare command:
//
//	--config-dir DIR      settings, journal and logs (default <user config dir>/OpenWorker)
//	--db FILE             the journal file
//	--coworkers DIR       bundles folder for this run (not saved)
//	--coworker ID         open a chat with this coworker at start
//	--provider NAME       openai | anthropic
//	--base-url URL        model endpoint for this run
//	--model NAME          model for this run
//	--approve MODE        ask | bypass
//	--servers FILE        servers.json for this run
//	--prompt-timeout DUR  how long a consent prompt waits (default 5m, SPEC §7)
func parseArgs(args []string) (config, error) {
	var c config
	fl := flag.NewFlagSet("openworker", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	fl.StringVar(&c.ConfigDir, "config-dir", "", "")
	fl.StringVar(&c.DBPath, "db", "", "")
	fl.StringVar(&c.Coworkers, "coworkers", "", "")
	fl.StringVar(&c.OpenCoworker, "coworker", "", "")
	fl.StringVar(&c.Provider, "provider", "", "")
	fl.StringVar(&c.BaseURL, "base-url", "", "")
	fl.StringVar(&c.Model, "model", "", "")
	fl.StringVar(&c.Approve, "approve", "", "")
	fl.StringVar(&c.Servers, "servers", "", "")
	fl.StringVar(&c.PromptTimeout, "prompt-timeout", "", "")
	var fromEnv []string
	fl.VisitAll(func(f *flag.Flag) {
		env := "OPENWORKER_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := os.Getenv(env); v != "" {
			fromEnv = append(fromEnv, "--"+f.Name+"="+v)
		}
	})
	if err := fl.Parse(append(fromEnv, args...)); err != nil {
		return c, fmt.Errorf("openworker (desktop): %w", err)
	}
	for _, p := range []*string{&c.ConfigDir, &c.DBPath, &c.Coworkers, &c.Servers} {
		if *p != "" {
			abs, err := filepath.Abs(*p)
			if err != nil {
				return c, err
			}
			*p = abs
		}
	}
	if fl.NArg() > 0 {
		return c, fmt.Errorf("openworker (desktop): unexpected argument %q; run `openworker --help` for the subcommands", fl.Arg(0))
	}
	return c, nil
}
