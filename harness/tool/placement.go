package tool

import (
	"net"
	"net/url"
	"strings"
)

// PlacementLocal is the placement of a call that runs on this computer: a
// native tool, a stdio MCP provider, or an HTTP provider on a loopback
// address (docs/consent.md#placement).
const PlacementLocal = "on this computer"

// Placement says where a call to the provider goes, as the consent prompt
// and the journal show it (docs/consent.md#placement): PlacementLocal for
// a stdio provider and for an HTTP or SSE provider whose URL's host is
// loopback (127.0.0.0/8, ::1 or "localhost" in any case); otherwise the
// URL's host name in lower case, without port or user info (for example
// "mcp.example.com"). A URL that does not parse gives "a remote host".
//
// A sandboxed stdio provider's placement adds the sandbox in words:
// "on this computer (sandboxed: …; no network)" (docs/sandbox.md#in-words),
// so that the journal records the placement each call ran under and an
// approval never carries over to another sandbox.
func (s MCPServer) Placement() string {
	if s.Transport == "" || s.Transport == TransportStdio {
		if s.Sandbox != nil {
			return PlacementLocal + " (" + s.Sandbox.Words() + ")"
		}
		return PlacementLocal
	}
	return URLPlacement(s.URL)
}

// Access says what a call of the provider can reach, for check, the
// coworker card and the consent prompt (docs/sandbox.md#in-words): the
// sandbox in words, FullAccess for an unsandboxed stdio
// provider, "" for a provider reached at a URL (it runs elsewhere).
func (s MCPServer) Access() string {
	if s.Transport == "" || s.Transport == TransportStdio {
		return s.Sandbox.Words()
	}
	return ""
}

// IsLocalPlacement reports whether placement is PlacementLocal, with or
// without a sandbox in words after it.
func IsLocalPlacement(placement string) bool {
	return placement == PlacementLocal || strings.HasPrefix(placement, PlacementLocal+" (")
}

// URLPlacement is the placement of a call sent to rawURL: PlacementLocal
// for a loopback host, otherwise the host name in lower case.
func URLPlacement(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil || u.Hostname() == "" {
		return "a remote host"
	}
	host := strings.ToLower(u.Hostname())
	if IsLoopbackHost(host) {
		return PlacementLocal
	}
	return host
}

// IsLoopbackHost reports whether host (a URL's host without port or
// brackets) is "localhost" in any case or a loopback IP address
// (127.0.0.0/8, ::1).
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
