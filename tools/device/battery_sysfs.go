package device

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// sysfsPowerSupply is the Linux power-supply class directory; tests point it
// at a fake tree.
var sysfsPowerSupply = "/sys/class/power_supply"

// readSysfsBattery reads the power supplies under root (the layout of
// /sys/class/power_supply: one folder per supply holding "type", "status",
// "capacity", "online", ...). Supplies of type Battery with scope Device (a
// mouse, a headset) are not system batteries and are skipped. A missing or
// empty root means no battery.
func readSysfsBattery(root string) (BatteryStatus, error) {
	entries, err := os.ReadDir(root)
	if err != nil && !os.IsNotExist(err) {
		return BatteryStatus{}, fmt.Errorf("reading %s: %v", root, err)
	}
	var (
		n, charging, discharging, full, notCharging int
		pctSum, nowSum, fullSum                     float64
		haveEnergy                                  = true
		mains, plugged                              bool
	)
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		switch sysfsValue(dir, "type") {
		case "Mains", "USB", "USB_C", "USB_PD", "USB_PD_DRP", "Wireless":
			mains = true
			if sysfsValue(dir, "online") == "1" {
				plugged = true
			}
		case "Battery":
			if sysfsValue(dir, "scope") == "Device" || sysfsValue(dir, "present") == "0" {
				continue
			}
			n++
			switch strings.ToLower(sysfsValue(dir, "status")) {
			case "charging":
				charging++
			case "discharging":
				discharging++
			case "full":
				full++
			case "not charging":
				notCharging++
			}
			pct, ok := sysfsNumber(dir, "capacity")
			if !ok {
				pct = -1
			}
			now, okNow := firstNumber(dir, "energy_now", "charge_now")
			max, okMax := firstNumber(dir, "energy_full", "charge_full")
			if okNow && okMax && max > 0 {
				nowSum += now
				fullSum += max
				if pct < 0 {
					pct = 100 * now / max
				}
			} else {
				haveEnergy = false
			}
			if pct < 0 {
				pct = 0
			}
			pctSum += pct
		}
	}
	if n == 0 {
		return noBattery("sysfs"), nil
	}
	st := BatteryStatus{Present: true, Batteries: n, Source: "sysfs"}
	if haveEnergy && fullSum > 0 {
		st.Percent = round1(100 * nowSum / fullSum)
	} else {
		st.Percent = round1(pctSum / float64(n))
	}
	if st.Percent > 100 {
		st.Percent = 100
	}
	switch {
	case charging > 0:
		st.State = StateCharging
	case discharging > 0:
		st.State = StateDischarging
	case full == n:
		st.State = StateFull
	case notCharging > 0:
		st.State = StateNotCharging
	default:
		st.State = StateUnknown
	}
	if mains {
		st.Plugged = plugged
	} else {
		// No mains supply listed: infer external power from the battery.
		st.Plugged = st.State == StateCharging || st.State == StateFull || st.State == StateNotCharging
	}
	return st, nil
}

// sysfsValue returns the trimmed content of dir/name, or "" when it cannot
// be read. Reads are bounded: sysfs attributes are one short line.
func sysfsValue(dir, name string) string {
	f, err := os.Open(filepath.Join(dir, name))
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 128)
	k, _ := f.Read(buf)
	return strings.TrimSpace(string(buf[:k]))
}

func sysfsNumber(dir, name string) (float64, bool) {
	v, err := strconv.ParseFloat(sysfsValue(dir, name), 64)
	return v, err == nil && v >= 0
}

func firstNumber(dir string, names ...string) (float64, bool) {
	for _, name := range names {
		if v, ok := sysfsNumber(dir, name); ok {
			return v, true
		}
	}
	return 0, false
}

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }
