package servers

import (
	"fmt"

	"github.com/openworker/desktop/harness/internal/jsonfile"
	"github.com/openworker/desktop/harness/sandbox"
	"github.com/openworker/desktop/harness/tool"
)

// sandboxExample is how a fix shows a placement.
const sandboxExample = `"sandbox": "default", or "sandbox": {"read": ["${system}", "${provider_dir}"], "write": ["${workspace}", "${temp}"], "network": "none"}`

// sandboxEntry reads a servers.json entry's "sandbox" (docs/sandbox.md#format):
// "default", or an object with "read" and "write" (arrays of path
// templates) and "network" ("none", "loopback", "any" or an array of
// "HOST:PORT"); only for a stdio server. Each problem is an error at its
// file:line:col with the fix.
func (rd *reader) sandboxEntry(f *jsonfile.Field, transport, name string) (*tool.Sandbox, error) {
	if transport != tool.TransportStdio {
		return nil, f.Err(rd.path, fmt.Sprintf("server %q has \"sandbox\", but only a server OpenWorker starts (stdio) can be sandboxed; its transport is %s and it runs elsewhere", name, transport), `remove "sandbox"`)
	}
	v := f.Value
	switch v.Kind {
	case jsonfile.String:
		if v.Str != tool.PresetDefault {
			return nil, v.Err(fmt.Sprintf("\"sandbox\" of server %q is %q; the only named placement is \"default\"", name, v.Str), "write "+sandboxExample)
		}
		return tool.DefaultSandbox(), nil
	case jsonfile.Object:
	default:
		return nil, v.Err(fmt.Sprintf("\"sandbox\" of server %q must be \"default\" or an object, not %s", name, v.Kind), "write "+sandboxExample)
	}
	p := &tool.Sandbox{Network: tool.SandboxNetwork{Mode: tool.NetNone}}
	for _, kf := range v.Fields {
		switch kf.Key {
		case "read", "write":
			paths, err := sandboxPaths(kf, name)
			if err != nil {
				return nil, err
			}
			if kf.Key == "read" {
				p.Read = paths
			} else {
				p.Write = paths
			}
		case "network":
			n, err := sandboxNetwork(kf.Value, name)
			if err != nil {
				return nil, err
			}
			p.Network = n
		default:
			return nil, kf.Err(rd.path, fmt.Sprintf("unknown key %q in \"sandbox\" of server %q", kf.Key, name), `"sandbox" holds only "read", "write" and "network"`)
		}
	}
	p.Normalize()
	return p, nil
}

func sandboxPaths(kf *jsonfile.Field, name string) ([]string, error) {
	v := kf.Value
	if v.Kind != jsonfile.Array {
		return nil, v.Err(fmt.Sprintf("\"sandbox.%s\" of server %q must be an array of paths, not %s", kf.Key, name, v.Kind), fmt.Sprintf(`write it like "%s": ["${workspace}", "/opt/data"]`, kf.Key))
	}
	var out []string
	for _, it := range v.Items {
		if it.Kind != jsonfile.String {
			return nil, it.Err(fmt.Sprintf("an entry of \"sandbox.%s\" of server %q must be a string, not %s", kf.Key, name, it.Kind), "write one path per string")
		}
		if err := sandbox.CheckTemplate(it.Str); err != nil {
			return nil, it.Err(fmt.Sprintf("\"sandbox.%s\" of server %q: %v", kf.Key, name, err), "")
		}
		out = append(out, it.Str)
	}
	return out, nil
}

func sandboxNetwork(v *jsonfile.Node, name string) (tool.SandboxNetwork, error) {
	fix := `write "none", "loopback", "any" or a list like ["*:443", "localhost:8080"]`
	switch v.Kind {
	case jsonfile.String:
		switch v.Str {
		case tool.NetNone, tool.NetLoopback, tool.NetAny:
			return tool.SandboxNetwork{Mode: v.Str}, nil
		}
		return tool.SandboxNetwork{}, v.Err(fmt.Sprintf("\"sandbox.network\" of server %q is %q", name, v.Str), fix)
	case jsonfile.Array:
		n := tool.SandboxNetwork{Mode: tool.NetPorts}
		for _, it := range v.Items {
			if it.Kind != jsonfile.String {
				return tool.SandboxNetwork{}, it.Err(fmt.Sprintf("an entry of \"sandbox.network\" of server %q must be a string \"HOST:PORT\", not %s", name, it.Kind), fix)
			}
			e, err := sandbox.ParseEndpoint(it.Str)
			if err != nil {
				return tool.SandboxNetwork{}, it.Err(fmt.Sprintf("\"sandbox.network\" of server %q: %v", name, err), "")
			}
			n.Ports = append(n.Ports, e)
		}
		if len(n.Ports) == 0 {
			return tool.SandboxNetwork{}, v.Err(fmt.Sprintf("\"sandbox.network\" of server %q is an empty list", name), `write "none" for no network`)
		}
		return n, nil
	}
	return tool.SandboxNetwork{}, v.Err(fmt.Sprintf("\"sandbox.network\" of server %q must be a string or a list, not %s", name, v.Kind), fix)
}

// sandboxProduct is "sandbox" as the product's servers.json writes it.
func sandboxProduct(p *tool.Sandbox) any {
	if p.Preset == tool.PresetDefault {
		return tool.PresetDefault
	}
	strs := func(s []string) []any {
		out := make([]any, len(s))
		for i, v := range s {
			out[i] = v
		}
		return out
	}
	obj := ordered{{"read", strs(p.Read)}, {"write", strs(p.Write)}}
	if p.Network.Mode == tool.NetPorts {
		ports := make([]string, len(p.Network.Ports))
		for i, e := range p.Network.Ports {
			ports[i] = e.String()
		}
		return append(obj, field{"network", strs(ports)})
	}
	return append(obj, field{"network", p.Network.Mode})
}
