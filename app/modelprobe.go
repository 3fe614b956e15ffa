package app

import (
	"net"
	"net/url"
	"time"
)

// startModelAdvice says what to do when the model server at baseURL does
// not answer: Ollama's command only for Ollama's port (11434), since any
// other server has its own way to start.
func startModelAdvice(baseURL string) string {
	if u, err := url.Parse(baseURL); err == nil && u.Port() == "11434" {
		return "Start it (Ollama: ollama serve), or choose another provider and model in Settings"
	}
	return "Start the server at that address, or choose another provider and model in Settings"
}

// modelProbeTimeout bounds the check that something listens at a local
// model server's address. Loopback answers at once: a listener accepts,
// anything else refuses.
const modelProbeTimeout = 500 * time.Millisecond

// modelUnreachable returns a warning when the model's base URL is on this
// machine (loopback) and nothing listens there, the first-run case of the
// default local Ollama; "" when something listens, or for a remote URL,
// which is not probed (no traffic leaves the machine before a turn). It
// dials: call it holding no lock.
func modelUnreachable(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return ""
	}
	host, port := u.Hostname(), u.Port()
	if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return ""
	}
	if port == "" {
		port = map[string]string{"https": "443"}[u.Scheme]
		if port == "" {
			port = "80"
		}
	}
	c, err := net.DialTimeout("tcp", net.JoinHostPort(host, port), modelProbeTimeout)
	if err != nil {
		return "No model server answers at " + baseURL + " yet. " + startModelAdvice(baseURL) + "."
	}
	c.Close()
	return ""
}
