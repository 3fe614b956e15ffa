// Package device is the device-tools MCP server (docs/tools.md): read-only tools
// that report the battery, the system and disk usage of the machine it runs
// on. The product serves it with `openworker mcp serve device` and registers
// it as the MCP provider "device"; tests serve it in memory or over HTTP.
//
// Every tool is annotated readOnlyHint=true, returns typed structured
// content (its output schema is inferred from the Go type) and keeps its
// result under 8 KB. The server writes nothing to stdout but the MCP
// protocol; diagnostics go to stderr.
//
// Serve it on stdio:
//
//	if err := device.ServeStdio(ctx); err != nil {
//		fmt.Fprintln(os.Stderr, err)
//		os.Exit(1)
//	}
package device

import (
	"context"
	"io"
	"log/slog"
	"os"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Name is the server name announced in the MCP initialize handshake.
const Name = "openworker-device"

// maxText bounds every free-form string a tool copies from the system
// (hostname, CPU model, paths, messages), so each result stays well under
// 8 KB.
const maxText = 256

// NewServer returns the device-tools MCP server with its tools registered.
// version is announced as the server version (the host's semver); empty
// means "dev". The server logs to stderr at warning level.
func NewServer(version string) *sdk.Server {
	if version == "" {
		version = "dev"
	}
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s := sdk.NewServer(&sdk.Implementation{Name: Name, Title: "OpenWorker device tools", Version: version},
		&sdk.ServerOptions{Logger: logger})
	addBatteryTool(s)
	addSystemTool(s)
	addDiskTool(s)
	return s
}

// Serve runs the server over newline-delimited JSON-RPC on in and out until
// the client disconnects or ctx is done. It returns nil on a clean
// disconnect.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	t := &sdk.IOTransport{Reader: io.NopCloser(in), Writer: nopWriteCloser{out}}
	return NewServer(Version).Run(ctx, t)
}

// ServeStdio runs the server on the process's stdin and stdout, as
// `openworker mcp serve device` does. Nothing else may write to stdout while
// it runs.
func ServeStdio(ctx context.Context) error {
	return NewServer(Version).Run(ctx, &sdk.StdioTransport{})
}

// Version is the server version ServeStdio and Serve announce. The product's
// main may set it from its build version before serving.
var Version = "dev"

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

func readOnly() *sdk.ToolAnnotations {
	open := false
	return &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &open}
}

// clip bounds s to maxText bytes without splitting a UTF-8 sequence.
func clip(s string) string {
	if len(s) <= maxText {
		return s
	}
	cut := maxText
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + "…"
}
