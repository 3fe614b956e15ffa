package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/journal"
	"github.com/openworker/desktop/harness/tool"
	"github.com/spf13/cobra"
)

// PollBy is who a reconciliation from the agent's own answer is recorded
// by (journal reconcile --poll).
const PollBy = harness.PollBy

// pollFlags are the flags of "journal reconcile --poll".
type pollFlags struct {
	on      bool
	servers string
	format  string
}

func (p *pollFlags) flags(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&p.on, "poll", false, "ask the A2A agent or MCP server of the call for its task's state (tasks/get) and record its answer (docs/a2a.md#durable-handles, docs/mcp.md#tasks)")
	cmd.Flags().StringVar(&p.servers, "servers", "", "servers file holding the agent's or server's entry, for --poll (docs/a2a.md)")
	cmd.Flags().StringVar(&p.format, "format", "", formatUsage())
}

// reconcilePoll is "journal reconcile INVOCATION --poll": the agents of
// --servers are registered, then harness.PollInvocation asks the A2A
// agent of the unknown invocation with one tasks/get (nothing is sent
// again) and records its answer. A refusal is exit 2; a task still
// working, waiting for input, or that the agent does not know leaves the
// invocation unknown (exit 1, saying so).
func (c *config) reconcilePoll(ctx context.Context, reg *tool.Registry, j *journal.Journal, id string, p pollFlags) error {
	if p.servers != "" {
		if _, err := c.registerServers(ctx, reg, p.servers, p.format, true); err != nil && errors.Is(err, tool.ErrFrozen) {
			return err
		}
	}
	res, err := harness.PollInvocation(ctx, j, reg, id)
	var refused *harness.PollRefusedError
	switch {
	case errors.As(err, &refused) && refused.NotRegistered:
		return usageErr("%s; pass --servers FILE with its entry (the file the call was made with)", refused.Msg)
	case errors.As(err, &refused):
		return badInput(errors.New(strings.ReplaceAll(refused.Msg, "record whether it was applied", "record it with --outcome applied|not_applied")))
	case err != nil:
		return errors.New(strings.ReplaceAll(err.Error(), "record whether it was applied", "record it with --outcome applied|not_applied"))
	}
	fmt.Fprintf(c.stdout, "invocation %s reconciled: %s (%s %q says task %s is %s%s)\n", id, res.Outcome, res.Kind, res.Agent, res.Task, res.State, harness.Quoted(res.Message))
	return nil
}

// taskHandles maps each A2A invocation of d to its journaled task ID
// (docs/journal.md#handles), for journal show.
func taskHandles(ctx context.Context, j *journal.Journal, d journal.SessionDetail) map[string]string {
	out := map[string]string{}
	for _, inv := range d.Invocations {
		if strings.HasPrefix(inv.Provider, harness.ProviderA2APrefix) || strings.HasPrefix(inv.Provider, "mcp:") {
			if h, err := j.Handle(ctx, inv.ID); err == nil && h != "" {
				out[inv.ID] = h
			}
		}
	}
	return out
}
