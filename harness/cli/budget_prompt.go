package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/openworker/desktop/harness"
	"github.com/openworker/desktop/harness/consent"
	"github.com/openworker/desktop/harness/inbox"
	"github.com/openworker/desktop/harness/journal"
)

// askBudget asks on the terminal whether a run that reached a limit goes
// on (docs/limits.md#budgets): "continue" or "stop". Without a terminal it
// cannot ask: the item is withdrawn and the run stops at budget (run
// --unattended parks instead).
func (p *terminalPrompter) askBudget(ctx context.Context, it journal.InboxItem) (string, error) {
	if !p.interactive {
		return "", fmt.Errorf("no terminal to ask whether the run goes on past its budget (inbox item %s)", it.ID)
	}
	var r harness.BudgetRequest
	_ = json.Unmarshal(it.Asked, &r)
	p.readMu.Lock()
	defer p.readMu.Unlock()
	p.startReading()
	p.lock.Lock()
	fmt.Fprintf(p.out, "\n%s\n", oneLine(r.Text, 300))
	p.lock.Unlock()
	d, err := p.choose(ctx, fmt.Sprintf("  [c] continue with %d more  [s] stop: ", r.More), "  please answer c or s\n",
		"the terminal closed before an answer; stopped", map[string]consent.Decision{
			"c": consent.AllowOnce, "continue": consent.AllowOnce, "y": consent.AllowOnce, "yes": consent.AllowOnce,
			"s": consent.Deny, "stop": consent.Deny, "n": consent.Deny, "no": consent.Deny,
		})
	if err != nil {
		return "", err
	}
	if d.Allows() {
		return "continue", nil
	}
	return "stop", nil
}

// terminalBudget is the budget asker of an attended terminal run: the
// terminal and any other answer to the inbox item, first one wins.
func terminalBudget(rt *harness.Runtime, p *terminalPrompter) harness.BudgetAsker {
	return &inbox.BudgetAsker{Inbox: inbox.New(rt.Journal(), nil), AskedBy: "terminal", Ask: p.askBudget}
}
