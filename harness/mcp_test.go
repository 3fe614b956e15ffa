package harness_test

import (
	"testing"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

func TestDeviceProviderEndToEnd(t *testing.T) {
	e := newEnv(t, envOpts{
		device:   true,
		selected: []string{"device.battery_status_get", "device.system_info_get"},
		replies: []modeltest.Reply{
			{ToolCalls: []model.ToolCall{call("c1", "device__battery_status_get", `{}`)}},
			// The provider offers disk_usage_get, but the bundle did not select it.
			{ToolCalls: []model.ToolCall{call("c2", "device__disk_usage_get", `{}`)}},
			{Text: "Your battery is fine."},
		},
	})
	s, res, err := e.send("How is my battery?")
	if err != nil || res.Status != harness.TurnCompleted {
		t.Fatalf("Send = %+v, %v", res, err)
	}
	invs := e.invocations(s.ID())
	if len(invs) != 2 {
		t.Fatalf("got %d invocations, want 2", len(invs))
	}
	if invs[0].Status != "succeeded" || invs[0].Provider != "mcp:device" || invs[0].RemoteName != "battery_status_get" {
		t.Fatalf("first invocation = %+v, want a succeeded mcp:device call", invs[0])
	}
	if len(invs[0].Result) < 10 {
		t.Fatalf("journaled result %s is too short to be the device server's answer", invs[0].Result)
	}
	if invs[1].Status != "refused" || invs[1].ErrorCode != "not_selected" {
		t.Fatalf("second invocation = %+v, want refused not_selected", invs[1])
	}
	offered := e.model.Requests()[0].ToolNames()
	if len(offered) != 2 {
		t.Fatalf("tools offered = %v, want only the 2 selected", offered)
	}
}
