package sandbox

import (
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// This file holds the rules of the Windows sandbox that are plain data,
// without a build tag so that they are tested on every system;
// prepare_windows.go and token_windows.go enforce them
// (docs/sandbox.md#windows).

// lowIntegrityCheck reports what of r a low-integrity restricted token
// cannot enforce, all of it in one error, nil when it can enforce r:
// it confines writes, so the network must be "any" and the read list
// must include the root of a drive (drive is the system drive, "C:",
// for the message), which is how a placement says honestly that the
// program reads every file the person can.
func lowIntegrityCheck(r *Rules, drive string) error {
	var refused []string
	if r.Network.Mode != tool.NetAny {
		mode := r.Network.Mode
		if mode == "" {
			mode = tool.NetNone
		}
		refused = append(refused, fmt.Sprintf(`"network": %q (it reaches any address and port)`, mode))
		if mode == tool.NetPorts {
			refused[len(refused)-1] = `a port list (it reaches any address and port)`
		}
	}
	if !hasDriveRoot(r.Read) {
		refused = append(refused, "a read list (it reads every file you can)")
	}
	if len(refused) == 0 {
		return nil
	}
	return fmt.Errorf(`%s cannot be enforced on Windows: the Windows sandbox is a low-integrity token, which confines only where the program writes; `+
		`to run it with its writes confined, write "read": ["%s\\"] and "network": "any" with its "write" list, or run it without "sandbox"`,
		strings.Join(refused, " and "), drive)
}

// hasDriveRoot reports whether paths include the root of a drive, such
// as C:\ (Windows syntax on every system).
func hasDriveRoot(paths []string) bool {
	for _, p := range paths {
		if len(p) == 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
			('A' <= p[0] && p[0] <= 'Z' || 'a' <= p[0] && p[0] <= 'z') {
			return true
		}
	}
	return false
}
