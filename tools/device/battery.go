package device

import (
	"context"
	"errors"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Battery states reported by battery_status_get.
const (
	StateCharging    = "charging"
	StateDischarging = "discharging"
	StateFull        = "full"
	StateNotCharging = "not_charging" // plugged in but held below full
	StateUnknown     = "unknown"
)

// BatteryStatus is the structured result of battery_status_get. A machine
// without a battery is not an error: Present is false and Message says so.
type BatteryStatus struct {
	Present   bool    `json:"present" jsonschema:"true when the machine has at least one system battery"`
	Batteries int     `json:"batteries" jsonschema:"number of system batteries found"`
	Percent   float64 `json:"percent" jsonschema:"charge in percent (0-100), the combined charge of all batteries; 0 when no battery is present"`
	State     string  `json:"state" jsonschema:"charging, discharging, full, not_charging or unknown"`
	Plugged   bool    `json:"plugged" jsonschema:"true when the machine runs on external power"`
	Source    string  `json:"source" jsonschema:"where the facts came from (sysfs, pmset, GetSystemPowerStatus)"`
	Message   string  `json:"message,omitempty" jsonschema:"a short explanation, e.g. no battery present"`
}

// errBatteryUnsupported is returned by readBattery on an OS where battery
// status cannot be read.
var errBatteryUnsupported = errors.New("battery status unavailable on this OS")

// noBattery is the answer for a machine without a system battery. Such a
// machine, since it runs, is on external power.
func noBattery(source string) BatteryStatus {
	return BatteryStatus{State: StateUnknown, Plugged: true, Source: source, Message: "no battery present"}
}

type batteryInput struct{}

func addBatteryTool(s *sdk.Server) {
	sdk.AddTool(s, &sdk.Tool{
		Name:        "battery_status_get",
		Title:       "Battery status",
		Description: "Reports the battery charge in percent, whether it is charging, discharging or full, and whether external power is plugged in. On a machine without a battery it answers present=false with a message instead of failing.",
		Annotations: readOnly(),
	}, func(ctx context.Context, _ *sdk.CallToolRequest, _ batteryInput) (*sdk.CallToolResult, BatteryStatus, error) {
		st, err := readBattery(ctx)
		if err != nil {
			// A tool error the model can read, never a protocol failure.
			return nil, BatteryStatus{}, err
		}
		st.Message = clip(st.Message)
		return nil, st, nil
	})
}
