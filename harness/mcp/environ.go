package mcp

import (
	"os"
	"runtime"
	"strings"
)

// inheritedEnv lists the variables of OpenWorker's own environment that a
// stdio provider inherits (docs/mcp.md#environment); everything else a
// server needs is named in its entry's "env" (${VAR} passes one on). So
// the model API keys (OPENAI_API_KEY, ANTHROPIC_API_KEY) and whatever else
// the person's shell holds never reach a server, which could hand them to
// the model. The list is what the MCP SDKs pass by default (HOME, PATH,
// USER, …), plus what programs need to find their locale, temporary
// folder, display, session bus, certificates and proxy.
var inheritedEnv = map[string][]string{
	"unix": {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER",
		"LANG", "LANGUAGE", "TZ", "TMPDIR",
		"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
		"DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
		"SSL_CERT_FILE", "SSL_CERT_DIR", "NODE_EXTRA_CA_CERTS",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "http_proxy", "https_proxy", "no_proxy"},
	"windows": {"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH", "PATHEXT",
		"PROCESSOR_ARCHITECTURE", "NUMBER_OF_PROCESSORS", "OS", "SYSTEMDRIVE", "SYSTEMROOT", "WINDIR",
		"COMSPEC", "TEMP", "TMP", "USERNAME", "USERDOMAIN", "USERPROFILE", "PUBLIC", "ALLUSERSPROFILE",
		"PROGRAMDATA", "PROGRAMFILES", "PROGRAMFILES(X86)", "PROGRAMW6432", "COMMONPROGRAMFILES",
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "SSL_CERT_FILE", "NODE_EXTRA_CA_CERTS"},
}

// providerEnviron is the part of environ (KEY=VALUE lines) a stdio
// provider inherits on goos: the variables of inheritedEnv, and every
// LC_* locale variable. Windows compares names without case.
func providerEnviron(environ []string, goos string) []string {
	list := inheritedEnv["unix"]
	if goos == "windows" {
		list = inheritedEnv["windows"]
	}
	keep := make(map[string]bool, len(list))
	for _, k := range list {
		if goos == "windows" {
			k = strings.ToUpper(k)
		}
		keep[k] = true
	}
	var out []string
	for _, kv := range environ {
		k, _, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			continue
		}
		name := k
		if goos == "windows" {
			name = strings.ToUpper(k)
		}
		if keep[name] || strings.HasPrefix(name, "LC_") {
			out = append(out, kv)
		}
	}
	return out
}

// processEnviron is providerEnviron of this process.
func processEnviron() []string { return providerEnviron(os.Environ(), runtime.GOOS) }
