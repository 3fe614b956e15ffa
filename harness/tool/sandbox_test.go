package tool_test

import (
	"encoding/json"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

// TestSandboxForms: the canonical JSON the execution identity covers
// (docs/identity.md), the JSON of an MCPServer and the words people
// read (docs/sandbox.md#in-words), each as it was when the placement
// was a harness/sandbox type, so that moving or changing the type never
// changes a session's identity or what the journal records.
func TestSandboxForms(t *testing.T) {
	def := tool.DefaultSandbox()
	ports := &tool.Sandbox{Read: []string{"${home}/.npm", "/opt/x"}, Network: tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "localhost", Port: 8080}, {Host: "*", Port: 443}, {Host: "*", Port: 443}}}}
	var none *tool.Sandbox
	for _, tc := range []struct{ what, got, want string }{
		{"default canonical", def.Canonical(), `{"preset":"default","read":["${system}","${provider_dir}","${program_dir}"],"write":["${workspace}","${temp}"],"network":{"mode":"none"}}`},
		{"ports canonical", ports.Canonical(), `{"read":["${home}/.npm","/opt/x"],"write":null,"network":{"mode":"ports","ports":[{"host":"*","port":443},{"host":"localhost","port":8080}]}}`},
		{"nil canonical", none.Canonical(), ""},
		{"default words", def.Words(), "sandboxed: reads system files, its own folder and its program's folder; writes only in the workspace and its temp folder; no network"},
		{"ports words", ports.Words(), "sandboxed: reads ~/.npm and /opt/x; writes nowhere; network only to TCP ports 443 and 443 on any host and port 8080 on this computer"},
		{"nil words", none.Words(), tool.FullAccess},
		{"placement", tool.MCPServer{Sandbox: ports}.Placement(), tool.PlacementLocal + " (" + ports.Words() + ")"},
		{"access", tool.MCPServer{Sandbox: def}.Access(), def.Words()},
		{"unsandboxed access", tool.MCPServer{Program: "x"}.Access(), "runs with your full access"},
		{"remote access", tool.MCPServer{Transport: tool.TransportSSE, URL: "https://a.example/sse"}.Access(), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %s\nwant %s", tc.what, tc.got, tc.want)
		}
	}
	if len(ports.Network.Ports) != 3 {
		t.Errorf("Canonical changed the sandbox it was called on: %+v", ports.Network.Ports)
	}
	b, err := json.Marshal(tool.MCPServer{Namespace: "x", Sandbox: def})
	if want := `{"Namespace":"x","Transport":"","Program":"","Args":null,"Env":null,"Dir":"","URL":"","Headers":null,"Source":"","Name":"","Timeout":0,"Secrets":null,"Vars":null,"Sandbox":{"preset":"default","read":["${system}","${provider_dir}","${program_dir}"],"write":["${workspace}","${temp}"],"network":{"mode":"none"}}}`; err != nil || string(b) != want {
		t.Errorf("MCPServer JSON = %s, %v\nwant %s", b, err, want)
	}
	var back tool.Sandbox
	if err := json.Unmarshal([]byte(def.Canonical()), &back); err != nil || back.Canonical() != def.Canonical() {
		t.Errorf("canonical JSON read back = %+v, %v", back, err)
	}
}

// TestSandboxNormalize: the port list is sorted by port then host and
// de-duplicated; an unset mode is NetNone.
func TestSandboxNormalize(t *testing.T) {
	p := &tool.Sandbox{Network: tool.SandboxNetwork{Ports: []tool.SandboxEndpoint{{Host: "localhost", Port: 80}, {Host: "*", Port: 80}, {Host: "*", Port: 22}, {Host: "*", Port: 80}}}}
	p.Normalize()
	want := []tool.SandboxEndpoint{{Host: "*", Port: 22}, {Host: "*", Port: 80}, {Host: "localhost", Port: 80}}
	if p.Network.Mode != tool.NetNone || len(p.Network.Ports) != len(want) {
		t.Fatalf("normalized = %+v", p.Network)
	}
	for i, e := range want {
		if p.Network.Ports[i] != e {
			t.Errorf("port %d = %s; want %s", i, p.Network.Ports[i], e)
		}
	}
}
