//go:build unix

package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/tool"
)

// TestStartTimeoutChoice: the server's own "startup_timeout" wins, then
// the caller's bound, then 120 s for a command that may download the
// server first, then 30 s.
func TestStartTimeoutChoice(t *testing.T) {
	stdio := func(prog string, args ...string) tool.MCPServer {
		return tool.MCPServer{Transport: tool.TransportStdio, Program: prog, Args: args}
	}
	for _, c := range []struct {
		srv  tool.MCPServer
		opts *Options
		want time.Duration
		why  string
	}{
		{stdio("npx", "-y", "@modelcontextprotocol/server-filesystem"), nil, DownloadStartTimeout, "npx may still be downloading the package"},
		{stdio(`C:\Program Files\nodejs\npx.cmd`, "-y", "pkg"), nil, DownloadStartTimeout, "npx may still be downloading the package"},
		{stdio("/usr/local/bin/uvx", "mcp-server-fetch"), nil, DownloadStartTimeout, "uvx may still be downloading the package"},
		{stdio("uv", "tool", "run", "mcp-server-fetch"), nil, DownloadStartTimeout, "uv tool run may still be downloading the package"},
		{stdio("pnpm", "dlx", "pkg"), nil, DownloadStartTimeout, "pnpm dlx may still be downloading the package"},
		{stdio("docker", "run", "-i", "--rm", "mcp/fetch"), nil, DownloadStartTimeout, "docker may still be pulling the image"},
		{stdio("docker", "exec", "-i", "box", "srv"), nil, DefaultStartTimeout, ""},
		{stdio("node", "server.js"), nil, DefaultStartTimeout, ""},
		{stdio("npx", "pkg"), &Options{StartTimeout: 5 * time.Second}, 5 * time.Second, "npx may still be downloading the package"},
		{tool.MCPServer{Transport: tool.TransportStdio, Program: "node", StartTimeout: 150 * time.Second}, &Options{StartTimeout: 5 * time.Second}, 150 * time.Second, ""},
		{tool.MCPServer{Transport: tool.TransportStreamableHTTP, URL: "https://x.example/npx"}, nil, DefaultStartTimeout, ""},
	} {
		if got := startTimeout(c.srv, c.opts); got != c.want {
			t.Errorf("startTimeout(%s %q) = %v, want %v", c.srv.Program, c.srv.Args, got, c.want)
		}
		if got := downloader(c.srv); got != c.why {
			t.Errorf("downloader(%s %q) = %q, want %q", c.srv.Program, c.srv.Args, got, c.why)
		}
	}
}

// TestStartTimeoutSlowServer: a server whose command sleeps 2 s before
// it answers (a stand-in for npx downloading a package) fails a 1 s
// "startup_timeout" with an error that names the likely cause and the
// setting, and starts within a generous one.
func TestStartTimeoutSlowServer(t *testing.T) {
	helper := selfServer(t, "slow", "helper")
	bin := t.TempDir()
	npx := filepath.Join(bin, "npx")
	script := "#!/bin/sh\nsleep 2\nexec \"$OW_TEST_EXE\"\n"
	if err := os.WriteFile(npx, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := helper
	srv.Program, srv.Args = npx, []string{"-y", "some-server"}
	srv.Env = map[string]string{"OW_TEST_EXE": helper.Program}
	for k, v := range helper.Env {
		srv.Env[k] = v
	}
	srv.Source = "servers.json:3"

	srv.StartTimeout = time.Second
	_, err := Connect(context.Background(), srv, nil)
	if err == nil {
		t.Fatal("Connect succeeded within 1 s for a server that answers after 2 s")
	}
	mustContain(t, "error", err.Error(), `mcp provider "slow" (from servers.json:3) did not start: no answer to initialize within 1s (the start timeout; npx may still be downloading the package: try again once it is done, or raise "startup_timeout" (seconds) in the server's servers.json entry (docs/mcp.md#start-bound))`)

	srv.StartTimeout = 60 * time.Second
	p, err := Connect(context.Background(), srv, nil)
	if err != nil {
		t.Fatalf("Connect with a 60 s startup_timeout: %v", err)
	}
	defer p.Close()
	tools, err := p.ListTools(context.Background())
	if err != nil || len(tools) == 0 {
		t.Fatalf("ListTools = %d tools, %v", len(tools), err)
	}
	if strings.Contains(startTimeoutHint(tool.MCPServer{Program: "node"}), "download") {
		t.Error("the hint for node names a download")
	}
}
