//go:build !linux && !darwin && !windows

package device

import "context"

func readBattery(context.Context) (BatteryStatus, error) {
	return BatteryStatus{}, errBatteryUnsupported
}
