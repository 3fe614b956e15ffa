package notification

import (
	"os"
	"testing"

	"github.com/openworker/desktop/internal/testbus"
)

// TestMain keeps every test off the desktop's own D-Bus session bus; the
// D-Bus tests get a private one (testbus.Session).
func TestMain(m *testing.M) {
	testbus.Isolate()
	code := m.Run()
	testbus.Stop()
	os.Exit(code)
}
