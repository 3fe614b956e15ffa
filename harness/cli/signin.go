package cli

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/mcp/oauth"
	"github.com/openworker/desktop/harness/protocol"
)

// WithSignIn replaces the store and the browser of sign-ins to remote MCP
// servers (docs/mcp.md#sign-in): the OS keychain (with the encrypted file
// of docs/mcp.md#without-a-keychain where there is none) and the system
// browser by default; nil keeps the default. For tests.
func WithSignIn(store oauth.TokenStore, open func(ctx context.Context, url string) error) Option {
	return func(c *config) { c.signInStore, c.signInOpen = store, open }
}

// ClientMetadataEnv names the environment variable that replaces the URL
// of OpenWorker's client ID metadata document (oauth.DefaultClientMetadataURL);
// "off" turns the document off (docs/mcp.md#client-id-metadata-document).
const ClientMetadataEnv = "OPENWORKER_CLIENT_METADATA_URL"

// secretsDir is the folder of the encrypted file secrets go to where
// there is no OS keychain: the app's config folder, "" when there is
// none (then only the OS keychain is used).
func (c *config) secretsDir() string {
	if c.appDir != "" {
		return c.appDir
	}
	dir, err := harness.ConfigDir()
	if err != nil {
		return ""
	}
	return dir
}

// startsFile is the file that remembers which MCP commands started once
// (docs/mcp.md#start-bound), in the config folder; "" when there is none.
func (c *config) startsFile() string {
	if dir := c.secretsDir(); dir != "" {
		return filepath.Join(dir, harness.StartsFileName)
	}
	return ""
}

// keychainNotice tells the person, once, that secrets go to the
// encrypted file (keychain.Options.Notice).
func (c *config) keychainNotice(msg string) { fmt.Fprintln(c.stderr, "openworker:", msg) }

func (c *config) tokenStore() oauth.TokenStore {
	if c.signInStore != nil {
		return c.signInStore
	}
	return oauth.NewKeychainStore(oauth.KeychainOptions{Dir: c.secretsDir(), Notice: c.keychainNotice})
}

// clientMetadataURL is SignIn.ClientMetadataURL: ClientMetadataEnv's
// value when set ("off": none), else oauth.DefaultClientMetadataURL. A
// value that is not an https URL with a path is said on stderr and not
// used.
func (c *config) clientMetadataURL() string {
	v := strings.TrimSpace(c.getenv(ClientMetadataEnv))
	switch v {
	case "":
		return oauth.DefaultClientMetadataURL
	case "off":
		return ""
	}
	if u, err := url.Parse(v); err != nil || u.Scheme != "https" || u.Host == "" || strings.Trim(u.Path, "/") == "" {
		fmt.Fprintf(c.stderr, "openworker: %s=%q is not an https URL with a path; no client ID metadata document is used\n", ClientMetadataEnv, v)
		return ""
	}
	return v
}

// signIn is the CLI's part of a sign-in: it says on stderr which server
// needs one, prints the sign-in page's URL, and opens it in the system
// browser (docs/cli.md#sign-in). The person ran the command, so nothing
// is asked first; the URL holds no secret. A browser that does not open
// is said, with the URL to copy, and the wait goes on.
func (c *config) signIn() *oauth.SignIn {
	open := c.signInOpen
	if open == nil {
		open = func(ctx context.Context, url string) error { return openBrowser(ctx, url) }
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
		OpenFailed: func(_ context.Context, p oauth.Prompt, err error) {
			fmt.Fprintf(c.stderr, "openworker: the browser did not open (%v); copy the URL above into a browser on this computer to sign in (waiting up to %v)\n",
				err, oauth.DefaultSignInTimeout)
		},
		ClientMetadataURL: c.clientMetadataURL(),
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
		s.OpenFailed = nil
	}
	return s
}

// browser opens a sign-in page for serve's answer "open": the system
// browser, or WithSignIn's.
func (c *config) browser() func(ctx context.Context, url string) error {
	if c.signInOpen != nil {
		return c.signInOpen
	}
	return func(ctx context.Context, url string) error { return openBrowser(ctx, url) }
}

// browserWait is how long openBrowser waits for the opener to end: one
// that fails (xdg-open with no browser exits 3) does so at once, one that
// runs the browser itself may not end while the browser runs.
const browserWait = 3 * time.Second

// openBrowser hands url to the system's browser: xdg-open, open or
// rundll32. It fails when the opener cannot start, or exits with an error
// within browserWait; one still running then is taken to have opened it.
func openBrowser(ctx context.Context, url string) error {
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
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t := time.NewTimer(browserWait)
	defer t.Stop()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return fmt.Errorf("%s exited with status %d", cmd.Args[0], ee.ExitCode())
		}
		return err
	case <-t.C:
		return nil
	case <-ctx.Done():
		return nil
	}
}
