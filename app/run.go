package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"

	"github.com/openworker/desktop/examples"
	"github.com/openworker/desktop/frontend"
	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp/launch"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/mac"
	"github.com/wailsapp/wails/v2/pkg/options/windows"
)

// Options configure Run.
type Options struct {
	// Version is shown in the window and the logs.
	Version string
	// Build is the whole version (commit, build time) that Copy
	// diagnostics reports, as `openworker doctor` does; its Version is
	// Version when empty.
	Build harness.Version
	// Args are the command-line arguments after the program name (see
	// parseArgs for the flags); tests and the e2e script use them to point
	// the app at temporary folders and a scripted model.
	Args []string
}

// ErrNoDisplay is returned by Run on Linux when there is no display to
// open the window on (no Wayland socket, no local X server for $DISPLAY).
var ErrNoDisplay = errors.New("no display found: start OpenWorker from a desktop session, or use `openworker run` in a terminal")

// ErrNoWindow is returned by Run in a binary built without the Wails tags
// (see WindowAvailable).
var ErrNoWindow = errors.New("this binary was built without the desktop window; build it with -tags desktop,production (scripts/app-build.sh)")

// Run builds the harness runtime over reg and shows the desktop window. It
// returns when the window closes (or at once, with nil, when another
// instance is already running on the same config dir, found by the lock file
// in the config dir (acquireInstanceLock); that one is handed this launch
// (its args and working folder) through its wake socket (wake_socket_unix.go)
// or, on Windows, Wails' single-instance window, and shows its window,
// docs/cli.md#the-desktop-app). Files after the flags are opened as
// extensions (extopen.go). Command-line errors wrap ErrUsage. reg must
// not be frozen yet: servers.json providers from the settings are added to
// it. ctx cancels running turns when done.
func Run(ctx context.Context, reg *tool.Registry, opts Options) error {
	if !WindowAvailable {
		return ErrNoWindow
	}
	if bindingsBuild {
		// Only the bound methods matter: Wails writes their TypeScript.
		// The services are bound here only for their TypeScript (the
		// page's types); the running app binds the Gate (gate.go).
		return wails.Run(&options.App{Title: "OpenWorker", Bind: append(emptyServices(), &Gate{})})
	}
	cfg, err := runConfig(opts)
	if err != nil {
		return err
	}
	paths, err := resolvePaths(cfg.ConfigDir)
	if err != nil {
		return err
	}
	if cfg.ConfigDir != "" {
		// The folder moved by --config-dir is OpenWorker's own to the
		// sandboxes too (sandbox.OwnFolders, docs/sandbox.md#variables).
		os.Setenv(sandbox.ConfigDirEnv, paths.ConfigDir)
	}
	// Before any file is made: no WebView2, no window (webviewcheck.go).
	if err := requireWebView(paths.LogFile); err != nil {
		return err
	}
	// One instance per config folder even without Wails' D-Bus lock (Linux
	// without a session bus): a second start says so and exits with 0.
	lock, err := acquireInstanceLock(filepath.Join(paths.ConfigDir, lockFileName))
	if errors.Is(err, ErrAlreadyRunning) {
		handOff(err, paths.ConfigDir, opts.Args)
		return nil
	}
	if err != nil {
		return err
	}
	defer lock.Release()
	logger, closer := newLogger(paths.LogFile)
	defer closer.Close()
	logger.Info("start", "version", opts.Version, "config", paths.ConfigDir)
	// An update downloaded by an earlier run is installed before anything
	// is opened (docs/update.md#apply).
	if applyStagedUpdate(paths.ConfigDir, logger) {
		return nil
	}
	// Windows: Low labels a run that crashed left on write paths are put
	// back (docs/sandbox.md#windows-labels).
	if err := sandbox.RestoreLeftLabels(); err != nil {
		logger.Warn("sandbox labels", "err", err)
	}

	// An app started from Finder, the Dock or a Linux launcher has a minimal
	// PATH: read the login shell's once, in the background, for finding
	// MCP programs such as npx (docs/mcp.md#the-login-shells-path).
	launch.StartLoginPath()
	ui := &wailsUI{}
	a, err := newApp(ctx, reg, cfg, deps{Emitter: ui, Dialogs: ui, Shell: ui, Logger: logger, Examples: examples.Coworkers(), Notifier: defaultNotifier(),
		SearchPath: launch.LoginPath})
	if err != nil {
		return err
	}
	a.Window.opened.openFiles(cfg.Open) // sent once the UI listens (extopen.go)
	if cfg.Background {
		_ = a.Window.SetWindowFocused(false) // started hidden: the inbox notifies (inboxwatch.go)
	}
	a.Preferences.updates = newUpdater(cfg.UpdateFeed, filepath.Join(paths.ConfigDir, "updates"), cfg.Version,
		func() bool { return !a.settings.get().UpdatesOff }, logger)
	go a.Preferences.updates.run(ctx)
	// A second start on this config dir: show the window, open its files.
	// One with --background (a login entry) leaves a hidden window hidden.
	onLaunch := func(l secondLaunch) {
		if !slices.Contains(l.Args, "--background") {
			ui.show()
		}
		a.Window.opened.openFiles(launchFiles(l.Args, l.WorkingDirectory))
	}
	defer quitOnSignal(a.Window)() // a signal quits even with "keep running" on (background.go)
	icon, _ := fs.ReadFile(frontend.Dist(), "icon.png")
	var wake io.Closer // the wake socket (wake_socket_unix.go)
	// Wails' own notifications API (runtime.SendNotification, since v2.11)
	// is not used: on Windows it goes through go-toast, whose PowerShell
	// fallback puts the text in an expanding here-string, so a `$( )` in
	// model text would run. Notifications go through platform/ adapters
	// (defaultNotifier; docs/consent.md).
	err = wails.Run(&options.App{
		Title:     "OpenWorker",
		Width:     1240,
		Height:    820,
		MinWidth:  800,
		MinHeight: 600,
		AssetServer: &assetserver.Options{
			Assets: frontend.Dist(),
			// The app views' documents (viewpages.go, docs/mcp-apps.md#sandbox).
			// e2eSlowAssets: a slowed start in e2e builds only (e2e_paint.go).
			// startMode: a --background start keeps the window hidden (startmode.go).
			Middleware: func(next http.Handler) http.Handler {
				return startMode(cfg.Background, e2eSlowAssets(a.Views.pages.middleware(next)))
			},
		},
		BackgroundColour: windowBackground(a.settings.theme()),
		// The window appears when its page paints the splash (index.html's
		// splash-theme.js calls WindowShow), not seconds earlier as an
		// empty rectangle while the webview starts; OnDomReady shows it
		// should that call be lost (docs/app.md#window-size-and-splash).
		// --background (the login entry's start) leaves it hidden
		// (docs/app.md#running-in-the-background).
		StartHidden: true,
		OnDomReady: func(context.Context) {
			if !cfg.Background {
				ui.showWindow()
			}
		},
		Windows: &windows.Options{Theme: windowsTheme(a.settings.theme())},
		OnStartup: func(wctx context.Context) {
			ui.setContext(wctx)
			a.startup()
			if w, err := listenWake(paths.ConfigDir, onLaunch); err != nil {
				logger.Warn("second starts cannot raise this window", "err", err)
			} else {
				wake = w
			}
			ui.onFileDrop(a.Window.filesDropped)
			go a.checkNotifications()
		},
		// With "keep running" on, closing hides the window and the app
		// goes on (closeHides). Otherwise closing with a call waiting for
		// an answer or a turn running asks first (closeQuestion); true
		// keeps the window open.
		OnBeforeClose: func(context.Context) bool {
			if a.closeHides() {
				ui.hide()
				_ = a.Window.SetWindowFocused(false) // hidden: the inbox notifies again
				logger.Info("window hidden: the app keeps running")
				return true
			}
			q := a.closeQuestion()
			return q != "" && !ui.confirmQuit(q)
		},
		OnShutdown: func(context.Context) {
			if wake != nil {
				_ = wake.Close()
			}
			a.shutdown()
		},
		// Folders dropped on the window go to the Coworkers screen
		// (docs/app.md#adding-a-coworker). DisableWebViewDrop stays off:
		// on Linux it unsets the webview's drop target, and no drop
		// would arrive at all.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
		// The page reaches the services only through the Gate and its token
		// (gate.go, docs/mcp-apps.md#bindings): an MCP App view in a frame cannot.
		Bind: []any{newGate(a.services(), a.log)},
		// One instance per config folder: a second start hands its launch
		// to the first and exits (docs/cli.md#the-desktop-app). Our lock file
		// decides before this lock is tried (Wails takes it only inside
		// wails.Run, after newApp opened the journal; on Linux it needs a
		// D-Bus session bus, and a second start it catches exits 1); what
		// it serves is the receiving end on Windows (wake_windows.go).
		SingleInstanceLock: &options.SingleInstanceLock{
			UniqueId: instanceID(a.paths.ConfigDir),
			OnSecondInstanceLaunch: func(d options.SecondInstanceData) {
				onLaunch(secondLaunch{Args: d.Args, WorkingDirectory: d.WorkingDirectory})
			},
		},
		// A .mcpb or .dxt opened in Finder (Info.plist CFBundleDocumentTypes),
		// also the one that started the app (docs/app.md#opening-an-extension).
		Mac: &mac.Options{OnFileOpen: func(path string) {
			ui.show()
			a.Window.opened.openFiles([]string{path})
		}},
		Linux: &linux.Options{Icon: icon, ProgramName: "openworker", WindowIsTranslucent: false},
	})
	if err != nil {
		a.shutdown()
	}
	return err
}

