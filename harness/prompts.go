package harness

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/mcp"
)

// SessionPrompt is one prompt of an MCP provider the session's coworker
// uses (docs/mcp.md#prompts): Name is qualified like a tool,
// "namespace.prompt", split at the first ".".
type SessionPrompt struct {
	Name        string               `json:"name"`
	Namespace   string               `json:"namespace"`
	Title       string               `json:"title,omitempty"`
	Description string               `json:"description,omitempty"`
	Arguments   []mcp.PromptArgument `json:"arguments,omitempty"`

	remote mcp.Prompt
}

// promptNamespaces lists the MCP namespaces the session's tools come
// from, in selection order.
func (s *Session) promptNamespaces() []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range s.res.Tools {
		ns, ok := strings.CutPrefix(t.Provider, "mcp:")
		if ok && !seen[ns] {
			seen[ns] = true
			out = append(out, ns)
		}
	}
	return out
}

// Prompts lists the prompts of the MCP providers the session's coworker
// uses, by qualified name, each provider's at most mcp.MaxPrompts, each
// listing within mcp.PromptTimeout (providers are listed in parallel). A
// provider that fails to list is left out and its error is returned,
// joined, beside the prompts of the others; a provider without the
// prompts capability has none.
func (s *Session) Prompts(ctx context.Context) ([]SessionPrompt, error) {
	nss := s.promptNamespaces()
	lists := make([][]SessionPrompt, len(nss))
	errs := make([]error, len(nss))
	forEach(len(nss), s.rt.opts.Parallel, func(i int) { lists[i], errs[i] = s.providerPrompts(ctx, nss[i]) })
	var out []SessionPrompt
	for _, l := range lists {
		out = append(out, l...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errors.Join(errs...)
}

func (s *Session) providerPrompts(ctx context.Context, ns string) ([]SessionPrompt, error) {
	p, err := s.provider(ctx, ns)
	if err != nil {
		return nil, err
	}
	list, err := p.ListPrompts(ctx)
	if err != nil {
		return nil, fmt.Errorf("list the prompts of MCP provider %q: %w", ns, err)
	}
	out := make([]SessionPrompt, 0, len(list))
	for _, pr := range list {
		out = append(out, SessionPrompt{Name: ns + "." + pr.Name, Namespace: ns, Title: pr.Title, Description: pr.Description, Arguments: pr.Arguments, remote: pr})
	}
	return out, nil
}

// GetPrompt expands the prompt name ("namespace.prompt") with args: it
// lists the provider's prompts, checks args against the prompt's arguments
// (a missing required one, or one the prompt does not take, is an error
// naming it, before any prompts/get), and returns its messages as text
// (mcp.Provider.GetPrompt: bounded to 64 KiB, within 30 s). An unknown
// name is an error listing the prompts there are. PromptText makes the
// result a turn's user text.
func (s *Session) GetPrompt(ctx context.Context, name string, args map[string]string) (mcp.PromptResult, error) {
	ns, remote, ok := strings.Cut(name, ".")
	known := s.promptNamespaces()
	if !ok || ns == "" || remote == "" || !slices.Contains(known, ns) {
		all, err := s.Prompts(ctx)
		return mcp.PromptResult{}, unknownPrompt(name, all, err)
	}
	list, err := s.providerPrompts(ctx, ns)
	if err != nil {
		return mcp.PromptResult{}, err
	}
	for _, pr := range list {
		if pr.remote.Name != remote {
			continue
		}
		if err := pr.remote.CheckArgs(args); err != nil {
			return mcp.PromptResult{}, fmt.Errorf("%s: %w", name, err)
		}
		p, err := s.provider(ctx, ns)
		if err != nil {
			return mcp.PromptResult{}, err
		}
		return p.GetPrompt(ctx, remote, args)
	}
	all, err := s.Prompts(ctx)
	return mcp.PromptResult{}, unknownPrompt(name, all, err)
}

func unknownPrompt(name string, all []SessionPrompt, listErr error) error {
	names := make([]string, 0, len(all))
	for _, p := range all {
		names = append(names, p.Name)
	}
	have := "the coworker's providers offer no prompts"
	if len(names) > 0 {
		have = "the prompts are: " + strings.Join(names, ", ")
	}
	err := fmt.Errorf("no prompt %q (names are namespace.prompt, exact and case-sensitive); %s", name, have)
	if listErr != nil {
		err = fmt.Errorf("%w; some providers could not list theirs: %v", err, listErr)
	}
	return err
}

// PromptText is a prompt's messages as one user text for a turn
// (docs/mcp.md#prompts): the user messages as they are, separated by a
// blank line; an assistant message is kept as quoted context, a line
// "Assistant:" followed by its lines each prefixed with "> ", so the
// model reads it as part of what the person sends, not as its own reply.
func PromptText(res mcp.PromptResult) string {
	var parts []string
	for _, m := range res.Messages {
		text := strings.TrimRight(m.Text, "\n")
		if text == "" {
			continue
		}
		if m.Role == "assistant" {
			lines := strings.Split(text, "\n")
			for i, l := range lines {
				lines[i] = strings.TrimRight("> "+l, " ")
			}
			text = "Assistant:\n" + strings.Join(lines, "\n")
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, "\n\n")
}
