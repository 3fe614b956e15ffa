package app

import (
	"context"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/windows"
)

// webviewPresent is nil when a WebView2 runtime is installed, as the
// loader Wails uses finds it (webviewRuntime).
func webviewPresent() error {
	_, _, err := webviewRuntime(context.Background())
	return err
}

// boxTimeoutEnv is a test hook: the message box closes by itself after
// that many seconds (MessageBoxTimeoutW), so the Wine test
// (scripts/wine/webview-steps.sh) sees the whole start end without a
// person to click OK. Unset, the box waits for the person.
const boxTimeoutEnv = "OPENWORKER_TEST_BOX_TIMEOUT"

var procMessageBoxTimeoutW = windows.NewLazySystemDLL("user32.dll").NewProc("MessageBoxTimeoutW")

// showNoWebView shows a native, modal message box (MessageBoxW) and
// returns when the person closes it.
func showNoWebView(title, text string) {
	t, err1 := windows.UTF16PtrFromString(title)
	m, err2 := windows.UTF16PtrFromString(text)
	if err1 != nil || err2 != nil {
		return
	}
	style := uint32(windows.MB_OK | windows.MB_ICONERROR | windows.MB_SETFOREGROUND | windows.MB_TOPMOST)
	if secs, err := strconv.Atoi(os.Getenv(boxTimeoutEnv)); err == nil && secs > 0 && procMessageBoxTimeoutW.Find() == nil {
		_, _, _ = procMessageBoxTimeoutW.Call(0, uintptr(unsafe.Pointer(m)), uintptr(unsafe.Pointer(t)), uintptr(style), 0, uintptr(secs*1000))
		return
	}
	_, _ = windows.MessageBox(0, m, t, style)
}
