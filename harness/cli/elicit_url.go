package cli

import (
	"context"
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"github.com/openworker/desktop/harness/elicit"
)

// elicitURL asks a URL-mode question on the terminal
// (docs/mcp.md#url-mode): it shows the full URL and its host, and asks
// "open it? [y/N]"; only y opens the page in the default browser (the
// prompter's open, systemOpen unless a test set one). Anything else
// declines. A page that does not open declines too, and says why.
func (p *terminalPrompter) elicitURL(ctx context.Context, q elicit.Question, who string, say func(string, ...any)) (elicit.Answer, error) {
	say("\n%s asks you to open a page during %s (%s):\n  %s\n  host: %s\n  %s\n", who, q.Tool, q.Invocation,
		oneLine(q.Message, 2000), q.Host, oneLine(q.URL, elicit.MaxURL))
	say("  open it in your browser? [y/N]: ")
	line, err := p.readLine(ctx)
	if err != nil {
		return elicit.Answer{}, err
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
	default:
		return elicit.Answer{Action: elicit.Decline}, nil
	}
	open := p.open
	if open == nil {
		open = systemOpen
	}
	if err := open(q.URL); err != nil {
		say("  the page did not open (%v); declined. Open it yourself if you trust it: %s\n", err, q.URL)
		return elicit.Answer{Action: elicit.Decline}, nil
	}
	say("  opened in your browser\n")
	return elicit.Answer{Action: elicit.Accept}, nil
}

// systemOpen opens an https (or loopback http) URL that elicit.CheckURL
// passed in the default browser.
func systemOpen(url string) error {
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
		return fmt.Errorf("cannot start %s: %w", cmd.Path, err)
	}
	go cmd.Wait() //nolint:errcheck // the browser's exit status says nothing
	return nil
}
