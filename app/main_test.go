package app

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/openworker/desktop/tools/device"
)

// serveDeviceEnv makes the test binary the device-tools MCP server, so app
// tests have a real stdio provider process.
const serveDeviceEnv = "OPENWORKER_APP_TEST_SERVE_DEVICE"

// startDelayEnv makes that server wait so long before it reads its
// input (a Go duration).
const startDelayEnv = "OPENWORKER_APP_TEST_START_DELAY"

// startLogEnv names a file the server appends a line to at each start;
// with failFirstEnv "1" the first start exits with an error.
const (
	startLogEnv  = "OPENWORKER_APP_TEST_START_LOG"
	failFirstEnv = "OPENWORKER_APP_TEST_FAIL_FIRST"
)

func TestMain(m *testing.M) {
	if os.Getenv(serveDeviceEnv) == "1" {
		if log := os.Getenv(startLogEnv); log != "" { // count the starts; the first may fail
			prev, _ := os.ReadFile(log)
			f, err := os.OpenFile(log, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err == nil {
				f.WriteString("start\n")
				f.Close()
			}
			if os.Getenv(failFirstEnv) == "1" && len(prev) == 0 {
				os.Stderr.WriteString("the first start fails on purpose\n")
				os.Exit(3)
			}
		}
		if d, err := time.ParseDuration(os.Getenv(startDelayEnv)); err == nil {
			time.Sleep(d) // a provider slow to start (TestCoworkersStartingThenReady)
		}
		if err := device.ServeStdio(context.Background()); err != nil {
			os.Stderr.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}
