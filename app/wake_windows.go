//go:build windows

package app

import (
	"encoding/json"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

var (
	user32          = windows.NewLazySystemDLL("user32.dll")
	procFindWindowW = user32.NewProc("FindWindowW")
	procSendMessage = user32.NewProc("SendMessageW")
)

// wakeFirstInstance asks the running instance to show its window, the way
// Wails' own single-instance lock does on Windows (WM_COPYDATA to its hidden
// message window). Best effort.
func wakeFirstInstance(uniqueID string) {
	id := "wails-app-" + uniqueID
	class, _ := windows.UTF16PtrFromString(id + "-sic")
	title, _ := windows.UTF16PtrFromString(id + "-siw")
	hwnd, _, _ := procFindWindowW.Call(uintptr(unsafe.Pointer(class)), uintptr(unsafe.Pointer(title)))
	if hwnd == 0 {
		return
	}
	wd, _ := os.Getwd()
	msg, _ := json.Marshal(map[string]any{"Args": os.Args[1:], "WorkingDirectory": wd})
	data, _ := windows.UTF16FromString(string(msg))
	cds := struct {
		dwData uintptr
		cbData uint32
		lpData uintptr
	}{1542, uint32(len(data)*2 + 1), uintptr(unsafe.Pointer(&data[0]))} // 1542: Wails' WMCOPYDATA_SINGLE_INSTANCE_DATA
	const wmCopyData = 0x004A
	procSendMessage.Call(hwnd, wmCopyData, 0, uintptr(unsafe.Pointer(&cds)))
}
