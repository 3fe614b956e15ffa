package sandbox

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/openworker/desktop/harness/tool"
)

// This file builds the macOS sandbox profile (SBPL, the Scheme-like
// language of sandbox-exec) from Rules. It has no build tag so that the
// profile is golden-tested on every system (testdata/*.sb); only
// prepare_darwin.go runs it (docs/sandbox.md#macos).
//
// The profile is self-contained: it does not (import "system.sb"). That
// Apple file is undocumented, changes between macOS releases and allows
// far more than a stdio program needs (many system services, reads of
// system and user caches); here every allowance is in the profile the
// golden files show. The base follows what Chromium's and Codex CLI's
// Seatbelt profiles found a runtime (Go, Node.js, Python) needs to start:
// exec and fork, signals and process information within the same
// sandbox, the machine's sysctls (not other processes' arguments), the
// user database (opendirectoryd), logging and notifications, POSIX
// semaphores (Python's multiprocessing), the harmless device files, and
// the metadata of the folders above each listed path (realpath walks
// them). Everything else is denied.

// sbplBase is the part of every profile that does not depend on the
// rules.
const sbplBase = `(version 1)
(deny default)

; processes: fork, signal and inspect only processes of this sandbox;
; programs may be executed from the read and write paths below
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow mach-host*) ; the processor counts and load libuv (Node.js) asks

; what a runtime asks about the machine at start (not kern.procargs:
; other processes' arguments stay hidden)
(allow sysctl-read
  (sysctl-name-prefix "hw.")
  (sysctl-name-prefix "machdep.cpu.")
  (sysctl-name-prefix "kern.proc.pid.")
  (sysctl-name "kern.argmax")
  (sysctl-name "kern.hostname")
  (sysctl-name "kern.maxfilesperproc")
  (sysctl-name "kern.osproductversion")
  (sysctl-name "kern.osrelease")
  (sysctl-name "kern.ostype")
  (sysctl-name "kern.osvariant_status")
  (sysctl-name "kern.osversion")
  (sysctl-name "kern.secure_kernel")
  (sysctl-name "kern.usrstack64")
  (sysctl-name "kern.version")
  (sysctl-name "sysctl.proc_cputype")
  (sysctl-name "vm.loadavg"))

; user and group names (getpwuid), logging, notifications (time zone)
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.opendirectoryd.membership")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.logd")
  (global-name "com.apple.diagnosticd")
  (global-name "com.apple.system.notification_center"))
(allow ipc-posix-shm-read* (ipc-posix-name "apple.shm.notification_center"))
(allow ipc-posix-sem)

; device files every program may use; stdin, stdout and stderr
(allow file-read* file-write-data file-ioctl
  (literal "/dev/null")
  (literal "/dev/zero"))
(allow file-read*
  (literal "/dev/random")
  (literal "/dev/urandom"))
(allow file-read-data file-write-data (subpath "/dev/fd"))
(allow file-read* (subpath "/private/var/select")) ; /bin/sh picks its shell here
(allow file-read-metadata
  (literal "/dev")
  (literal "/dev/stdin")
  (literal "/dev/stdout")
  (literal "/dev/stderr"))
`

// sbplLookup is what a program needs to look up host names and check
// TLS certificates, for the "ports" and "any" network modes: the
// mDNSResponder socket getaddrinfo uses, DNS over UDP (Go's resolver),
// the network configuration and the trust services (Security.framework).
const sbplLookup = `
; host names (getaddrinfo through mDNSResponder, or DNS over UDP) and
; TLS certificate checks (trustd)
(allow network-outbound
  (literal "/private/var/run/mDNSResponder")
  (remote udp "*:53"))
(allow mach-lookup
  (global-name "com.apple.SystemConfiguration.DNSConfiguration")
  (global-name "com.apple.SystemConfiguration.configd")
  (global-name "com.apple.networkd")
  (global-name "com.apple.trustd")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.SecurityServer")
  (global-name "com.apple.ocspd"))
(allow sysctl-read (sysctl-name-prefix "net.routetable."))
`

// pathInfo says what a path is for the profile: its canonical form (all
// links resolved: /tmp is /private/tmp on macOS, and the sandbox checks
// the resolved path) and whether it is a folder.
type pathInfo func(p string) (canonical string, dir bool)

// hostPaths is the pathInfo of this computer's filesystem (macOS: SBPL
// paths are slash-separated; elsewhere only the tests call it). A path
// whose links cannot be resolved is used as written.
func hostPaths(p string) (string, bool) {
	if c, err := filepath.EvalSymlinks(p); err == nil {
		p = c
	}
	st, err := os.Stat(p)
	return p, err == nil && st.IsDir()
}

// Profile is the SBPL profile that confines a program to r on macOS
// (docs/sandbox.md#macos): deny by default; read (and execute, and map
// as code) r.Read; read, write and execute r.Write; the network of
// r.Network. Folders are allowed with all they contain (subpath), files
// alone (literal); paths are resolved through links first, since the
// sandbox checks resolved paths (/tmp, /var and /etc are in /private).
// Errors: a path that is not absolute or holds a control character, an
// unknown network mode, a port entry whose host is neither "*" nor
// "localhost".
func Profile(r *Rules) (string, error) { return profile(r, hostPaths) }

