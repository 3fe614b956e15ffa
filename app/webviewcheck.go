package app

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// ErrNoWebView is returned by Run when the window's web runtime is missing
// (WebView2 on Windows): the person has been told what to do in a native
// message box, before any file was created (docs/install.md#webview2).
var ErrNoWebView = errors.New("the Microsoft WebView2 Runtime is not installed")

// ExitNoWebView is the exit code of a desktop start that found no WebView2
// runtime (docs/install.md#webview2): distinct from 1 (a failure) so a
// script or installer can tell it apart.
const ExitNoWebView = 4

// noWebViewTitle and noWebViewText are the message shown when WebView2 is
// missing: what it is, and what to do online and offline.
const noWebViewTitle = "OpenWorker Desktop needs Microsoft WebView2"

const noWebViewText = `OpenWorker Desktop shows its window with the Microsoft Edge WebView2 Runtime, which is not installed on this PC.

With internet: run the OpenWorker Desktop installer again (it installs WebView2), or get the "Evergreen Bootstrapper" from https://developer.microsoft.com/microsoft-edge/webview2/ and run it.

Without internet: on a PC with internet, download the "Evergreen Standalone Installer" (x64) from the same page, copy it to this PC and run it.

Then start OpenWorker Desktop again. The command line (openworker.exe run, check, journal) works without WebView2.`

// requireWebView checks the window's web runtime before Run creates any
// file (config folder, journal, the example coworkers). When it is missing
// it shows the native message box (showNoWebView), writes the reason on
// stderr and, only where the log folder already exists, in the log, and
// returns ErrNoWebView. logFile is the app's log (Paths.LogFile).
func requireWebView(logFile string) error {
	err := webviewPresent()
	if err == nil {
		return nil
	}
	fmt.Fprintf(os.Stderr, "openworker: %s: %v\n%s\n", ErrNoWebView, err, noWebViewText)
	logNoWebView(logFile, err)
	showNoWebView(noWebViewTitle, noWebViewText)
	return ErrNoWebView
}

// logNoWebView appends the reason to the log when its folder exists (a
// start after an earlier one); a first start creates nothing, not even
// the log.
func logNoWebView(logFile string, reason error) {
	if logFile == "" {
		return
	}
	if st, err := os.Stat(filepath.Dir(logFile)); err != nil || !st.IsDir() {
		return
	}
	logger, closer := newLogger(logFile)
	defer closer.Close()
	logger.Error("no WebView2 runtime: the window cannot open", "err", reason, "exit", ExitNoWebView)
}
