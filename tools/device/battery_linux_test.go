package device

import (
	"testing"
)

// The tool end to end over MCP, reading a fake sysfs tree.
func TestBatteryToolSysfs(t *testing.T) {
	root := t.TempDir()
	fakeSupply(t, root, "AC", map[string]string{"type": "Mains", "online": "1"})
	fakeSupply(t, root, "BAT0", map[string]string{"type": "Battery", "status": "Charging", "capacity": "42"})
	old := sysfsPowerSupply
	sysfsPowerSupply = root
	t.Cleanup(func() { sysfsPowerSupply = old })

	cs := connect(t, nil)
	var st BatteryStatus
	res := call(t, cs, "battery_status_get", nil, nil, &st)
	if res.IsError {
		t.Fatalf("battery_status_get failed: %s", errorText(res))
	}
	want := BatteryStatus{Present: true, Batteries: 1, Percent: 42, State: StateCharging, Plugged: true, Source: "sysfs"}
	if st != want {
		t.Errorf("battery_status_get = %+v, want %+v", st, want)
	}
}

// A machine without a battery answers, it does not fail.
func TestBatteryToolNoBattery(t *testing.T) {
	old := sysfsPowerSupply
	sysfsPowerSupply = t.TempDir()
	t.Cleanup(func() { sysfsPowerSupply = old })

	cs := connect(t, nil)
	var st BatteryStatus
	res := call(t, cs, "battery_status_get", nil, nil, &st)
	if res.IsError {
		t.Fatalf("battery_status_get failed without a battery: %s", errorText(res))
	}
	if st.Present || st.Message != "no battery present" || st.State != StateUnknown {
		t.Errorf("battery_status_get = %+v, want present=false, state unknown, message \"no battery present\"", st)
	}
}
