package sandbox

import (
	"strings"
	"testing"
)

func TestLowIntegrityCheck(t *testing.T) {
	all := []string{`C:\`}
	for name, c := range map[string]struct {
		r    Rules
		want []string // in the error; none: accepted
	}{
		"writes confined, reads everything, any network": {r: Rules{Read: all, Write: []string{`C:\Users\ada\work`}, Network: Network{Mode: NetAny}}},
		"another drive's root, slash":                    {r: Rules{Read: []string{`d:/`}, Network: Network{Mode: NetAny}}},
		"the default preset": {r: Rules{Read: []string{`C:\Windows`, `C:\Program Files`}, Write: []string{`C:\Users\ada\work`}},
			want: []string{`"network": "none"`, "a read list", `"read": ["C:\\"]`, `"network": "any"`}},
		"loopback":   {r: Rules{Read: all, Network: Network{Mode: NetLoopback}}, want: []string{`"network": "loopback"`}},
		"ports":      {r: Rules{Read: all, Network: Network{Mode: NetPorts, Ports: []Endpoint{{Host: "*", Port: 443}}}}, want: []string{"a port list"}},
		"a folder":   {r: Rules{Read: []string{`C:\Users`}, Network: Network{Mode: NetAny}}, want: []string{"a read list"}},
		"no drive":   {r: Rules{Read: []string{`C:`}, Network: Network{Mode: NetAny}}, want: []string{"a read list"}},
		"unix root":  {r: Rules{Read: []string{`/`}, Network: Network{Mode: NetAny}}, want: []string{"a read list"}},
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
