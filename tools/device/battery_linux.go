package device

import "context"

func readBattery(context.Context) (BatteryStatus, error) {
	return readSysfsBattery(sysfsPowerSupply)
}
