// Command oauthserver runs oauthtest's authorization server and the MCP
// server it protects, both on 127.0.0.1, for scripts/app-e2e.sh
// (docs/mcp.md#sign-in). It prints two lines:
//
//	mcp http://127.0.0.1:PORT/mcp
//	issuer http://127.0.0.1:PORT
//
// and serves until SIGINT or SIGTERM. With -tokens FILE it then writes
// every access and refresh token it issued to FILE (mode 0600, one a
// line), for the script to check that none of them reached a log.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/openworker/desktop/harness/mcp/oauth/oauthtest"
)

// cleanups is the oauthtest.Cleaner of a command: run in reverse at exit.
type cleanups []func()

func (c *cleanups) Cleanup(f func()) { *c = append(*c, f) }

func main() {
	tokens := flag.String("tokens", "", "write the issued tokens to this file at exit")
	flag.Parse()
	var c cleanups
	as := oauthtest.NewAuthServer(&c, oauthtest.Options{Iss: true})
	ms := oauthtest.NewMCPServer(&c, as)
	fmt.Printf("mcp %s\nissuer %s\n", ms.URL, as.Issuer)

	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	code := 0
	if *tokens != "" {
		var b strings.Builder
		for _, t := range as.Issued() {
			b.WriteString(t + "\n")
		}
		if err := os.WriteFile(*tokens, []byte(b.String()), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "oauthserver:", err)
			code = 1
		}
	}
	for i := len(c) - 1; i >= 0; i-- {
		c[i]()
	}
	os.Exit(code)
}
