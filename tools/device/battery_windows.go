package device

import (
	"context"
	"fmt"
	"unsafe"

	"golang.org/x/sys/windows"
)

var procGetSystemPowerStatus = windows.NewLazySystemDLL("kernel32.dll").NewProc("GetSystemPowerStatus")

// readBattery calls GetSystemPowerStatus (kernel32); no cgo is needed.
func readBattery(context.Context) (BatteryStatus, error) {
	var s systemPowerStatus
	r, _, err := procGetSystemPowerStatus.Call(uintptr(unsafe.Pointer(&s)))
	if r == 0 {
		return BatteryStatus{}, fmt.Errorf("battery status: GetSystemPowerStatus: %v", err)
	}
	return fromPowerStatus(s), nil
}