func profile(r *Rules, info pathInfo) (string, error) {
	var b strings.Builder
	b.WriteString(sbplBase)
	read, err := sbplPaths(r.Read, info)
	if err != nil {
		return "", err
	}
	write, err := sbplPaths(r.Write, info)
	if err != nil {
		return "", err
	}
	b.WriteString("\n; the folders above the listed paths: their metadata only\n")
	b.WriteString("(allow file-read-metadata\n  (literal \"/\")")
	for _, a := range ancestors(append(append([]string(nil), read...), write...)) {
		fmt.Fprintf(&b, "\n  (literal %s)", sbplString(a))
	}
	b.WriteString(")\n")
	if len(read) > 0 {
		b.WriteString("\n; read: read, execute, map as code\n(allow file-read* file-map-executable process-exec")
		writeFilters(&b, read, info)
	}
	if len(write) > 0 {
		b.WriteString("\n; write: read, write, execute, map as code\n(allow file-read* file-write* file-map-executable process-exec")
		writeFilters(&b, write, info)
	}
	net, err := sbplNetwork(r.Network)
	if err != nil {
		return "", err
	}
	b.WriteString(net)
	return b.String(), nil
}

// sbplPaths checks and canonicalizes paths: each one and, when it differs,
// its resolved form, without duplicates, in the order given.
func sbplPaths(paths []string, info pathInfo) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	for _, p := range paths {
		if !strings.HasPrefix(p, "/") {
			return nil, fmt.Errorf("sandbox path %q is not absolute", p)
		}
		c, _ := info(p)
		if control := func(r rune) bool { return r < 0x20 || r == 0x7f }; strings.ContainsFunc(p+c, control) {
			return nil, fmt.Errorf("sandbox path %q (%q) holds a control character, which a macOS sandbox profile cannot name: rename the folder", p, c)
		}
		for _, q := range []string{path.Clean(p), path.Clean(c)} {
			if !seen[q] {
				seen[q] = true
				out = append(out, q)
			}
		}
	}
	return out, nil
}

// writeFilters ends an allow form with one filter per path.
func writeFilters(b *strings.Builder, paths []string, info pathInfo) {
	for _, p := range paths {
		kind := "literal"
		if _, dir := info(p); dir {
			kind = "subpath"
		}
		fmt.Fprintf(b, "\n  (%s %s)", kind, sbplString(p))
	}
	b.WriteString(")\n")
}

// ancestors are the folders above paths (not "/"), sorted.
func ancestors(paths []string) []string {
	set := map[string]bool{}
	for _, p := range paths {
		for d := path.Dir(p); d != "/" && d != "."; d = path.Dir(d) {
			set[d] = true
		}
	}
	out := make([]string, 0, len(set))
	for d := range set {
		out = append(out, d)
	}
	sort.Strings(out)
	return out
}

// sbplNetwork is the network part of a profile (docs/sandbox.md#format).
func sbplNetwork(n tool.SandboxNetwork) (string, error) {
	switch n.Mode {
	case tool.NetNone, "":
		return "\n; network: none\n", nil
	case tool.NetLoopback:
		// Names, "localhost" too, resolve through mDNSResponder's socket.
		return "\n; network: TCP and UDP to this computer only; names resolve\n(allow network-outbound\n  (remote ip \"localhost:*\")\n  (literal \"/private/var/run/mDNSResponder\"))\n", nil
	case tool.NetAny:
		return "\n; network: any\n(allow network* system-socket)\n" + sbplLookup, nil
	case tool.NetPorts:
		var b strings.Builder
		b.WriteString("\n; network: TCP to the listed ports only\n(allow network-outbound")
		for _, e := range n.Ports {
			if e.Host != "*" && e.Host != "localhost" {
				return "", fmt.Errorf("network entry %q: a macOS sandbox allows a port on any host (\"*:%d\") or on this computer (\"localhost:%d\")", e.String(), e.Port, e.Port)
			}
			if e.Port == 0 {
				return "", fmt.Errorf("network entry %q has no port", e.String())
			}
			fmt.Fprintf(&b, "\n  (remote tcp %s)", sbplString(e.Host+":"+strconv.Itoa(int(e.Port))))
		}
		if len(n.Ports) == 0 {
			b.Reset()
			b.WriteString("\n; network: TCP to the listed ports only (none listed)\n")
		} else {
			b.WriteString(")\n")
		}
		b.WriteString(sbplLookup)
		return b.String(), nil
	}
	return "", fmt.Errorf("unknown network mode %q: write \"none\", \"loopback\", \"any\" or a list of ports", n.Mode)
}

// sbplString quotes s as an SBPL string literal: backslashes and double
// quotes are escaped; control characters are refused before (sbplPaths).
func sbplString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
