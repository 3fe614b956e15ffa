package cli

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/protocol"
)

// WithSignIn replaces the store and the browser of sign-ins to remote MCP
// servers (docs/mcp.md#sign-in): the OS keychain and the system browser by
// default. For tests.
func WithSignIn(store oauth.TokenStore, open func(ctx context.Context, url string) error) Option {
	return func(c *config) { c.signInStore, c.signInOpen = store, open }
}

func (c *config) tokenStore() oauth.TokenStore {
	if c.signInStore != nil {
		return c.signInStore
	}
	return oauth.KeychainStore{}
}

// signIn is the CLI's part of a sign-in: it says on stderr which server
// needs one, prints the sign-in page's URL, and opens it in the system
// browser (docs/cli.md#sign-in). The person ran the command, so nothing
// is asked first; the URL holds no secret.
func (c *config) signIn() *oauth.SignIn {
	open := c.signInOpen
	if open == nil {
		open = func(_ context.Context, url string) error {
			if err := openBrowser(url); err != nil {
				fmt.Fprintf(c.stderr, "openworker: could not open a browser (%v); open the URL above yourself\n", err)
			}
			return nil
		}
	}
	return &oauth.SignIn{
		Store: c.tokenStore(),
		Ask: func(_ context.Context, p oauth.Prompt) (bool, error) {
			what := "needs a sign-in"
			if p.Again {
				what = "needs you to sign in again"
			}
			fmt.Fprintf(c.stderr, "openworker: %s (%s) %s at %s", p.Namespace, p.Server, what, p.SignInHost)
			if len(p.Scopes) > 0 {
				fmt.Fprintf(c.stderr, " for %s", strings.Join(p.Scopes, " "))
			}
			fmt.Fprintf(c.stderr, "; opening in your browser:\n  %s\n", p.URL)
			return true, nil
		},
		Open: open,
	}
}

// signInAsker is a Prompter that asks for sign-ins itself: serve's
// protocol server, whose client answers signin.required
// (docs/stdio-protocol.md#sign-in) and opens the page, or has serve open it.
type signInAsker interface {
	AskSignIn(ctx context.Context, p oauth.Prompt) (bool, error)
}

// signInFor is the SignIn of run and serve: prompter's when it asks for
// sign-ins itself, else the CLI's (signIn).
func (c *config) signInFor(prompter any) *oauth.SignIn {
	s := c.signIn()
	if a, ok := prompter.(signInAsker); ok {
		s.Ask = a.AskSignIn
		s.Open = protocol.NoBrowser // the answer opened the page
	}
	return s
}

// browser opens a sign-in page for serve's answer "open": the system
// browser, or WithSignIn's.
func (c *config) browser() func(ctx context.Context, url string) error {
	if c.signInOpen != nil {
		return c.signInOpen
	}
	return func(_ context.Context, url string) error { return openBrowser(url) }
}

// openBrowser hands url to the system's browser.
func openBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
