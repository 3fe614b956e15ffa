package notification

import (
	"flag"
	"os"
	"testing"

	"github.com/openworker/desktop/platform"
)

var updatePins = flag.Bool("update-pins", false, "add pins for new tool versions to pins.json (never rewrites an existing pin)")

// TestPins fails when a schema changed without a version bump. With
// -update-pins it adds the pins of versions not yet pinned and refuses to
// change an existing one.
func TestPins(t *testing.T) {
	ts, err := Tools(platform.Unsupported{Why: "test"})
	if err != nil {
		t.Fatal(err)
	}
	pins, err := Pins()
	if err != nil {
		t.Fatal(err)
	}
	if *updatePins {
		for _, tt := range ts {
			if err := pins.Add(tt); err != nil {
				t.Fatal(err)
			}
		}
		data, err := pins.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(PinFileName, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	for _, tt := range ts {
		if err := pins.Check(tt); err != nil {
			t.Error(err)
		}
	}
}
