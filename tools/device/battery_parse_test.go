package device

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParsePmset(t *testing.T) {
	tests := []struct {
		name, out string
		want      BatteryStatus
	}{{
		name: "discharging",
		out:  "Now drawing from 'Battery Power'\n -InternalBattery-0 (id=4653155)\t87%; discharging; 4:05 remaining present: true\n",
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 87, State: StateDischarging, Source: "pmset"},
	}, {
		name: "charging",
		out:  "Now drawing from 'AC Power'\n -InternalBattery-0 (id=4653155)\t42%; charging; 1:10 remaining present: true\n",
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 42, State: StateCharging, Plugged: true, Source: "pmset"},
	}, {
		name: "charged",
		out:  "Now drawing from 'AC Power'\n -InternalBattery-0 (id=99)\t100%; charged; 0:00 remaining present: true\n",
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 100, State: StateFull, Plugged: true, Source: "pmset"},
	}, {
		name: "held by optimized charging",
		out:  "Now drawing from 'AC Power'\n -InternalBattery-0 (id=99)\t80%; AC attached; not charging present: true\n",
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 80, State: StateNotCharging, Plugged: true, Source: "pmset"},
	}, {
		name: "mac mini",
		out:  "Now drawing from 'AC Power'\n",
		want: BatteryStatus{State: StateUnknown, Plugged: true, Source: "pmset", Message: "no battery present"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, parsePmset(tt.out)); diff != "" {
				t.Errorf("parsePmset mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestFromPowerStatus(t *testing.T) {
	tests := []struct {
		name string
		in   systemPowerStatus
		want BatteryStatus
	}{{
		name: "no system battery",
		in:   systemPowerStatus{ACLineStatus: 1, BatteryFlag: 128, BatteryLifePercent: 255},
		want: BatteryStatus{State: StateUnknown, Plugged: true, Source: "GetSystemPowerStatus", Message: "no battery present"},
	}, {
		name: "charging",
		in:   systemPowerStatus{ACLineStatus: 1, BatteryFlag: 8 | 1, BatteryLifePercent: 70},
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 70, State: StateCharging, Plugged: true, Source: "GetSystemPowerStatus"},
	}, {
		name: "discharging",
		in:   systemPowerStatus{ACLineStatus: 0, BatteryFlag: 2, BatteryLifePercent: 20},
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 20, State: StateDischarging, Source: "GetSystemPowerStatus"},
	}, {
		name: "full on AC",
		in:   systemPowerStatus{ACLineStatus: 1, BatteryFlag: 1, BatteryLifePercent: 100},
		want: BatteryStatus{Present: true, Batteries: 1, Percent: 100, State: StateFull, Plugged: true, Source: "GetSystemPowerStatus"},
	}, {
		name: "unknown",
		in:   systemPowerStatus{ACLineStatus: 255, BatteryFlag: 255, BatteryLifePercent: 255},
		want: BatteryStatus{Present: true, Batteries: 1, State: StateUnknown, Source: "GetSystemPowerStatus", Message: "the system reports the battery state as unknown"},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, fromPowerStatus(tt.in)); diff != "" {
				t.Errorf("fromPowerStatus(%+v) mismatch (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}
