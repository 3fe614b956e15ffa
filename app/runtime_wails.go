package app

import (
	"context"
	"sync"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// wailsUI is the one place that calls the Wails runtime: events to the UI
// and native dialogs. It needs the context Wails hands to OnStartup; before
// that, events are dropped (no window is listening yet).
type wailsUI struct {
	mu  sync.RWMutex
	ctx context.Context
}

func (w *wailsUI) setContext(ctx context.Context) {
	w.mu.Lock()
	w.ctx = ctx
	w.mu.Unlock()
}

func (w *wailsUI) context() context.Context {
	w.mu.RLock()
	defer w.mu.RUnlock()
	return w.ctx
}

// Emit implements Emitter.
func (w *wailsUI) Emit(name EventName, payload any) {
	if ctx := w.context(); ctx != nil {
		wruntime.EventsEmit(ctx, string(name), payload)
	}
}

// ChooseDirectory implements Dialogs.
func (w *wailsUI) ChooseDirectory(title, start string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", nil
	}
	return wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start, CanCreateDirectories: true})
}

// ChooseFile implements Dialogs: JSON files first, any file on request
// (config files such as .mcp.json or a .jsonc are all JSON underneath).
func (w *wailsUI) ChooseFile(title, start string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", nil
	}
	return wruntime.OpenFileDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start,
		Filters: []wruntime.FileFilter{{DisplayName: "JSON files (*.json)", Pattern: "*.json"}, {DisplayName: "All files", Pattern: "*"}}})
}

// ChooseExtension asks for an extension file, *.mcpb and *.dxt
// (extinstall.go).
func (w *wailsUI) ChooseExtension(title, start string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", nil
	}
	return wruntime.OpenFileDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start,
		Filters: []wruntime.FileFilter{{DisplayName: "MCP extensions (*.mcpb, *.dxt)", Pattern: "*.mcpb;*.dxt"}}})
}

// ChooseZip asks for a .zip file (a skill to attach, editor.go).
func (w *wailsUI) ChooseZip(title, start string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", nil
	}
	return wruntime.OpenFileDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start,
		Filters: []wruntime.FileFilter{{DisplayName: "Zip files (*.zip)", Pattern: "*.zip"}}})
}

// ChooseAnyFile asks for one file of any kind (a file field of an
// extension's settings, extinstall.go).
func (w *wailsUI) ChooseAnyFile(title, start string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", nil
	}
	return wruntime.OpenFileDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start})
}

// ChooseFiles asks for several files of any kind (a multiple file field of
// an extension's settings, extinstall.go).
func (w *wailsUI) ChooseFiles(title, start string) ([]string, error) {
	ctx := w.context()
	if ctx == nil {
		return nil, nil
	}
	return wruntime.OpenMultipleFilesDialog(ctx, wruntime.OpenDialogOptions{Title: title, DefaultDirectory: start})
}

// SaveFile asks where to save a file, starting in start with name (the
// Diagnostics screen's Save, diagnostics.go); "" when the person cancels.
func (w *wailsUI) SaveFile(title, start, name string) (string, error) {
	ctx := w.context()
	if ctx == nil {
		return "", nil
	}
	return wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{Title: title, DefaultDirectory: start, DefaultFilename: name,
		CanCreateDirectories: true, Filters: []wruntime.FileFilter{{DisplayName: "Text files (*.txt)", Pattern: "*.txt"}}})
}

// onFileDrop calls f with the absolute paths of files or folders dropped
// on the window (Wails' file drop, options.DragAndDrop.EnableFileDrop).
func (w *wailsUI) onFileDrop(f func(paths []string)) {
	if ctx := w.context(); ctx != nil {
		wruntime.OnFileDrop(ctx, func(_, _ int, paths []string) { f(paths) })
	}
}

// show brings the window to the front (a second instance was started).
func (w *wailsUI) show() {
	if ctx := w.context(); ctx != nil {
		wruntime.WindowUnminimise(ctx)
		wruntime.Show(ctx)
	}
}

// showWindow shows the window (started hidden until its page paints).
func (w *wailsUI) showWindow() {
	if ctx := w.context(); ctx != nil {
		wruntime.WindowShow(ctx)
	}
}

// hide hides the window; the app goes on (docs/app.md#running-in-the-background).
func (w *wailsUI) hide() {
	if ctx := w.context(); ctx != nil {
		wruntime.WindowHide(ctx)
	}
}

// quit ends the app through Wails, which asks OnBeforeClose first.
func (w *wailsUI) quit() {
	if ctx := w.context(); ctx != nil {
		wruntime.Quit(ctx)
	}
}

// confirmQuit asks question in a native dialog and reports whether the
// person chose to quit. Wails gives Linux's GTK dialog Yes and No, other
// systems the named buttons; anything else (an error, the dialog closed)
// keeps the window open.
func (w *wailsUI) confirmQuit(question string) bool {
	ctx := w.context()
	if ctx == nil {
		return true
	}
	res, err := wruntime.MessageDialog(ctx, wruntime.MessageDialogOptions{Type: wruntime.QuestionDialog, Title: "Quit OpenWorker?",
		Message: question, Buttons: []string{"Quit", "Keep open"}, DefaultButton: "Keep open", CancelButton: "Keep open"})
	return err == nil && (res == "Quit" || res == "Yes")
}
