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
	t := sysfsTally{haveEnergy: true}
	for _, e := range entries {
		dir := filepath.Join(root, e.Name())
		switch sysfsValue(dir, "type") {
		case "Mains", "USB", "USB_C", "USB_PD", "USB_PD_DRP", "Wireless":
			t.mains = true
			t.plugged = t.plugged || sysfsValue(dir, "online") == "1"
		case "Battery":
			if sysfsValue(dir, "scope") != "Device" && sysfsValue(dir, "present") != "0" {
				t.addBattery(dir)
			}
		}
	}
	if t.n == 0 {
		return noBattery("sysfs"), nil
	}
	return t.status(), nil
}

// sysfsTally adds up the system batteries and external supplies of a
// power-supply tree.
type sysfsTally struct {
	n                                        int // system batteries
	charging, discharging, full, notCharging int // batteries by status
	pctSum, nowSum, fullSum                  float64
	haveEnergy                               bool // every battery gives its energy (or charge) now and when full
	mains, plugged                           bool // an external supply is listed; one is online
}

// addBattery adds the battery whose folder is dir: its status, its
// energy (or charge) now and when full, and its capacity in percent
// (from the energy when it gives none).
func (t *sysfsTally) addBattery(dir string) {
	t.n++
	switch strings.ToLower(sysfsValue(dir, "status")) {
	case "charging":
		t.charging++
	case "discharging":
		t.discharging++
	case "full":
		t.full++
	case "not charging":
		t.notCharging++
	}
	pct, ok := sysfsNumber(dir, "capacity")
	if !ok {
		pct = -1
	}
	now, okNow := firstNumber(dir, "energy_now", "charge_now")
	full, okMax := firstNumber(dir, "energy_full", "charge_full")
	if okNow && okMax && full > 0 {
		t.nowSum += now
		t.fullSum += full
		if pct < 0 {
			pct = 100 * now / full
		}
	} else {
		t.haveEnergy = false
	}
	t.pctSum += max(pct, 0)
}

// status is the tally as one battery status: the percent of the energy
// of all (or the mean capacity), the state the batteries agree on, and
// whether external power is plugged (inferred from the state when no
// external supply is listed).
func (t *sysfsTally) status() BatteryStatus {
	st := BatteryStatus{Present: true, Batteries: t.n, Source: "sysfs"}
	if t.haveEnergy && t.fullSum > 0 {
		st.Percent = round1(100 * t.nowSum / t.fullSum)
	} else {
		st.Percent = round1(t.pctSum / float64(t.n))
	}
	st.Percent = min(st.Percent, 100)
	switch {
	case t.charging > 0:
		st.State = StateCharging
	case t.discharging > 0:
		st.State = StateDischarging
	case t.full == t.n:
		st.State = StateFull
	case t.notCharging > 0:
		st.State = StateNotCharging
	default:
		st.State = StateUnknown
	}
	st.Plugged = t.plugged
	if !t.mains { // no mains supply listed: infer external power from the battery
		st.Plugged = st.State == StateCharging || st.State == StateFull || st.State == StateNotCharging
	}
	return st
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
