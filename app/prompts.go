package app

import (
	"github.com/openworker/desktop/harness"
)

// ChatPrompt is one MCP prompt a chat's composer offers as a "/" command
// (docs/app.md#prompts): Name is "namespace.prompt".
type ChatPrompt struct {
	Name        string      `json:"name"`
	Title       string      `json:"title"`
	Description string      `json:"description"`
	Arguments   []PromptArg `json:"arguments"`
}

// PromptArg is one argument of a prompt; values are strings.
type PromptArg struct {
	Name        string `json:"name"`
	Title       string `json:"title"`
	Description string `json:"description"`
	Required    bool   `json:"required"`
}

// ChatPrompts lists the prompts of the MCP providers the chat's coworker
// uses, sorted by name, each provider's at most 200, within 30 s per
// provider (docs/mcp.md#prompts). A provider that cannot list its prompts
// is logged and left out: the list is what could be had. Errors are for
// an unknown chat.
func (c *Chats) ChatPrompts(sessionID string) ([]ChatPrompt, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return nil, err
	}
	list, err := s.Prompts(c.base)
	if err != nil {
		c.log.Warn("chat prompts", "session", sessionID, "err", err)
	}
	out := make([]ChatPrompt, 0, len(list))
	for _, p := range list {
		cp := ChatPrompt{Name: p.Name, Title: p.Title, Description: p.Description, Arguments: []PromptArg{}}
		for _, arg := range p.Arguments {
			cp.Arguments = append(cp.Arguments, PromptArg{Name: arg.Name, Title: arg.Title, Description: arg.Description, Required: arg.Required})
		}
		out = append(out, cp)
	}
	return out, nil
}

// ExpandPrompt gets the prompt name of the chat's providers with args and
// returns its text for the composer (harness.PromptText: assistant
// messages quoted as context); nothing is sent. Errors name a missing
// required argument, an argument the prompt does not take, an unknown
// prompt (listing those there are), a prompt longer than 64 KiB or the
// server's own error.
func (c *Chats) ExpandPrompt(sessionID, name string, args map[string]string) (string, error) {
	s, err := c.engine.chat(sessionID)
	if err != nil {
		return "", err
	}
	res, err := s.GetPrompt(c.base, name, args)
	if err != nil {
		return "", err
	}
	return harness.PromptText(res), nil
}
