package device

import (
	"context"
	"fmt"
	"io"
	"os/exec"
	"strings"
)

// readBattery asks pmset, which ships with macOS; no cgo is needed.
func readBattery(ctx context.Context) (BatteryStatus, error) {
	cmd := exec.CommandContext(ctx, "/usr/bin/pmset", "-g", "batt")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return BatteryStatus{}, err
	}
	if err := cmd.Start(); err != nil {
		return BatteryStatus{}, fmt.Errorf("battery status: running pmset: %v", err)
	}
	text, _ := io.ReadAll(io.LimitReader(out, 16<<10))
	if err := cmd.Wait(); err != nil {
		return BatteryStatus{}, fmt.Errorf("battery status: pmset -g batt: %v: %s", err, clip(stderr.String()))
	}
	return parsePmset(string(text)), nil
}
