package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/openworker/desktop/harness/servers"
	"github.com/openworker/desktop/harness/tool"
	"golang.org/x/term"
)

// formatUsage is the help of --format.
func formatUsage() string {
	names := make([]string, 0, 10)
	for _, f := range servers.ConfigFormats() {
		names = append(names, string(f))
	}
	return "format of the --servers file: " + strings.Join(names, ", ") + " (default: detected from its name and content; docs/servers.md)"
}

// registerServers registers the providers of the --servers file in reg
// (servers.RegisterServersFile): a bad entry, or a file that cannot be read,
// disables only its providers. ask says whether ${input:ID} may be asked
// on the terminal (not for serve --stdio, whose stdin is the protocol);
// answers are kept in the OS keychain either way. It returns the file as
// read (nil when it could not be) and its problems.
func (c *config) registerServers(ctx context.Context, reg *tool.Registry, path, format string, ask bool) (*servers.Config, error) {
	f, err := servers.ParseConfigFormat(format)
	if err != nil {
		return nil, usageErr("--format: %v", err)
	}
	var asker servers.AskFunc
	if ask {
		asker = c.askInput
	}
	warn := func(err error) { fmt.Fprintln(c.stderr, "openworker: servers:", err) }
	inputs := servers.KeychainInputsWith(servers.InputsOptions{Ask: asker, Warn: warn, Dir: c.secretsDir(), Notice: c.keychainNotice})
	cfg, err := servers.RegisterServersFile(reg, path, &servers.ConfigOptions{Format: f, Context: ctx, Inputs: inputs})
	if errors.Is(err, tool.ErrFrozen) {
		return nil, err
	}
	return cfg, err
}

// warnServers prints what run and serve go on without: the problems of the
// servers file (bundles that do not use a broken provider still run) and
// its notices, on stderr.
func (c *config) warnServers(cfg *servers.Config, err error) {
	if cfg == nil && err != nil {
		fmt.Fprintf(c.stderr, "openworker: servers: %v\n  no provider of this file is available; bundles that use none still run\n", err)
		return
	}
	if cfg == nil {
		return
	}
	for _, n := range cfg.AllNotices() {
		fmt.Fprintln(c.stderr, "openworker: servers: notice:", n)
	}
	for _, e := range cfg.Entries {
		if e.Err != nil && !e.Disabled {
			fmt.Fprintf(c.stderr, "openworker: servers: %v\n  %s is disabled; bundles that do not use it still run\n", e.Err, e.Label())
		}
	}
}

// askInput asks for the answer of a servers file's ${input:ID} on the
// terminal: a password without echo.
func (c *config) askInput(ctx context.Context, id, description string, password bool) (string, error) {
	if !c.terminal() {
		return "", errors.New("there is no terminal to ask on; run `openworker check --servers FILE` in a terminal once to answer it (the answer is kept in the OS keychain)")
	}
	if description == "" {
		description = id
	}
	fmt.Fprintf(c.stderr, "%s (servers file input %q): ", description, id)
	if f, ok := c.stdin.(*os.File); ok && password && term.IsTerminal(int(f.Fd())) {
		b, err := term.ReadPassword(int(f.Fd()))
		fmt.Fprintln(c.stderr)
		if err != nil {
			return "", fmt.Errorf("reading the answer: %v", err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	line, err := readLine(c.stdin)
	if err != nil && line == "" {
		return "", fmt.Errorf("no answer was given (%v)", err)
	}
	return strings.TrimSpace(line), nil
}

// readLine reads one line a byte at a time, so nothing after it is taken
// from r (the consent prompts of run read the same stdin later).
func readLine(r io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, 1)
	for {
		n, err := r.Read(buf)
		if n == 1 {
			if buf[0] == '\n' {
				return b.String(), nil
			}
			b.WriteByte(buf[0])
		}
		if err != nil {
			return b.String(), err
		}
	}
}
