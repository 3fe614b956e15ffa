package app

import (
	"context"
	"errors"

	"github.com/wailsapp/go-webview2/webviewloader"
)

// webviewRuntime is the WebView2 runtime installed (Evergreen), as the
// loader Wails uses finds it; an error when none is installed.
func webviewRuntime(context.Context) (name, version string, err error) {
	v, err := webviewloader.GetAvailableCoreWebView2BrowserVersionString("")
	if err == nil && v == "" {
		err = errors.New("no WebView2 runtime is installed (the installer downloads it; https://developer.microsoft.com/microsoft-edge/webview2/)")
	}
	return "WebView2", v, err
}
