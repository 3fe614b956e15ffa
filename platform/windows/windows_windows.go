package windows

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"time"
	"unsafe"

	"git.sr.ht/~jackmordaunt/go-toast/wintoast"
	winsys "golang.org/x/sys/windows"
)

const supported = true

var (
	user32                 = winsys.NewLazySystemDLL("user32.dll")
	procMessageBoxTimeoutW = user32.NewProc("MessageBoxTimeoutW")
	procEnumThreadWindows  = user32.NewProc("EnumThreadWindows")
	procPostMessageW       = user32.NewProc("PostMessageW")
)

const wmCommand = 0x0111

// pressCallback is created once: Windows callbacks are never freed.
var pressCallback = sync.OnceValue(func() uintptr {
	return winsys.NewCallback(func(hwnd winsys.HWND, id uintptr) uintptr {
		var class [16]uint16
		n, _ := winsys.GetClassName(hwnd, &class[0], int32(len(class)))
		if winsys.UTF16ToString(class[:n]) == "#32770" { // the dialog class of a message box
			procPostMessageW.Call(uintptr(hwnd), wmCommand, id, 0)
		}
		return 1 // continue enumerating
	})
})

// showMessageBox runs the box on a locked OS thread so that a cancelled ctx
// can find its window by thread id and press a button to close it.
func showMessageBox(ctx context.Context, s MessageBoxSpec) (int, error) {
	caption, err := winsys.UTF16PtrFromString(s.Caption)
	if err != nil {
		return 0, err
	}
	text, err := winsys.UTF16PtrFromString(s.Text)
	if err != nil {
		return 0, err
	}
	type result struct {
		ret int
		err error
	}
	done := make(chan result, 1)
	tids := make(chan uint32, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		tids <- winsys.GetCurrentThreadId()
		if procMessageBoxTimeoutW.Find() == nil {
			r, _, e := procMessageBoxTimeoutW.Call(0, uintptr(unsafe.Pointer(text)), uintptr(unsafe.Pointer(caption)), uintptr(s.Type), 0, uintptr(s.TimeoutMS))
			if r == 0 {
				done <- result{err: fmt.Errorf("MessageBoxTimeoutW: %w", e)}
				return
			}
			done <- result{ret: int(r)}
			return
		}
		r, e := winsys.MessageBox(0, text, caption, s.Type)
		if r == 0 {
			done <- result{err: fmt.Errorf("MessageBoxW: %w", e)}
			return
		}
		done <- result{ret: int(r)}
	}()
	tid := <-tids
	select {
	case r := <-done:
		return r.ret, r.err
	case <-ctx.Done():
	}
	// Press the close button until the box is gone (it may not exist yet).
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	deadline := time.After(5 * time.Second)
	for {
		procEnumThreadWindows.Call(uintptr(tid), pressCallback(), uintptr(s.closeID()))
		select {
		case <-done:
			return 0, ctx.Err()
		case <-deadline:
			return 0, fmt.Errorf("message box did not close after cancellation: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

var toastMu sync.Mutex

// pushToast registers the app id (HKCU\Software\Classes\AppUserModelId, as
// beeep does) and pushes the XML over COM only: never the PowerShell
// fallback, which would splice the text into a script.
func pushToast(doc string) error {
	toastMu.Lock()
	defer toastMu.Unlock()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := wintoast.SetAppData(wintoast.AppData{AppID: AppID}); err != nil {
		return fmt.Errorf("toast app registration: %w", err)
	}
	if err := wintoast.Push(doc); err != nil {
		return fmt.Errorf("toast: %w", err)
	}
	return nil
}
