package sandbox

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
)

// Network modes of a Placement (docs/sandbox.md#network).
const (
	// NetNone allows no network at all: only Unix sockets.
	NetNone = "none"
	// NetLoopback allows TCP to this computer only (127.0.0.1, ::1).
	NetLoopback = "loopback"
	// NetPorts allows TCP connections to the listed endpoints only.
	NetPorts = "ports"
	// NetAny leaves the network as it is: only the filesystem is confined.
	NetAny = "any"
)

// PresetDefault is the name of the documented preset ("sandbox":
// "default", docs/sandbox.md#the-default-preset).
const PresetDefault = "default"

// Placement is a provider's sandbox as written (docs/sandbox.md#format):
// folders it may read and write, as templates with the variables of
// Vars, and the network it may reach. The zero Network mode is NetNone.
type Placement struct {
	// Preset is PresetDefault when the placement was written as that
	// name; Read, Write and Network then hold the preset's values.
	Preset  string   `json:"preset,omitempty"`
	Read    []string `json:"read"`
	Write   []string `json:"write"`
	Network Network  `json:"network"`
}

// Network is the network a placement allows.
type Network struct {
	Mode  string     `json:"mode"`            // NetNone, NetLoopback, NetPorts or NetAny
	Ports []Endpoint `json:"ports,omitempty"` // NetPorts only, sorted
}

// Endpoint is one "HOST:PORT" of a port list: Host is "*" (any host) or
// "localhost" (this computer); names of other hosts are refused by
// ParseEndpoint, since no system sandbox here can check them.
type Endpoint struct {
	Host string `json:"host"`
	Port uint16 `json:"port"`
}

func (e Endpoint) String() string { return e.Host + ":" + strconv.Itoa(int(e.Port)) }

// Default returns the default preset: read the system's libraries and
// tools (${system}), the provider's own folder and the program's folder;
// write the workspace and a private temporary folder; no network.
func Default() *Placement {
	return &Placement{
		Preset:  PresetDefault,
		Read:    []string{"${system}", "${provider_dir}", "${program_dir}"},
		Write:   []string{"${workspace}", "${temp}"},
		Network: Network{Mode: NetNone},
	}
}

// ParseEndpoint reads "HOST:PORT" (also "PORT" alone, meaning "*:PORT").
// HOST is "*" or "localhost" (any case; 127.0.0.1 and ::1 count as
// localhost); PORT is 1–65535.
func ParseEndpoint(s string) (Endpoint, error) {
	host, port := "*", s
	if i := strings.LastIndexByte(s, ':'); i >= 0 {
		host, port = s[:i], s[i+1:]
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	n, err := strconv.ParseUint(port, 10, 16)
	if err != nil || n == 0 {
		return Endpoint{}, fmt.Errorf("%q has no port from 1 to 65535 after the last ':'", s)
	}
	switch h := strings.ToLower(host); h {
	case "*", "":
		host = "*"
	case "localhost", "127.0.0.1", "::1":
		host = "localhost"
	default:
		return Endpoint{}, fmt.Errorf("%q names the host %q: a sandbox can allow a port on any host (\"*:%d\") or on this computer (\"localhost:%d\"), not on one named host, since no system sandbox OpenWorker uses can check host names", s, host, n, n)
	}
	return Endpoint{Host: host, Port: uint16(n)}, nil
}

// Normalize sorts and de-duplicates the port list; call it after filling
// a Placement by hand.
func (p *Placement) Normalize() {
	ps := p.Network.Ports
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].Port != ps[j].Port {
			return ps[i].Port < ps[j].Port
		}
		return ps[i].Host < ps[j].Host
	})
	out := ps[:0]
	for i, e := range ps {
		if i == 0 || e != ps[i-1] {
			out = append(out, e)
		}
	}
	p.Network.Ports = out
	if p.Network.Mode == "" {
		p.Network.Mode = NetNone
	}
}

// Canonical is the placement as compact JSON with sorted port lists: the
// form the execution identity covers (docs/identity.md), so that any
// change to it needs a new session.
func (p *Placement) Canonical() string {
	if p == nil {
		return ""
	}
	q := *p
	q.Network.Ports = append([]Endpoint(nil), p.Network.Ports...)
	q.Normalize()
	b, _ := json.Marshal(q) // plain strings and numbers: cannot fail
	return string(b)
}

// Supported reports why this system cannot enforce p at all (its network
// mode, the kernel's sandbox features), before any path is known; nil
// when it can, or when p is nil. A provider start checks again with the
// expanded Rules.
func Supported(p *Placement) error {
	if p == nil {
		return nil
	}
	// The paths are not known yet: only the literal read paths go in (a
	// drive root is what Windows needs to see), never the write paths.
	var read []string
	for _, t := range p.Read {
		if !strings.Contains(t, "${") {
			read = append(read, t)
		}
	}
	return Check(&Rules{Read: read, Network: p.Network, MaxABI: maxABI()})
}

// maxABI is OPENWORKER_SANDBOX_MAX_ABI (docs/sandbox.md#testing) as
// Rules.MaxABI: 0 when unset or not a number, -1 for "0" (no Landlock).
func maxABI() int {
	n, err := strconv.Atoi(os.Getenv("OPENWORKER_SANDBOX_MAX_ABI"))
	if err == nil && n <= 0 {
		return -1
	}
	return n
}
