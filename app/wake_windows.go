//go:build windows

package app

import (
	"encoding/json"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	user32          = windows.NewLazySystemDLL("user32.dll")
	procFindWindowW = user32.NewProc("FindWindowW")
	procSendMessage = user32.NewProc("SendMessageW")
)

// wakeFirstInstance hands l to the running instance the way Wails' own
// single-instance lock does on Windows (WM_COPYDATA with Wails' JSON of
// options.SecondInstanceData to its hidden message window, read in Wails
// v2.15.0 internal/frontend/desktop/windows/single_instance.go); Wails then
// calls the first instance's OnSecondInstanceLaunch. It reports whether
// that window was found. Our lock file decides first (Run), before Wails'
// mutex is ever tried, so Wails' os.Exit in the second start never runs.
func wakeFirstInstance(uniqueID string, l secondLaunch) bool {
	id := "wails-app-" + uniqueID
	class, _ := windows.UTF16PtrFromString(id + "-sic")
	title, _ := windows.UTF16PtrFromString(id + "-siw")
	hwnd, _, _ := procFindWindowW.Call(uintptr(unsafe.Pointer(class)), uintptr(unsafe.Pointer(title)))
	if hwnd == 0 {
		return false
	}
	msg, _ := json.Marshal(l)
	data, _ := windows.UTF16FromString(string(msg))
	cds := struct {
		dwData uintptr
		cbData uint32
		lpData uintptr
	}{1542, uint32(len(data)*2 + 1), uintptr(unsafe.Pointer(&data[0]))} // 1542: Wails' WMCOPYDATA_SINGLE_INSTANCE_DATA
	const wmCopyData = 0x004A
	procSendMessage.Call(hwnd, wmCopyData, 0, uintptr(unsafe.Pointer(&cds)))
	return true
}
