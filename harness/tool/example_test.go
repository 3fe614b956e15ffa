package tool_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/openworker/desktop/harness/tool"
)

// incidentLookup is a partner's native tool: trusted host code that the
// harness calls in-process after selection, validation and consent.
type incidentLookup struct{}

func (incidentLookup) Descriptor() tool.Descriptor {
	return tool.Descriptor{
		Name:        "example.incident_lookup",
		Description: "Look up an incident by its id and return its status.",
		InputSchema: json.RawMessage(`{
			"type": "object",
			"properties": {"id": {"type": "string", "maxLength": 32}},
			"required": ["id"],
			"additionalProperties": false
		}`),
		Version: "1.0.0",
		Risk:    tool.ReadOnly,
	}
}

func (incidentLookup) Call(ctx context.Context, c *tool.Call, args json.RawMessage) (tool.Output, error) {
	var in struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(args, &in); err != nil {
		return tool.Output{}, tool.Errorf("invalid_arguments", "%v", err)
	}
	if in.ID != "INC-42" {
		// An expected failure: it goes back to the model, the turn goes on.
		return tool.Output{}, tool.Errorf("not_found", "no incident %q", in.ID)
	}
	_ = c.Progress("looking up "+in.ID, nil)
	return tool.Output{Structured: json.RawMessage(`{"id":"INC-42","status":"resolved"}`)}, nil
}

// A partner registers native tools (and MCP providers) on a registry, then
// hands it to cli.MainWithRegistry or harness.Open, which freeze it.
func Example_registerNativeTool() {
	reg := tool.NewRegistry()
	if err := reg.Register(incidentLookup{}); err != nil {
		fmt.Println(err)
		return
	}
	if err := reg.RegisterMCP(tool.MCPServer{Namespace: "acer", Program: "bin/acer-mcp-launcher"}); err != nil {
		fmt.Println(err)
		return
	}
	// A second tool under the same name fails, naming both sides.
	fmt.Println(reg.Register(incidentLookup{}))
	// So does an MCP provider that reuses a native namespace.
	fmt.Println(reg.RegisterMCP(tool.MCPServer{Namespace: "example", Program: "x"}))
	fmt.Println(tool.Alias("example.incident_lookup"))

	// The harness calls the tool with a harness-owned Call.
	c := tool.NewCall("ses_1", "turn_1", "call_1", "", tool.Limits{}, func(msg string, _ json.RawMessage) { fmt.Println("progress:", msg) })
	out, err := incidentLookup{}.Call(context.Background(), c, json.RawMessage(`{"id":"INC-42"}`))
	fmt.Println(out.ModelText(), err)
	_, err = incidentLookup{}.Call(context.Background(), c, json.RawMessage(`{"id":"INC-7"}`))
	fmt.Println(err)
	// Output:
	// tool "example.incident_lookup" is registered twice: first by tool_test.incidentLookup, then by tool_test.incidentLookup
	// namespace "example" of MCP provider "example" (program x) is already the namespace of native tool "example.incident_lookup"; a namespace is either native or MCP
	// example__incident_lookup
	// progress: looking up INC-42
	// {"id":"INC-42","status":"resolved"} <nil>
	// not_found: no incident "INC-7"
}
