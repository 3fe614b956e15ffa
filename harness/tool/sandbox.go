package tool

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
)

// Network modes of a Sandbox (docs/sandbox.md#format).
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

// FullAccess is what check, the coworker card and the consent prompt say
// of a provider that runs unsandboxed, and of native tools
// (docs/sandbox.md#in-words).
const FullAccess = "runs with your full access"

// Sandbox is a stdio provider's sandbox as written, its placement
// (docs/sandbox.md#format): the folders it may read and write, as path
// templates with the variables of docs/sandbox.md#variables, and the
// network it may reach. It is plain data: package harness/sandbox checks
// it (CheckTemplate, ParseEndpoint, Supported), expands its variables
// for one start and has the operating system enforce it. The zero
// Network mode is NetNone. Its JSON form is the one installed.json
// holds (docs/sandbox.md#format); Canonical is the form the execution
// identity covers.
type Sandbox struct {
	// Preset is PresetDefault when the sandbox was written as that
	// name; Read, Write and Network then hold the preset's values.
	Preset  string         `json:"preset,omitempty"`
	Read    []string       `json:"read"`
	Write   []string       `json:"write"`
	Network SandboxNetwork `json:"network"`
}

// SandboxNetwork is the network a Sandbox allows.
type SandboxNetwork struct {
	Mode  string            `json:"mode"`            // NetNone, NetLoopback, NetPorts or NetAny
	Ports []SandboxEndpoint `json:"ports,omitempty"` // NetPorts only, sorted
}

// SandboxEndpoint is one "HOST:PORT" of a port list: Host is "*" (any
// host) or "localhost" (this computer); names of other hosts are refused
// by sandbox.ParseEndpoint, since no system sandbox here can check them.
type SandboxEndpoint struct {
	Host string `json:"host"`
	Port uint16 `json:"port"`
}

func (e SandboxEndpoint) String() string { return e.Host + ":" + strconv.Itoa(int(e.Port)) }

// DefaultSandbox returns the default preset: read the system's libraries
// and tools (${system}), the provider's own folder and the program's
// folder; write the workspace and a private temporary folder; no network.
func DefaultSandbox() *Sandbox {
	return &Sandbox{
		Preset:  PresetDefault,
		Read:    []string{"${system}", "${provider_dir}", "${program_dir}"},
		Write:   []string{"${workspace}", "${temp}"},
		Network: SandboxNetwork{Mode: NetNone},
	}
}

// Normalize sorts and de-duplicates the port list and sets an empty
// network mode to NetNone; call it after filling a Sandbox by hand.
func (p *Sandbox) Normalize() {
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

// Canonical is the sandbox as compact JSON with sorted port lists: the
// form the execution identity covers (docs/identity.md), so that any
// change to it needs a new session. "" for nil.
func (p *Sandbox) Canonical() string {
	if p == nil {
		return ""
	}
	q := *p
	q.Network.Ports = append([]SandboxEndpoint(nil), p.Network.Ports...)
	q.Normalize()
	b, _ := json.Marshal(q) // plain strings and numbers: cannot fail
	return string(b)
}

// sandboxVarWords names each variable of a path template for people
// (docs/sandbox.md#variables).
var sandboxVarWords = map[string]string{
	"system":       "system files",
	"provider_dir": "its own folder",
	"program_dir":  "its program's folder",
	"workspace":    "the workspace",
	"temp":         "its temp folder",
	"home":         "your home folder",
}

// Words describes the sandbox in one line for people, as check, the
// coworker card, the consent prompt and the journal show it
// (docs/sandbox.md#in-words), for example "sandboxed: reads system files,
// its own folder and its program's folder; writes only in the workspace
// and its temp folder; no network". Paths are shown as written, with
// ${home} as "~". A nil sandbox is FullAccess.
func (p *Sandbox) Words() string {
	if p == nil {
		return FullAccess
	}
	var parts []string
	if len(p.Read) > 0 {
		parts = append(parts, "reads "+templateList(p.Read))
	}
	if len(p.Write) > 0 {
		parts = append(parts, "writes only in "+templateList(p.Write))
	} else {
		parts = append(parts, "writes nowhere")
	}
	parts = append(parts, p.Network.words())
	return "sandboxed: " + strings.Join(parts, "; ")
}

func (n SandboxNetwork) words() string {
	switch n.Mode {
	case NetAny:
		return "any network"
	case NetLoopback:
		return "network only to this computer"
	case NetPorts:
		var any, local []string
		for _, e := range n.Ports {
			if e.Host == "localhost" {
				local = append(local, strconv.Itoa(int(e.Port)))
			} else {
				any = append(any, strconv.Itoa(int(e.Port)))
			}
		}
		var s []string
		if len(any) > 0 {
			s = append(s, plural("port", any)+" on any host")
		}
		if len(local) > 0 {
			s = append(s, plural("port", local)+" on this computer")
		}
		return "network only to TCP " + strings.Join(s, " and ")
	default:
		return "no network"
	}
}

func plural(noun string, items []string) string {
	if len(items) == 1 {
		return noun + " " + items[0]
	}
	return noun + "s " + strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// templateList joins templates in words: "the workspace and its temp
// folder".
func templateList(templates []string) string {
	w := make([]string, len(templates))
	for i, t := range templates {
		w[i] = templateWords(t)
	}
	if len(w) == 1 {
		return w[0]
	}
	return strings.Join(w[:len(w)-1], ", ") + " and " + w[len(w)-1]
}

func templateWords(t string) string {
	if name, ok := strings.CutPrefix(t, "${"); ok {
		if v, rest, ok := strings.Cut(name, "}"); ok && rest == "" {
			if w, ok := sandboxVarWords[v]; ok {
				return w
			}
		}
	}
	if rest, ok := strings.CutPrefix(t, "${home}"); ok {
		return "~" + rest
	}
	return t
}
