package sandbox

import (
	"strconv"
	"strings"
)

// FullAccess is what check, the coworker card and the consent prompt say
// of a provider that runs unsandboxed, and of native tools
// (docs/sandbox.md#in-words).
const FullAccess = "runs with your full access"

// varWords names each variable for people.
var varWords = map[string]string{
	"system":       "system files",
	"provider_dir": "its own folder",
	"program_dir":  "its program's folder",
	"workspace":    "the workspace",
	"temp":         "its temp folder",
	"home":         "your home folder",
}

// Words describes the placement in one line for people, as check, the
// coworker card, the consent prompt and the journal show it
// (docs/sandbox.md#in-words), for example "sandboxed: reads system files,
// its own folder and its program's folder; writes only in the workspace
// and its temp folder; no network". Paths are shown as written, with
// ${home} as "~".
func (p *Placement) Words() string {
	if p == nil {
		return FullAccess
	}
	var parts []string
	if len(p.Read) > 0 {
		parts = append(parts, "reads "+list(p.Read))
	}
	if len(p.Write) > 0 {
		parts = append(parts, "writes only in "+list(p.Write))
	} else {
		parts = append(parts, "writes nowhere")
	}
	parts = append(parts, p.Network.words())
	return "sandboxed: " + strings.Join(parts, "; ")
}

func (n Network) words() string {
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

// list joins templates in words: "the workspace and its temp folder".
func list(templates []string) string {
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
			if w, ok := varWords[v]; ok {
				return w
			}
		}
	}
	if rest, ok := strings.CutPrefix(t, "${home}"); ok {
		return "~" + rest
	}
	return t
}
