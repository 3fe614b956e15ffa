package sandbox

import (
	"fmt"
	"os"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"github.com/openworker/desktop/harness/tool"
	"golang.org/x/sys/unix"
)

// Landlock ABI versions a placement needs (docs/sandbox.md#linux).
const (
	abiFiles  = 3 // files, with truncation confined (Linux 6.2)
	abiTCP    = 4 // TCP bind and connect by port (Linux 6.7)
	abiScoped = 6 // signals and abstract Unix sockets scoped (Linux 6.12)
)

// configs are go-landlock's configurations by ABI version: each handles
// every right its ABI knows, so nothing the kernel can confine is left
// unconfined.
var configs = []landlock.Config{{}, landlock.V1, landlock.V2, landlock.V3, landlock.V4, landlock.V5,
	landlock.V6, landlock.V7, landlock.V8, landlock.V9, landlock.V10, landlock.V11}

// devices may be written by any sandboxed program: writing to them
// reaches no file.
var devices = map[string]bool{"/dev/null": true, "/dev/zero": true, "/dev/full": true}

// abi is the Landlock ABI the launcher uses: the kernel's, lowered to
// r.MaxABI when that is set, and at most the newest go-landlock knows
// (abiFor).
func abi(r *Rules) int {
	v, _ := abis(r)
	return v
}

// abis is abi(r) and the ABI without r.MaxABI.
func abis(r *Rules) (v, kernel int) {
	raw, err := ll.LandlockGetABIVersion()
	if err != nil {
		raw = 0
	}
	errata := 0
	if raw >= 6 {
		if errata, err = ll.LandlockGetErrata(); err != nil {
			errata = 0
		}
	}
	return abiFor(raw, errata, r.MaxABI), abiFor(raw, errata, 0)
}

// abiFor is the ABI to use on a kernel of ABI kernel whose fixed errata
// are errata, lowered to max when above 0; below 0 it is 0 (no Landlock). A kernel of ABI 6 or later
// whose signal scoping is broken (erratum 2 not fixed) counts as ABI 5,
// as go-landlock counts it: a configuration of ABI 6 would be refused
// after the start, not before it.
func abiFor(kernel, errata, max int) int {
	v := kernel
	if v >= 6 && errata&0x2 == 0 {
		v = 5
	}
	if max < 0 { // OPENWORKER_SANDBOX_MAX_ABI=0
		v = 0
	}
	if max > 0 && max < v {
		v = max
	}
	return min(v, len(configs)-1)
}

// Check reports why this kernel cannot enforce r, naming the missing
// feature; nil when it can. The launcher checks again before it
// confines (a different kernel never runs the program unconfined).
func Check(r *Rules) error {
	switch r.Network.Mode {
	case tool.NetLoopback:
		return fmt.Errorf(`"network": "loopback" cannot be enforced on Linux: Landlock confines TCP by port, not by address; write "none", or list ports such as ["*:11434"]`)
	case tool.NetPorts:
		for _, e := range r.Network.Ports {
			if e.Host != "*" {
				return fmt.Errorf(`network entry %q cannot be enforced on Linux: Landlock confines TCP by port, not by address; write "*:%d" to allow port %d on any host`, e.String(), e.Port, e.Port)
			}
		}
	}
	if why := userNamespaces(); why != "" {
		return fmt.Errorf("this system lets no program make a user namespace (%s), which the sandbox needs to hide the Unix sockets outside its folders", why)
	}
	v, full := abis(r)
	kernel := "this kernel's Landlock is"
	if v < full {
		kernel = "OPENWORKER_SANDBOX_MAX_ABI lowers Landlock to" // docs/sandbox.md#testing
	}
	network := map[string]string{tool.NetNone: `"network": "none"`, tool.NetPorts: "a port list"}[r.Network.Mode]
	switch {
	case v == 0 && kernel != "this kernel's Landlock is":
		return fmt.Errorf("%s ABI 0 (no Landlock), so the sandbox cannot be enforced", kernel)
	case v == 0:
		return fmt.Errorf("this kernel has no Landlock (it needs Linux 6.2 or later with Landlock enabled, e.g. lsm=landlock on the kernel command line), so the sandbox cannot be enforced")
	case v < abiFiles:
		return fmt.Errorf("%s ABI %d; confining files needs ABI %d (Linux 6.2 or later)", kernel, v, abiFiles)
	case r.Network.Mode != tool.NetAny && v < abiTCP:
		return fmt.Errorf("%s ABI %d; confining the network (%s) needs ABI %d for TCP rules (Linux 6.7 or later)", kernel, v, network, abiTCP)
	}
	return nil
}

// landlockSelf confines this thread (and what it executes) to r.
func landlockSelf(r *Rules) error {
	cfg := configs[abi(r)]
	if r.Network.Mode == tool.NetAny {
		cfg.HandledAccessNet = 0
	}
	var rules []landlock.Rule
	for _, p := range r.Read {
		rules = append(rules, pathRule(p, false))
	}
	for _, p := range r.Write {
		rules = append(rules, pathRule(p, true))
	}
	if r.Network.Mode == tool.NetPorts {
		for _, e := range r.Network.Ports {
			rules = append(rules, landlock.ConnectTCP(e.Port))
		}
		if cfg.HandledAccessNet&ll.AccessNetConnectSendUDP != 0 {
			rules = append(rules, landlock.ConnectSendUDP(53)) // names still resolve
		}
	}
	fd, flags, err := cfg.NewRulesetFD(rules...)
	if err != nil {
		return fmt.Errorf("Landlock rules: %w", err)
	}
	defer unix.Close(fd)
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("no-new-privs: %w", err)
	}
	if err := ll.LandlockRestrictSelf(fd, flags); err != nil {
		return fmt.Errorf("landlock_restrict_self: %w", err)
	}
	return nil
}

// pathRule is the rule for one path: folders and files get the rights
// that apply to them; device files in devices are writable.
func pathRule(p string, write bool) landlock.Rule {
	st, err := os.Stat(p)
	dir := err == nil && st.IsDir()
	switch {
	case dir && write:
		return landlock.RWDirs(p).WithRefer()
	case dir:
		return landlock.RODirs(p)
	case write || devices[p]:
		return landlock.RWFiles(p)
	default:
		return landlock.ROFiles(p)
	}
}
