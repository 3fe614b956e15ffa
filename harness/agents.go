package harness

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/bundle"
	"github.com/openworker/desktop/harness/elicit"
	"github.com/openworker/desktop/harness/mcp"
	"github.com/openworker/desktop/harness/tool"
)

// ProviderA2APrefix starts the provider of an A2A agent's skill:
// "a2a:<namespace>" (docs/a2a.md).
const ProviderA2APrefix = "a2a:"

// agentCard is one A2A agent's card as read for a resolution.
type agentCard struct {
	agent *a2a.Agent
	err   error
}

// agentCards reads the cards of the A2A agents a selection names (its
// whole providers and the namespaces of its names), at most
// Options.Parallel at once, each bounded by a2a.DefaultCardTimeout. Every
// agent namespace gets an entry; failures are in its err.
func (rt *Runtime) agentCards(ctx context.Context, reg *tool.Registry, whole, names []string) map[string]*agentCard {
	var unique []tool.A2AAgent
	seen := map[string]bool{}
	add := func(ns string) {
		if a, ok := reg.Agent(ns); ok && !seen[ns] {
			seen[ns] = true
			unique = append(unique, a)
		}
	}
	for _, ns := range whole {
		add(ns)
	}
	for _, name := range names {
		if ns, _, err := tool.SplitName(name); err == nil {
			add(ns)
		}
	}
	list := make([]*agentCard, len(unique))
	forEach(len(unique), rt.opts.Parallel, func(i int) {
		ag, err := a2a.Fetch(ctx, unique[i], rt.opts.A2A)
		list[i] = &agentCard{agent: ag, err: err}
	})
	out := make(map[string]*agentCard, len(unique))
	for i, a := range unique {
		out[a.Namespace] = list[i]
	}
	return out
}

// agentSkills lists the skill ids of an agent's card, sorted.
func agentSkills(ag *a2a.Agent) []string {
	var out []string
	for _, s := range ag.Skills() {
		out = append(out, s.ID)
	}
	sort.Strings(out)
	return out
}

// resolveSkill resolves the selected name ns.skill of an A2A agent: the
// skill must be on the card as read now. The descriptor digest is the
// card's (docs/a2a.md#identity), so a changed card never inherits an
// approval.
func resolveSkill(b *bundle.Bundle, cards map[string]*agentCard, name, ns, skill string) (ResolvedTool, *ResolveError) {
	c := cards[ns]
	if c == nil || c.err != nil {
		msg := "its agent card could not be read"
		var cause error
		if c != nil {
			msg, cause = c.err.Error(), c.err
		}
		e := resolveErr(b, name, msg)
		e.Provider, e.StartFailed, e.cause = ns, true, cause
		return ResolvedTool{}, e
	}
	for _, s := range c.agent.Skills() {
		if s.ID != skill {
			continue
		}
		rt := ResolvedTool{Name: name, Provider: ProviderA2APrefix + ns, Remote: skill, Placement: c.agent.Placement(), Descriptor: s.Descriptor.WithDefaults(), agent: c.agent}
		return rt, nil
	}
	var listed []string
	for _, id := range agentSkills(c.agent) {
		listed = append(listed, ns+"."+id)
	}
	return ResolvedTool{}, resolveErr(b, name, fmt.Sprintf("the card of A2A agent %q lists no skill %q (names are exact and case-sensitive); it lists: %s", ns, skill, listNames(listed)))
}

// answerForm is the form an A2A agent's question is asked with: one
// text field.
var answerForm = func() *elicit.Form {
	f, err := elicit.Parse(json.RawMessage(`{"type":"object","properties":{"answer":{"type":"string","title":"Your answer"}},"required":["answer"]}`))
	if err != nil {
		panic(err)
	}
	return f
}()

// callAgent makes the one A2A call of rt: the task ID is journaled as the
// invocation's handle as soon as the agent returns it
// (docs/a2a.md#durable-handles), status updates go to c.Progress, and an
// input-required question is asked with the elicitation dialog of MCP
// (docs/a2a.md#questions), under its rules: never in bypass mode, at most
// elicit.MaxPerCall, journaled without the answer.
func (t *turn) callAgent(ctx context.Context, rt *ResolvedTool, c *tool.Call, args json.RawMessage, invID string) (tool.Output, error) {
	j := t.s.rt.journal
	asker := t.asker(invID, c.CallID, rt.Name)
	ns, _, _ := tool.SplitName(rt.Name)
	return rt.agent.Call(ctx, rt.Remote, args, a2a.Hooks{
		Task: func(id string) {
			if err := j.SetHandle(ctx, invID, id); err != nil {
				t.s.rt.opts.Logger.Error("journal the A2A task ID", "invocation", invID, "task", id, "err", err)
			}
		},
		Progress: c.Progress,
		Ask: func(ctx context.Context, question string) (string, bool) {
			ans := asker.Ask(ctx, mcp.Asked{Namespace: ns, ServerName: rt.agent.Card().Name, Message: question, Form: answerForm, Mode: elicit.ModeForm})
			text, ok := ans.Content["answer"].(string)
			return text, ans.Action == elicit.Accept && ok
		},
	})
}

// agentLeftOut is the LeftOut of a skill of a whole A2A agent.
func agentLeftOut(l LeftOut, ns string) LeftOut {
	l.Provider = ProviderA2APrefix + ns
	l.Message = strings.Replace(l.Message, "of MCP provider", "of A2A agent", 1)
	l.Message = strings.Replace(l.Message, "the other tools of the provider", "the other skills of the agent", 1)
	return l
}

// agentFix is the advice for a bundle whose A2A agent's card could not
// be read.
func agentFix(a tool.A2AAgent) string {
	return fmt.Sprintf("check that A2A agent %q is running and answers at its card URL %s with the headers of %s; the card must be a JSON agent card of at most 1 MB (docs/a2a.md#cards)",
		a.Namespace, a2a.RedactURL(a.Card), orDefault(a.Source, "its registration"))
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
