package tool_test

import (
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestPlacement: where a call goes, from the provider's description alone
// (no traffic is sent anywhere).
func TestPlacement(t *testing.T) {
	for _, tc := range []struct {
		srv  tool.MCPServer
		want string
	}{
		{tool.MCPServer{Namespace: "a", Program: "acer-mcp"}, tool.PlacementLocal},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStdio, Program: "acer-mcp"}, tool.PlacementLocal},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "http://127.0.0.1:8931/mcp"}, tool.PlacementLocal},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "http://127.8.9.10/mcp"}, tool.PlacementLocal},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "http://[::1]:9/mcp"}, tool.PlacementLocal},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportSSE, URL: "http://LocalHost:3000/sse"}, tool.PlacementLocal},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "https://mcp.example.com/mcp"}, "mcp.example.com"},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "https://user:secret@MCP.Example.COM:8443/v1/mcp?k=v"}, "mcp.example.com"},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportSSE, URL: "https://sse.example.org/sse"}, "sse.example.org"},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "https://[2001:db8::1]/mcp"}, "2001:db8::1"},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "https://10.1.2.3/mcp"}, "10.1.2.3"},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "https://localhost.example.com/mcp"}, "localhost.example.com"},
		{tool.MCPServer{Namespace: "a", Transport: tool.TransportStreamableHTTP, URL: "://nope"}, "a remote host"},
	} {
		if got := tc.srv.Placement(); got != tc.want {
			t.Errorf("Placement(%s %q) = %q; want %q", tc.srv.Transport, tc.srv.URL, got, tc.want)
		}
	}
}
