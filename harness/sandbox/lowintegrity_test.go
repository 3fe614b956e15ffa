package sandbox

import (
	"strings"
	"testing"

	"github.com/openworker/desktop/harness/tool"
)

func TestLowIntegrityCheck(t *testing.T) {
	all := []string{`C:\`}
	for name, c := range map[string]struct {
		r    Rules
		want []string // in the error; none: accepted
	}{
		"writes confined, reads everything, any network": {r: Rules{Read: all, Write: []string{`C:\Users\ada\work`}, Network: tool.SandboxNetwork{Mode: tool.NetAny}}},
		"another drive's root, slash":                    {r: Rules{Read: []string{`d:/`}, Network: tool.SandboxNetwork{Mode: tool.NetAny}}},
		"the default preset": {r: Rules{Read: []string{`C:\Windows`, `C:\Program Files`}, Write: []string{`C:\Users\ada\work`}},
			want: []string{`"network": "none"`, "a read list", `"read": ["C:\\"]`, `"network": "any"`}},
		"loopback":   {r: Rules{Read: all, Network: tool.SandboxNetwork{Mode: tool.NetLoopback}}, want: []string{`"network": "loopback"`}},
		"ports":      {r: Rules{Read: all, Network: tool.SandboxNetwork{Mode: tool.NetPorts, Ports: []tool.SandboxEndpoint{{Host: "*", Port: 443}}}}, want: []string{"a port list"}},
		"a folder":   {r: Rules{Read: []string{`C:\Users`}, Network: tool.SandboxNetwork{Mode: tool.NetAny}}, want: []string{"a read list"}},
		"no drive":   {r: Rules{Read: []string{`C:`}, Network: tool.SandboxNetwork{Mode: tool.NetAny}}, want: []string{"a read list"}},
		"unix root":  {r: Rules{Read: []string{`/`}, Network: tool.SandboxNetwork{Mode: tool.NetAny}}, want: []string{"a read list"}},
		"zero value": {want: []string{`"network": "none"`}},
	} {
		err := lowIntegrityCheck(&c.r, "C:")
		if len(c.want) == 0 {
			if err != nil {
				t.Errorf("%s: refused: %v", name, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		for _, w := range append(c.want, "cannot be enforced on Windows") {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %s", name, err, w)
			}
		}
	}
}
