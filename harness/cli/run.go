package cli

import (
	"context"
	"errors"
	"fmt"
	"github.com/openworker/desktop/internal/termsafe"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

type runFlags struct {
	coworkers, coworker, servers, extensions, format, provider, baseURL, modelName, approve, db, workspace string
	askInputs                                                                                              bool     // ${input:ID} of the servers file may be asked on the terminal
	unattended                                                                                             bool     // run --unattended: approvals park in the inbox (resume.go)
	prompt                                                                                                 string   // --prompt NS.NAME (run only, run_prompt.go)
	args                                                                                                   []string // --arg k=v, repeatable
	// questionWait bounds a server's question in an unattended run
	// (inbox.UnattendedQuestions, docs/inbox.md#missed-questions).
	questionWait time.Duration
	limits       limitFlags // --limit-* (limits.go)
}

// unattendedOptions makes so never wait on a person (docs/inbox.md#unattended):
// approvals and budget pauses park, questions wait at most --question-wait.
func (f runFlags) unattendedOptions(rt *harness.Runtime, so *harness.SessionOptions) {
	b := inbox.New(rt.Journal(), nil)
	so.Prompter, so.Budget = &inbox.Parker{Inbox: b}, nil
	so.Elicitor = &inbox.UnattendedQuestions{Inbox: b, Wait: f.questionWait}
}

func (c *config) runCommand(reg *tool.Registry) *cobra.Command {
	var f runFlags
	cmd := &cobra.Command{
		Use:   "run --coworkers DIR --coworker ID [flags] PROMPT | --prompt NS.NAME [--arg K=V]... [TEXT]",
		Short: "run one turn with a coworker in the terminal",
		Long: `Run one turn with a coworker in the terminal.

The model is an OpenAI-compatible endpoint (default) or Anthropic. With no
flags and no OPENAI_API_KEY / OPENAI_BASE_URL set, it targets Ollama at
OLLAMA_HOST (default http://127.0.0.1:11434). Keys come from OPENAI_API_KEY
and ANTHROPIC_API_KEY, never from flags.

--prompt NS.NAME sends an MCP prompt of one of the coworker's providers
instead of PROMPT (docs/cli.md#prompts): --arg K=V gives its arguments, and
any TEXT is added after the prompt's text.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			f.askInputs = true // run is a terminal command; serve's stdin is the protocol
			return c.run(cmd.Context(), reg, f, strings.TrimSpace(strings.Join(args, " ")))
		},
	}
	f.register(cmd, "approval mode: ask (prompt on the terminal before each call) or bypass (no prompts; deny policies, limits and the journal still apply)")
	cmd.Flags().StringVar(&f.coworker, "coworker", "", "the id of the coworker to run")
	cmd.Flags().StringVar(&f.prompt, "prompt", "", "send the MCP prompt NS.NAME of one of the coworker's providers as the turn's text (docs/cli.md#prompts)")
	cmd.Flags().StringArrayVar(&f.args, "arg", nil, "an argument of --prompt as NAME=VALUE; repeat for each argument")
	cmd.Flags().BoolVar(&f.unattended, "unattended", false, "never wait on a person: a call that needs approval goes to the inbox and the run parks (exit 3); answer with openworker inbox answer, continue with openworker resume (docs/inbox.md#unattended)")
	return cmd
}

// register adds the flags shared by run and serve; approve describes what
// "ask" does for the command.
func (f *runFlags) register(cmd *cobra.Command, approve string) {
	fl := cmd.Flags()
	fl.StringVar(&f.coworkers, "coworkers", "", "the coworker bundles folder")
	fl.StringVar(&f.servers, "servers", "", "servers.json, or another MCP client's config file, naming MCP providers (docs/servers.md)")
	fl.StringVar(&f.format, "format", "", formatUsage())
	fl.StringVar(&f.extensions, "extensions", "", extensionsUsage)
	fl.StringVar(&f.provider, "provider", "openai", "model provider: openai (any OpenAI-compatible endpoint) or anthropic")
	fl.StringVar(&f.baseURL, "base-url", "", "model endpoint base URL (default from OPENAI_BASE_URL / OLLAMA_HOST)")
	fl.StringVar(&f.modelName, "model", "", "model name")
	fl.StringVar(&f.approve, "approve", "ask", approve)
	fl.StringVar(&f.db, "db", "", "journal file (default "+harness.DefaultDBPath()+")")
	fl.StringVar(&f.workspace, "workspace", "", "a folder handed to the coworker's tools as their workspace (tool.Call.Workspace); tools decide what to do with it")
	fl.DurationVar(&f.questionWait, "question-wait", inbox.DefaultQuestionWait, "unattended: how long a server's question waits in the inbox before it is declined (a missed question)")
	f.limits.register(fl)
}

func (c *config) run(ctx context.Context, reg *tool.Registry, f runFlags, prompt string) error {
	promptArgs, err := checkRunArgs(f, prompt)
	if err != nil {
		return err
	}
	out := &printer{w: termsafe.NewWriter(c.stdout), errw: termsafe.NewWriter(c.stderr)}
	// Bypass never asks about calls (the engine decides before any
	// prompter), but a sampling request is still asked for on the terminal
	// (docs/consent.md#sampling).
	term := &terminalPrompter{in: c.stdin, out: c.stderr, interactive: c.terminal() && !f.unattended, lock: &out.mu}
	var prompter consent.Prompter = term
	rt, so, err := c.openRuntime(ctx, reg, f, prompter)
	if err != nil {
		return err
	}
	defer rt.Close()
	so.Prompter, so.Budget = terminalInbox(rt, prompter), terminalBudget(rt, term)
	if f.unattended {
		f.unattendedOptions(rt, &so) // a budget reached parks too; questions wait --question-wait
	}
	provider := so.Model
	s, err := rt.NewSession(ctx, f.coworker, so)
	if err != nil {
		return sessionErr(err)
	}
	defer s.Close()
	if f.prompt != "" {
		if prompt, err = expandPrompt(ctx, s, f.prompt, promptArgs, prompt); err != nil {
			return err
		}
	}
	fmt.Fprintf(c.stderr, "session %s with %s via %s\n", s.ID(), f.coworker, provider.Describe())
	res, err := s.Send(ctx, prompt, out.event)
	out.finish()
	if err != nil {
		return sendErr(s.ID(), err)
	}
	if res.Code == harness.CodeParked {
		return c.parked(ctx, rt.Journal(), s.ID())
	}
	return turnErr(s.ID(), res)
}

// checkRunArgs checks that run has a coworker and a prompt and returns
// the arguments of --prompt's recipe.
func checkRunArgs(f runFlags, prompt string) (map[string]string, error) {
	promptArgs, err := parsePromptArgs(f)
	switch {
	case err != nil:
		return nil, err
	case f.coworker == "":
		return nil, usageErr("run needs --coworker ID")
	case prompt == "" && f.prompt == "":
		return nil, usageErr("run needs a PROMPT, e.g. openworker run --coworkers DIR --coworker ID \"How is my battery?\"")
	}
	return promptArgs, nil
}

// sendErr is the error of a turn that failed in session id, with a hint
// when the model could not be reached.
func sendErr(id string, err error) error {
	var merr *harness.ModelError
	if !errors.As(err, &merr) {
		return err
	}
	hint := ""
	if merr.Code() == harness.CodeModelUnreachable {
		hint = "; is the model server running at that address? Start Ollama (ollama serve) or pass --base-url and --model"
	}
	return fmt.Errorf("the model request failed (session %s journaled as failed): %w%s", id, err, hint)
}

// turnErr is nil for a completed turn of session id, else says how it
// ended.
func turnErr(id string, res *harness.TurnResult) error {
	switch res.Status {
	case harness.TurnCompleted:
		return nil
	case harness.TurnCancelled:
		return fmt.Errorf("cancelled (session %s)", id)
	default:
		return fmt.Errorf("the turn %s: %s (session %s)", res.Status, res.Reason, id)
	}
}

// terminalInbox asks about calls through the inbox (docs/inbox.md): each
// approval is an inbox item, asked on the terminal and answerable from
// anywhere else too (`openworker inbox answer` in another terminal).
func terminalInbox(rt *harness.Runtime, terminal consent.Prompter) consent.Prompter {
	return &inbox.Prompter{Inbox: inbox.New(rt.Journal(), nil), AskedBy: "terminal",
		Ask: func(ctx context.Context, _ string, r consent.Request) (consent.Decision, error) {
			return terminal.Prompt(ctx, r)
		}}
}

// sessionErr is the exit of a session that did not open: 1 when an MCP
// provider the bundle uses did not start or list its tools (a runtime
// failure) or the journal refused to record the session (JournalError),
// else 2 (a broken bundle, a bad servers-file entry it uses, an
// unknown coworker; docs/cli.md#exit-codes).
func sessionErr(err error) error {
	var re *harness.ResolveError
	var je *harness.JournalError
	if (errors.As(err, &re) && re.StartFailed) || errors.As(err, &je) {
		return &exitError{ExitFailure, err}
	}
	return badInput(err)
}

// openRuntime checks the flags shared by run and serve, builds the model
// provider, opens the runtime and returns the options of its sessions.
func (c *config) openRuntime(ctx context.Context, reg *tool.Registry, f runFlags, prompter consent.Prompter) (*harness.Runtime, harness.SessionOptions, error) {
	var none harness.SessionOptions
	if f.coworkers == "" {
		f.coworkers = c.appCoworkers() // the app's folder, as schedule add takes it
	}
	if err := checkRuntimeFlags(f); err != nil {
		return nil, none, err
	}
	if err := c.registerRunProviders(ctx, reg, f); err != nil {
		return nil, none, err
	}
	provider, err := model.New(model.FromEnv(model.Config{Provider: f.provider, BaseURL: f.baseURL, Model: f.modelName}, c.getenv))
	if err != nil {
		return nil, none, badInput(err)
	}
	if f.db == "" {
		f.db = harness.DefaultDBPath()
	}
	j, err := c.openJournal(f.db, true)
	if err != nil {
		return nil, none, err
	}
	rt, err := harness.Open(ctx, reg, harness.Options{Coworkers: f.coworkers, Journal: j, CloseJournal: true, SignIn: c.signInFor(prompter), StartsFile: c.startsFile()})
	if err != nil {
		j.Close()
		return nil, none, badInput(err)
	}
	so := harness.SessionOptions{Model: provider, Approve: consent.Mode(f.approve), Prompter: prompter, Workspace: f.workspace, Limits: c.defaultLimits(f.limits)}
	if el, ok := prompter.(elicit.Elicitor); ok { // the terminal asks the questions of servers too (elicit.go)
		so.Elicitor = el
	}
	return rt, so, nil
}

// checkRuntimeFlags checks --coworkers, --approve, --provider and
// --workspace.
func checkRuntimeFlags(f runFlags) error {
	if f.coworkers == "" {
		return usageErr("needs --coworkers DIR (the app's coworkers folder when there is one)")
	}
	if mode := consent.Mode(f.approve); mode != consent.Ask && mode != consent.Bypass {
		return usageErr("--approve %q: use ask or bypass", f.approve)
	}
	if f.provider != "openai" && f.provider != "anthropic" {
		return usageErr("--provider %q: use openai or anthropic", f.provider)
	}
	if err := f.limits.check(); err != nil {
		return err
	}
	if f.workspace != "" {
		if st, err := os.Stat(f.workspace); err != nil || !st.IsDir() {
			return usageErr("--workspace %q is not a folder", f.workspace)
		}
	}
	return nil
}

// registerRunProviders adds the providers of --servers (warning about
// the entries that fail) and --extensions to reg.
func (c *config) registerRunProviders(ctx context.Context, reg *tool.Registry, f runFlags) error {
	if f.servers != "" {
		cfg, err := c.registerServers(ctx, reg, f.servers, f.format, f.askInputs)
		var ee *exitError
		if errors.As(err, &ee) || errors.Is(err, tool.ErrFrozen) {
			return err
		}
		c.warnServers(cfg, err)
	} else if f.format != "" {
		return usageErr("--format names the format of the --servers file; give --servers FILE too")
	}
	return c.registerExtensions(reg, f.extensions)
}

// printer writes assistant text to stdout and tool activity to stderr.
type printer struct {
	w, errw io.Writer
	mu      sync.Mutex
	midLine bool
}

func (p *printer) event(e harness.Event) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Type {
	case harness.EventText:
		fmt.Fprint(p.w, e.Text) // p.w is a termsafe.Writer: escapes render visibly even split across deltas (docs/cli.md#sanitised-output)
		p.midLine = !strings.HasSuffix(e.Text, "\n")
		return
	case harness.EventToolStarted:
		p.endLine()
		fmt.Fprintf(p.errw, "→ %s %s\n", line(e.Tool), clip(string(e.Arguments), 200))
	case harness.EventToolProgress:
		fmt.Fprintf(p.errw, "  … %s\n", progressLine(e.Text, e.Data))
	case harness.EventToolFinished:
		p.endLine()
		if e.Error != "" {
			fmt.Fprintf(p.errw, "✗ %s %s: %s\n", line(nameOr(e.Tool, e.Alias)), e.Status, oneLine(e.Error, 300))
		} else {
			fmt.Fprintf(p.errw, "✓ %s %s in %d ms\n", line(e.Tool), e.Status, e.DurationMS)
		}
		if v := e.UIResource; v != nil { // docs/mcp-apps.md#resources
			if v.Error != "" {
				fmt.Fprintf(p.errw, "  view not shown: %s\n", oneLine(v.Error, 300))
			} else {
				fmt.Fprintf(p.errw, "  view: %s (%d bytes) — open the chat in the desktop app to use it\n", oneLine(v.URI, 200), v.Size)
			}
		}
	case harness.EventWarning:
		p.endLine()
		fmt.Fprintf(p.errw, "warning: %s\n", termsafe.Text(e.Text))
	}
}

func (p *printer) endLine() {
	if p.midLine {
		fmt.Fprintln(p.w)
		p.midLine = false
	}
}

func (p *printer) finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endLine()
}

func nameOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func clip(s string, n int) string {
	head, more := cutBytes(s, n)
	if more == 0 {
		return termsafe.Line(head)
	}
	return termsafe.Line(head) + fmt.Sprintf("… (%d more bytes not shown)", more)
}

// cutBytes cuts s to at most n bytes at a rune boundary and says how
// many bytes it left out.
func cutBytes(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], len(s) - cut
}