// runConfig reads the command line and checks that the window can open:
// a display, and the UI built into the binary.
func runConfig(opts Options) (config, error) {
	cfg, err := parseArgs(opts.Args)
	if err != nil {
		return cfg, err
	}
	cfg.Version, cfg.Build = opts.Version, opts.Build
	if cfg.Build.Version == "" {
		cfg.Build.Version = opts.Version
	}
	if displayMissing(os.Getenv) {
		return cfg, ErrNoDisplay
	}
	if !frontend.Built() {
		return cfg, errors.New("the UI is not built into this binary: run `npm --prefix frontend ci && npm --prefix frontend run build`, then build again (scripts/app-build.sh does both)")
	}
	return cfg, nil
}

// handOff hands this launch (files to open included) to the instance
// already running on configDir (running, the lock's error): its socket on
// Linux and macOS (no D-Bus needed), Wails' window message on Windows;
// it says on stderr whether that one's window came to the front.
func handOff(running error, configDir string, args []string) {
	l := thisLaunch(args)
	if werr := wakeBySocket(configDir, l); werr == nil || wakeFirstInstance(instanceID(configDir), l) {
		fmt.Fprintln(os.Stderr, "openworker: "+running.Error()+"; its window was brought to the front")
	} else {
		fmt.Fprintln(os.Stderr, "openworker: "+running.Error()+"; switch to its window")
	}
}

// instanceID names the single instance of one config folder for Wails.
func instanceID(configDir string) string {
	sum := sha256.Sum256([]byte(configDir))
	return "openworker_" + hex.EncodeToString(sum[:6])
}
