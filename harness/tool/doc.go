// Package tool is the partner SDK of OpenWorker: the contract a native Go tool
// implements and the registry that holds native tools and MCP providers.
//
// Partners import only this package. A tool is a value with a [Descriptor]
// and a Call method:
//
//	type lookup struct{}
//
//	func (lookup) Descriptor() tool.Descriptor {
//		return tool.Descriptor{
//			Name:        "example.lookup",
//			Description: "Look up an incident by id.",
//			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`),
//			Version:     "1.0.0",
//			Risk:        tool.ReadOnly,
//		}
//	}
//
//	func (lookup) Call(ctx context.Context, c *tool.Call, args json.RawMessage) (tool.Output, error) {
//		return tool.Output{Text: "incident 42 is resolved"}, nil
//	}
//
// The host registers it, then hands the registry to the shared CLI
// (harness/cli.MainWithRegistry) or to harness.Open, which freezes it:
//
//	reg := tool.NewRegistry()
//	if err := reg.Register(lookup{}); err != nil { ... }
//
// Naming rules (docs/registry.md) are enforced by Register and RegisterMCP (and
// RegisterMCPEntry, which harness/servers.RegisterServersFile calls for each
// servers.json entry: a failure there disables only that provider), and
// again when the runtime opens the registry; every error names both
// conflicting sides. See docs/partner-tools.md.
//
// The package holds no sandbox code: a stdio provider's sandbox
// (MCPServer.Sandbox) is plain data, a [Sandbox], that package
// harness/sandbox checks and has the operating system enforce
// (docs/sandbox.md).
package tool
