package app

import (
	"context"
	"os"
	"testing"

	"github.com/openworker/desktop/tools/device"
)

// serveDeviceEnv makes the test binary the device-tools MCP server, so app
// tests have a real stdio provider process.
const serveDeviceEnv = "OPENWORKER_APP_TEST_SERVE_DEVICE"

func TestMain(m *testing.M) {
	if os.Getenv(serveDeviceEnv) == "1" {
		if err := device.ServeStdio(context.Background()); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
