package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/tool"
	"golang.org/x/term"
)

func stdinIsTerminal() bool { return term.IsTerminal(int(os.Stdin.Fd())) }

// terminalPrompter asks on the terminal: allow once, allow for this
// session, always allow for this coworker, or deny. Without a terminal it
// denies with consent.ErrNoTerminal.
type terminalPrompter struct {
	in          io.Reader
	out         io.Writer
	interactive bool
	lock        *sync.Mutex            // shared with the printer so output does not interleave
	open        func(url string) error // opens a URL question's page; nil: systemOpen (elicit_url.go)

	once   sync.Once
	lines  chan string
	readMu sync.Mutex
}

func (p *terminalPrompter) Prompt(ctx context.Context, r consent.Request) (consent.Decision, error) {
	if !p.interactive && r.Sampling != nil {
		return consent.Deny, fmt.Errorf("no terminal to ask whether %s may use your model; the sampling request is refused", r.Sampling.Namespace)
	}
	if !p.interactive {
		// The refusal line printed for the call says why, and how to go on.
		return consent.Deny, fmt.Errorf("%w (use --approve bypass to run without prompts)", consent.ErrNoTerminal)
	}
	p.readMu.Lock() // one prompt at a time
	defer p.readMu.Unlock()
	p.startReading()
	if r.Sampling != nil {
		return p.promptSampling(ctx, r) // sampling_prompt.go
	}
	p.lock.Lock()
	fmt.Fprintf(p.out, "\n%s wants to run %s %s (%s, %s, risk %s)\n",
		nonEmpty(r.CoworkerName, r.Coworker), r.Tool, placementPhrase(r.Placement), r.Provider, r.Classification, r.Risk)
	if r.Placement == tool.PlacementLocal && r.Access != "" {
		fmt.Fprintf(p.out, "  it %s\n", r.Access) // "runs with your full access" (docs/sandbox.md#in-words)
	}
	if r.Origin != "" { // a call asked by an app view, not the model (docs/mcp-apps.md#view-calls)
		fmt.Fprintf(p.out, "  from: %s (not the model)\n", oneLine(r.Origin, 200))
	}
	fmt.Fprintf(p.out, "  arguments: %s\n", clip(visibleJSON(string(r.Arguments)), 500))
	p.lock.Unlock()
	return p.choose(ctx, "  [o] allow once  [s] allow for this session  [a] always allow for this coworker  [d] deny  [never] never for this coworker: ",
		"  please answer o, s, a, d or never\n", "the terminal closed before an answer; denied", map[string]consent.Decision{
			"o": consent.AllowOnce, "once": consent.AllowOnce, "y": consent.AllowOnce, "yes": consent.AllowOnce,
			"s": consent.AllowSession, "session": consent.AllowSession,
			"a": consent.AllowAlways, "always": consent.AllowAlways,
			"d": consent.Deny, "deny": consent.Deny, "n": consent.Deny, "no": consent.Deny,
			"never": consent.DenyAlways, // spelled out: a deliberate choice (docs/consent.md#never)
		})
}

// choose asks question until a line (trimmed, any case) is one of
// answers, saying again after each other line; the terminal closing or
// ctx ending denies, with closed or ctx's error.
func (p *terminalPrompter) choose(ctx context.Context, question, again, closed string, answers map[string]consent.Decision) (consent.Decision, error) {
	for {
		p.lock.Lock()
		fmt.Fprint(p.out, question)
		p.lock.Unlock()
		select {
		case <-ctx.Done():
			return consent.Deny, ctx.Err()
		case line, ok := <-p.lines:
			if !ok {
				return consent.Deny, errors.New(closed)
			}
			if d, ok := answers[strings.ToLower(strings.TrimSpace(line))]; ok {
				return d, nil
			}
			p.lock.Lock()
			fmt.Fprint(p.out, again)
			p.lock.Unlock()
		}
	}
}

// startReading starts the one reader of the terminal's lines, shared by
// the approval prompts and the questions of servers (elicit.go).
func (p *terminalPrompter) startReading() {
	p.once.Do(func() {
		p.lines = make(chan string)
		go func() {
			sc := bufio.NewScanner(p.in)
			for sc.Scan() {
				p.lines <- sc.Text()
			}
			close(p.lines)
		}()
	})
}

// placementPhrase says where a call goes (docs/consent.md#placement): "on
// this computer" as it is, a remote host as "on mcp.example.com (a remote
// host)".
func placementPhrase(placement string) string {
	switch {
	case tool.IsLocalPlacement(placement): // with a sandbox in words after it
		return placement
	case placement == "":
		return "(placement unknown)"
	}
	return "on " + placement + " (a remote host)"
}

func nonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
