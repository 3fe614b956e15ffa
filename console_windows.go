package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// The Windows build is a GUI program (no console window flashes when the app
// starts), so a subcommand typed in cmd or PowerShell would print nothing.
// When a subcommand runs and the standard handles are not already valid
// (pipes and redirects are), attach to the parent's console so `openworker
// version`, `check` and `journal` print where the person typed them.
func init() {
	if len(os.Args) < 2 {
		return
	}
	if h, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE); err == nil && h != 0 && h != windows.InvalidHandle {
		return
	}
	attach := windows.NewLazySystemDLL("kernel32.dll").NewProc("AttachConsole")
	const attachParentProcess = ^uintptr(0) // ATTACH_PARENT_PROCESS, (DWORD)-1
	if r, _, _ := attach.Call(attachParentProcess); r == 0 {
		return
	}
	if out, err := os.OpenFile("CONOUT$", os.O_WRONLY, 0); err == nil {
		os.Stdout, os.Stderr = out, out
	}
	if in, err := os.OpenFile("CONIN$", os.O_RDONLY, 0); err == nil {
		os.Stdin = in
	}
}
