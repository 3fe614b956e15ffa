package harness

import (
	"encoding/json"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestPinWithoutUIUnchanged: a descriptor without a view keeps the digest it
// had before descriptors could carry one (the value was computed by the
// code before tool.Descriptor.UI existed); a view, or a changed view URI,
// changes it (docs/mcp-apps.md#resources).
func TestPinWithoutUIUnchanged(t *testing.T) {
	d := tool.Descriptor{Name: "kit.counter_show", Description: "Shows a counter", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		OutputSchema: json.RawMessage(`{"type":"object"}`), Version: "1.2.3", Risk: tool.ReadOnly, Cancellation: tool.Cooperative, Classification: tool.External}
	p, err := pinDescriptor(d)
	if err != nil || p.Digest != "sha256:6e672e0a2cc25c423fd4794fac70ffb0cd4252d0cddf7fb4c0d88d972bb99917" {
		t.Fatalf("pin without UI = %+v, %v", p, err)
	}
	d.UI = &tool.UIRef{ResourceURI: "ui://kit/view.html"}
	withUI, _ := pinDescriptor(d)
	d.UI = &tool.UIRef{ResourceURI: "ui://kit/other.html"}
	other, _ := pinDescriptor(d)
	if withUI.Digest == p.Digest || other.Digest == withUI.Digest || withUI.Input != p.Input {
		t.Fatalf("pins: none %s, view %s, other view %s", p.Digest, withUI.Digest, other.Digest)
	}
}
