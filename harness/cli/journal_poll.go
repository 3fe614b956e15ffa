package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// PollBy is who a reconciliation from the agent's own answer is recorded
// by (journal reconcile --poll).
const PollBy = "a2a:poll"

// pollTimeout bounds reading the card and the one tasks/get of --poll.
const pollTimeout = 30 * time.Second

// pollFlags are the flags of "journal reconcile --poll".
type pollFlags struct {
	on      bool
	servers string
	format  string
}

func (p *pollFlags) flags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&p.on, "poll", false, "ask the A2A agent of the call for its task's state (tasks/get) and record its answer (docs/a2a.md#durable-handles)")
	cmd.Flags().StringVar(&p.servers, "servers", "", "servers file holding the agent's entry, for --poll (docs/a2a.md)")
	cmd.Flags().StringVar(&p.format, "format", "", formatUsage())
}

// reconcilePoll is "journal reconcile INVOCATION --poll": it asks the A2A
// agent of an unknown invocation for the state of the task whose ID was
// journaled as the invocation's handle, with one tasks/get (nothing is
// sent again), and records the agent's answer: a completed task is
// applied (with its artifacts as the result), a failed, canceled or
// rejected one not_applied. A task still working, waiting for input, or
// that the agent does not know leaves the invocation unknown for the
// person (exit 1, saying so).
func (c *config) reconcilePoll(ctx context.Context, reg *tool.Registry, j *journal.Journal, id string, p pollFlags) error {
	inv, err := j.Invocation(ctx, id)
	if err != nil {
		if errors.Is(err, journal.ErrNotFound) {
			return badInput(err)
		}
		return err
	}
	if inv.Status != journal.InvUnknown || inv.Reconciled != "" {
		what := string(inv.Status)
		if inv.Reconciled != "" {
			what = "already reconciled as " + string(inv.Reconciled)
		}
		return badInput(fmt.Errorf("invocation %s is %s; only an unknown invocation is reconciled", id, what))
	}
	ns, ok := strings.CutPrefix(inv.Provider, harness.ProviderA2APrefix)
	if !ok {
		return badInput(fmt.Errorf("invocation %s is a call of %s (provider %q); --poll asks an A2A agent only: check what happened and record it with --outcome applied|not_applied", id, inv.Tool, inv.Provider))
	}
	handle, err := j.Handle(ctx, id)
	if err != nil {
		return err
	}
	if handle == "" {
		return badInput(fmt.Errorf("invocation %s has no task ID: the call ended before A2A agent %q returned one, so there is nothing to ask it; the message may or may not have reached it: ask the agent's owner, then record it with --outcome applied|not_applied", id, ns))
	}
	if p.servers != "" {
		if _, err := c.registerServers(ctx, reg, p.servers, p.format, true); err != nil && errors.Is(err, tool.ErrFrozen) {
			return err
		}
	}
	agent, ok := reg.Agent(ns)
	if !ok {
		if b, broken := reg.BrokenMCP(ns); broken {
			return badInput(fmt.Errorf("A2A agent %q cannot be asked: %v", ns, b.Err))
		}
		return usageErr("A2A agent %q is not registered; pass --servers FILE with its entry (the file the call was made with)", ns)
	}
	ctx, cancel := context.WithTimeout(ctx, pollTimeout)
	defer cancel()
	ag, err := a2a.Fetch(ctx, agent, a2a.Options{})
	if err != nil {
		return fmt.Errorf("invocation %s stays unknown: %w", id, err)
	}
	res, err := ag.Poll(ctx, handle)
	if err != nil {
		return fmt.Errorf("invocation %s stays unknown: %w", id, err)
	}
	var outcome journal.Effect
	switch res.Outcome() {
	case a2a.OutcomeApplied:
		outcome = journal.EffectApplied
	case a2a.OutcomeNotApplied:
		outcome = journal.EffectNotApplied
	default:
		if !res.Known {
			return fmt.Errorf("invocation %s stays unknown: A2A agent %q does not know task %s (it may have forgotten it); ask the agent's owner, then record it with --outcome applied|not_applied", id, ns, handle)
		}
		return fmt.Errorf("invocation %s stays unknown: A2A agent %q says task %s is %s%s; poll again later", id, ns, handle, res.State, quoted(res.Message))
	}
	var result []byte
	if outcome == journal.EffectApplied {
		result = res.Output.Structured
	}
	if err := j.ReconcileResult(ctx, id, outcome, PollBy, result); err != nil {
		if errors.Is(err, journal.ErrNotFound) || errors.Is(err, journal.ErrBadTransition) {
			return badInput(err)
		}
		return err
	}
	fmt.Fprintf(c.stdout, "invocation %s reconciled: %s (A2A agent %q says task %s is %s%s)\n", id, outcome, ns, handle, res.State, quoted(res.Message))
	return nil
}

func quoted(msg string) string {
	if msg == "" {
		return ""
	}
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return fmt.Sprintf(": %q", msg)
}

// taskHandles maps each A2A invocation of d to its journaled task ID
// (docs/journal.md#handles), for journal show.
func taskHandles(ctx context.Context, j *journal.Journal, d journal.SessionDetail) map[string]string {
	out := map[string]string{}
	for _, inv := range d.Invocations {
		if strings.HasPrefix(inv.Provider, harness.ProviderA2APrefix) {
			if h, err := j.Handle(ctx, inv.ID); err == nil && h != "" {
				out[inv.ID] = h
			}
		}
	}
	return out
}
