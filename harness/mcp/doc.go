// Package mcp connects the harness to MCP providers (docs/mcp.md) through the
// official go-sdk: stdio providers run as child processes, streamable HTTP
// and legacy HTTP+SSE providers are reached at a URL.
//
// A Provider is one connected server, the tools of one namespace. Connect
// starts it, ListTools discovers its catalog at turn preparation,
// RemoteTool.Descriptor turns a catalog entry into the descriptor the user
// approves, and CallTool makes exactly one tools/call, forwarding progress
// and cancellation both ways. A Manager starts providers lazily, one process
// per configuration (Key), shares it between the registry generations that
// list the same configuration, ends those no generation uses (Retain) and
// closes them all at shutdown.
//
//	m := mcp.NewManager(&mcp.Options{InstallDir: dir, Logger: logger})
//	defer m.Close()
//	srv, _ := reg.Server("device")
//	p, err := m.Provider(ctx, srv)
//	if err != nil { ... }                  // names the exit status and stderr tail
//	tools, err := p.ListTools(ctx)
//	out, err := p.CallTool(ctx, "battery_status_get", nil, call.Progress)
//	var te *tool.ToolError
//	if errors.As(err, &te) { ... }         // the tool failed (mcp_error, output_invalid); tell the model
//
// A result becomes a tool.Output with every content block the spec defines
// (text, images, audio, resource links, embedded resources) and its
// structuredContent, checked against the tool's outputSchema as listed
// (docs/mcp.md#results). Package mcptest holds a server that returns each
// kind, for tests.
//
// Every string a server supplies (serverInfo, instructions, tool names,
// descriptions and schemas, results, progress, errors, stderr) has the
// server's secrets (tool.MCPServer.Secrets) redacted before it leaves the
// package; adjacent text blocks are redacted together, so a secret split
// across them is caught (docs/mcp.md#secrets).
//
// Stdio providers: a relative program resolves against the install folder;
// the child gets the parent's environment plus the entry's env, runs in its
// own process group (Unix) or Job object (Windows, without a console
// window), and its stderr is drained continuously into a bounded tail
// buffer (64 KB by default) that errors quote. Lines of stdout that are not
// JSON-RPC are skipped and logged (docs/mcp.md#noise-on-stdout). Close ends
// the whole process tree.
//
// Streamable HTTP providers open a new session, once, when the server
// answers a request with "no such session" before running it
// (docs/mcp.md#stale-sessions).
//
// Configuration files (docs/servers.md) are read by package
// harness/servers, which hands this package plain tool.MCPServer values
// with their transport decided; this package reads no file.
//
// The package never writes to stdout; it logs to Options.Logger.
package mcp
