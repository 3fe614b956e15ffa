//go:build !windows

package app

// webviewPresent: on macOS (WKWebView) and Linux (WebKitGTK, a package
// dependency) the web runtime is part of the system or the package; the
// Linux display check is displayMissing.
func webviewPresent() error { return nil }

// showNoWebView is never reached where webviewPresent is always nil.
func showNoWebView(string, string) {}
