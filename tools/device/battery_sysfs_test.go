package device

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeSupply writes one power supply folder with the given attribute files.
func fakeSupply(t *testing.T, root, name string, attrs map[string]string) {
	t.Helper()
	dir := filepath.Join(root, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for k, v := range attrs {
		if err := os.WriteFile(filepath.Join(dir, k), []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReadSysfsBattery(t *testing.T) {
	tests := []struct {
		name     string
		supplies map[string]map[string]string
		want     BatteryStatus
	}{{
		name: "laptop discharging",
		supplies: map[string]map[string]string{
			"AC":   {"type": "Mains", "online": "0"},
			"BAT0": {"type": "Battery", "status": "Discharging", "capacity": "57", "present": "1"},
		},
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 57, State: StateDischarging, Source: "sysfs"},
	}, {
		name: "charging on mains, mouse battery ignored",
		supplies: map[string]map[string]string{
			"ADP1":           {"type": "Mains", "online": "1"},
			"BAT1":           {"type": "Battery", "status": "Charging", "capacity": "80"},
			"hidpp_battery0": {"type": "Battery", "scope": "Device", "status": "Discharging", "capacity": "5"},
		},
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 80, State: StateCharging, Plugged: true, Source: "sysfs"},
	}, {
		name: "two batteries weighted by energy",
		supplies: map[string]map[string]string{
			"AC":   {"type": "Mains", "online": "1"},
			"BAT0": {"type": "Battery", "status": "Full", "capacity": "100", "energy_now": "20000000", "energy_full": "20000000"},
			"BAT1": {"type": "Battery", "status": "Not charging", "capacity": "50", "energy_now": "30000000", "energy_full": "60000000"},
		},
		want: BatteryStatus{Present: true, Batteries: 2, Percent: 62.5, State: StateNotCharging, Plugged: true, Source: "sysfs"},
	}, {
		name: "capacity from charge counters, no mains listed",
		supplies: map[string]map[string]string{
			"battery": {"type": "Battery", "status": "Full", "charge_now": "3000", "charge_full": "4000"},
		},
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 75, State: StateFull, Plugged: true, Source: "sysfs"},
	}, {
		name: "battery slot empty",
		supplies: map[string]map[string]string{
			"AC":   {"type": "Mains", "online": "1"},
			"BAT0": {"type": "Battery", "present": "0"},
		},
		want: BatteryStatus{State: StateUnknown, Plugged: true, Source: "sysfs", Message: "no battery present"},
	}, {
		name:     "desktop without supplies",
		supplies: nil,
		want:     BatteryStatus{State: StateUnknown, Plugged: true, Source: "sysfs", Message: "no battery present"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			for name, attrs := range tt.supplies {
				fakeSupply(t, root, name, attrs)
			}
			got, err := readSysfsBattery(root)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("readSysfsBattery mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestReadSysfsBatteryMissingRoot(t *testing.T) {
	got, err := readSysfsBattery(filepath.Join(t.TempDir(), "absent"))
	if err != nil || got.Present || got.Message != "no battery present" {
		t.Errorf("readSysfsBattery(missing dir) = %+v, %v; want present=false with a message", got, err)
	}
}
