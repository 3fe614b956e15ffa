package device

import (
	"regexp"
	"strconv"
	"strings"
)

// pmsetBattery matches one battery line of `pmset -g batt`, e.g.
// " -InternalBattery-0 (id=4653155)	87%; discharging; 4:05 remaining present: true".
var pmsetBattery = regexp.MustCompile(`(?m)^\s*-\S+[^\n]*?\s(\d{1,3})%;\s*([^;\n]+);`)

// parsePmset turns the output of `pmset -g batt` (macOS) into a status. A Mac
// without a battery prints only the power source line.
func parsePmset(out string) BatteryStatus {
	plugged := strings.Contains(out, "'AC Power'")
	ms := pmsetBattery.FindAllStringSubmatch(out, -1)
	if len(ms) == 0 {
		return noBattery("pmset")
	}
	st := BatteryStatus{Present: true, Batteries: len(ms), Plugged: plugged, Source: "pmset", State: StateUnknown}
	var sum float64
	for i, m := range ms {
		p, _ := strconv.Atoi(m[1])
		sum += float64(p)
		if i == 0 {
			switch state := strings.TrimSpace(m[2]); {
			case state == "charging", state == "finishing charge":
				st.State = StateCharging
			case state == "discharging":
				st.State = StateDischarging
			case state == "charged":
				st.State = StateFull
			case strings.HasPrefix(state, "AC attached"):
				st.State = StateNotCharging
			}
		}
	}
	st.Percent = round1(sum / float64(len(ms)))
	return st
}

// systemPowerStatus mirrors the Win32 SYSTEM_POWER_STATUS structure.
type systemPowerStatus struct {
	ACLineStatus        byte
	BatteryFlag         byte
	BatteryLifePercent  byte
	SystemStatusFlag    byte
	BatteryLifeTime     uint32
	BatteryFullLifeTime uint32
}

// fromPowerStatus maps SYSTEM_POWER_STATUS (Win32 GetSystemPowerStatus) to a
// status: BatteryFlag 128 means no system battery, 255 unknown, bit 8
// charging; BatteryLifePercent 255 means unknown; ACLineStatus 1 is online.
func fromPowerStatus(s systemPowerStatus) BatteryStatus {
	const source = "GetSystemPowerStatus"
	if s.BatteryFlag&128 != 0 && s.BatteryFlag != 255 {
		return noBattery(source)
	}
	st := BatteryStatus{Present: true, Batteries: 1, Plugged: s.ACLineStatus == 1, Source: source, State: StateUnknown}
	if s.BatteryFlag == 255 {
		st.Message = "the system reports the battery state as unknown"
	}
	if s.BatteryLifePercent <= 100 {
		st.Percent = float64(s.BatteryLifePercent)
	}
	switch {
	case s.BatteryFlag != 255 && s.BatteryFlag&8 != 0:
		st.State = StateCharging
	case s.ACLineStatus == 0:
		st.State = StateDischarging
	case s.ACLineStatus == 1 && s.BatteryLifePercent == 100:
		st.State = StateFull
	case s.ACLineStatus == 1:
		st.State = StateNotCharging
	}
	return st
}
