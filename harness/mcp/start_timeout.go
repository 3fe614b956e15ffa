package mcp

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

// DownloadStartTimeout bounds the start of a stdio provider whose command
// may download the server first (npx, bunx, pnpm dlx, uvx, uv tool run,
// docker or podman run) when neither its entry nor the caller sets a
// bound: a cold `npx -y` of a package takes minutes on a slow network
// (docs/mcp.md#start-bound).
const DownloadStartTimeout = 120 * time.Second

// startTimeout is the bound of srv's start: its own StartTimeout
// (servers.json "startup_timeout"), else the caller's Options.StartTimeout,
// else DownloadStartTimeout for a command that may download first and has
// not started before (Options.StartsFile, start_memory.go), else
// DefaultStartTimeout.
func startTimeout(srv tool.MCPServer, opts *Options) time.Duration {
	switch {
	case srv.StartTimeout > 0:
		return srv.StartTimeout
	case opts != nil && opts.StartTimeout > 0:
		return opts.StartTimeout
	case downloader(srv) != "" && !(opts != nil && startedBefore(opts.StartsFile, srv)):
		return DownloadStartTimeout
	}
	return DefaultStartTimeout
}

// StartTimeoutOf is the bound a start of srv gets with opts (nil: the
// defaults): what the app waits for before it calls a provider that is
// still starting broken (docs/mcp.md#start-bound).
func StartTimeoutOf(srv tool.MCPServer, opts *Options) time.Duration {
	return startTimeout(srv, opts)
}

// downloader names what a stdio command may still be fetching when it is
// slow to answer initialize: "npx may still be downloading the package",
// "docker may still be pulling the image"; "" for any other command.
func downloader(srv tool.MCPServer) string {
	if srv.Transport != "" && srv.Transport != tool.TransportStdio {
		return ""
	}
	prog := strings.ToLower(srv.Program[strings.LastIndexAny(srv.Program, `/\`)+1:]) // a Windows path read anywhere
	for _, ext := range []string{".exe", ".cmd", ".bat"} {
		prog = strings.TrimSuffix(prog, ext)
	}
	first := ""
	if len(srv.Args) > 0 {
		first = srv.Args[0]
	}
	switch {
	case prog == "npx" || prog == "bunx" || prog == "pnpx":
		return prog + " may still be downloading the package"
	case (prog == "pnpm" || prog == "yarn" || prog == "bun") && (first == "dlx" || first == "x"):
		return prog + " " + first + " may still be downloading the package"
	case prog == "uvx" || (prog == "pipx" && first == "run"):
		return prog + " may still be downloading the package"
	case prog == "uv" && len(srv.Args) > 1 && first == "tool" && srv.Args[1] == "run":
		return "uv tool run may still be downloading the package"
	case (prog == "docker" || prog == "podman") && slices.Contains(srv.Args, "run"):
		return prog + " may still be pulling the image"
	}
	return ""
}

// startTimeoutHint is what follows "(the start timeout" in the error of a
// start that ran out of time: the likely cause and the setting.
func startTimeoutHint(srv tool.MCPServer) string {
	set := `raise "startup_timeout" (seconds) in the server's servers.json entry (docs/mcp.md#start-bound)`
	if why := downloader(srv); why != "" {
		return fmt.Sprintf("; %s: try again once it is done, or %s", why, set)
	}
	return "; if the server is slow to start, " + set
}

// MayDownload says why starting srv may download something first ("npx
// may still be downloading the package"): its command fetches what it
// runs (npx, bunx, pnpm dlx, uvx, pipx run, uv tool run, docker or podman
// run) and startsFile (the first-start memory, start_memory.go) has no
// successful start of it. "" when a start only runs what is there.
func MayDownload(srv tool.MCPServer, startsFile string) string {
	why := downloader(srv)
	if why == "" || startedBefore(startsFile, srv) {
		return ""
	}
	return why
}
