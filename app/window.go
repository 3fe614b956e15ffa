package app

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync/atomic"

	"github.com/openworker/desktop/harness/model"
)

// Window is the window's own service: what it shows at start (Info), its
// focus, and the files and links it hands to the system
// (docs/app.md#links). It also takes what is opened or dropped on the
// window (filesDropped, openedInbox). Its state is the focus alone.
type Window struct {
	*env
	engine   *engine
	settings *settingsStore
	model    *modelState
	notices  *noticeBoard
	opened   *openedInbox // extension files opened before the UI listened (extopen.go)
	focused  atomic.Bool  // the window has the focus
	inboxes  *inboxWatch  // told the focus: notifications again once looked at
	shell    windowShell  // shows, hides and quits the window (background.go)
	quitting atomic.Bool  // Quit was chosen: closing quits even with "keep running" on
}

// AppInfo is what the UI needs at start.
type AppInfo struct {
	Version       string   `json:"version"`
	ConfigDir     string   `json:"config_dir"`
	JournalPath   string   `json:"journal_path"`
	LogFile       string   `json:"log_file"`
	CoworkersDir  string   `json:"coworkers_dir"`
	Model         string   `json:"model"`       // where requests go, never a key
	ModelError    string   `json:"model_error"` // why no model is configured
	RuntimeError  string   `json:"runtime_error"`
	ApprovalMode  string   `json:"approval_mode"`
	Notices       []Notice `json:"notices"`
	StartCoworker string   `json:"start_coworker"` // open a chat with it at start
	Theme         string   `json:"theme"`          // "system", "light" or "dark" (docs/app.md#theme)
	// FirstRun says the window shows the first-run setup (docs/app.md#first-run):
	// no model is configured and the setup was never completed or skipped.
	FirstRun bool `json:"first_run"`
	// KeychainError is why the OS keychain cannot keep an API key here
	// ("" when it can): the setup then says to give the key in the
	// environment instead.
	KeychainError string `json:"keychain_error,omitempty"`
}

// Info returns what the UI shows at start: paths, the model in use and
// problems found while starting.
func (w *Window) Info() (AppInfo, error) {
	defer w.opened.uiReady() // the UI listens now: send the extensions opened before (extopen.go)
	s, m := w.settings.get(), w.model.current()
	info := AppInfo{Version: w.cfg.Version, ConfigDir: w.paths.ConfigDir, JournalPath: w.paths.Journal, LogFile: w.paths.LogFile,
		CoworkersDir: coworkersDirOf(s, w.paths.DefaultCoworkers), ApprovalMode: s.ApprovalMode, Notices: w.notices.all(),
		StartCoworker: w.cfg.OpenCoworker, Theme: w.settings.theme(), Model: m.description, FirstRun: setupDue(s, w.settings, w.env)}
	if m.err != nil {
		info.ModelError = m.err.Error()
	}
	if info.FirstRun {
		if _, err := w.keys.Get(model.ProviderOpenAI); err != nil {
			info.KeychainError = err.Error()
		}
	}
	if err := w.engine.runtimeErr(); err != nil {
		info.RuntimeError = err.Error()
	}
	return info, nil
}

// SetWindowFocused tells the app whether its window has the focus; the UI
// calls it on focus and blur. A prompt raised while unfocused also raises a
// native notification (docs/consent.md).
func (w *Window) SetWindowFocused(focused bool) error {
	w.focused.Store(focused)
	if w.inboxes != nil {
		w.inboxes.focus(focused)
	}
	return nil
}

// OpenFile opens path (a bundle file named in an error, say) with the
// system's program for it. Only paths inside the coworkers folder or the
// config dir are opened, with links resolved; anything else is refused,
// naming both folders.
func (w *Window) OpenFile(path string) error {
	roots := []string{w.settings.coworkersDir(), w.paths.ConfigDir}
	p, err := openablePath(path, roots)
	if err != nil {
		return err
	}
	return w.opener.Open(p)
}

// OpenLink opens an http, https or mailto URL in the system's browser (or
// mail program), after the UI asked "Open this external link?". Any other
// scheme is refused. The error says why nothing opened: the UI then
// copies the link and says so.
func (w *Window) OpenLink(link string) error {
	u, err := url.Parse(link)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto") || (u.Scheme != "mailto" && u.Host == "") {
		return fmt.Errorf("only http, https and mailto links are opened, not %q", link)
	}
	return w.opener.Open(u.String())
}

// filesDropped is what a drop of files on the window does: a .mcpb or
// .dxt file opens the extension installer as any other way in does
// (openFiles, docs/app.md#opening-an-extension); a coworker bundle folder
// (or the coworker/ folder of one, or a folder of coworkers) goes to the
// UI as EventBundleDropped, which previews the first one on the Coworkers
// screen (docs/app.md#adding-a-coworker); every other path (agent files,
// recipes, skills, plugins, exports) as EventAgentsDropped, which
// previews their import (docs/app.md#import-agents). Only what the paths
// are is looked at (isBundleDrop); nothing is read or written.
func (w *Window) filesDropped(paths []string) {
	var bundles, agents, exts []string
	for _, p := range paths {
		switch {
		case isExtensionName(p):
			exts = append(exts, p)
		case isBundleDrop(p):
			bundles = append(bundles, p)
		default:
			agents = append(agents, p)
		}
	}
	w.opened.openFiles(exts)
	if len(bundles) > 0 {
		w.emit.Emit(EventBundleDropped, BundleDropped{Paths: bundles})
	}
	if len(agents) > 0 {
		w.emit.Emit(EventAgentsDropped, BundleDropped{Paths: agents})
	}
}

// isBundleDrop reports whether the dropped path p is for Add coworker:
// a bundle folder, the coworker/ folder of one, or a folder of coworkers.
func isBundleDrop(p string) bool {
	if h := bundleFolderHint(p); h != nil && h.Kind == HintCoworkerSubfolder {
		return true
	}
	if st, err := os.Stat(p); err != nil || !st.IsDir() {
		return false
	}
	if _, err := os.Stat(filepath.Join(p, "coworker", "manifest.md")); err == nil {
		return true
	}
	return looksLikeCoworkersFolder(p)
}
