package mcp

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Prompt bounds (docs/mcp.md#prompts).
const (
	// MaxPrompts is how many prompts ListPrompts returns of one provider;
	// the rest are left out (and logged).
	MaxPrompts = 200
	// MaxPromptText bounds the text of one prompt's messages, in bytes,
	// placeholders included: a longer prompt is an error (ErrPromptTooLong).
	MaxPromptText = 64 << 10
	// PromptTimeout bounds one prompts/list (all its pages) or prompts/get.
	PromptTimeout = 30 * time.Second
)

// ErrPromptTooLong is wrapped by GetPrompt when the prompt's text passes
// MaxPromptText.
var ErrPromptTooLong = errors.New("the prompt is longer than 64 KiB")

// Prompt is one prompt a provider offers (prompts/list), with the server's
// secrets redacted. Name is the remote name, without the namespace.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments,omitempty"`
}

// PromptArgument is one argument of a prompt. Values are strings (MCP).
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// CheckArgs checks args against the prompt's arguments before a request:
// every required argument must have a non-empty value, and every argument
// given must be one the prompt names. The error names the argument and
// the ones the prompt takes.
func (pr Prompt) CheckArgs(args map[string]string) error {
	known := make([]string, 0, len(pr.Arguments))
	for _, a := range pr.Arguments {
		known = append(known, a.Name)
		if a.Required && strings.TrimSpace(args[a.Name]) == "" {
			return fmt.Errorf("prompt %q needs the argument %q%s", pr.Name, a.Name, describeArg(a))
		}
	}
	var unknown []string
	for k := range args {
		if !slices.Contains(known, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		takes := "no arguments"
		if len(known) > 0 {
			takes = "the arguments " + strings.Join(known, ", ")
		}
		return fmt.Errorf("prompt %q has no argument %q; it takes %s", pr.Name, unknown[0], takes)
	}
	return nil
}

func describeArg(a PromptArgument) string {
	if a.Description == "" {
		return ""
	}
	return " (" + a.Description + ")"
}

// PromptMessage is one message of a prompt as text: Role is "user" or
// "assistant"; an image, audio, resource or resource link block is a
// placeholder line naming it, e.g. "[image: image/png]",
// "[resource: test://static/resource/1 (text/plain)]".
type PromptMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}

// PromptResult is what prompts/get returned, as text.
type PromptResult struct {
	Description string          `json:"description,omitempty"`
	Messages    []PromptMessage `json:"messages"`
}

// ListPrompts returns the provider's prompts (prompts/list, following
// pagination up to 100 pages), at most MaxPrompts, in the server's order,
// within PromptTimeout. A server that does not declare the prompts
// capability has none (nil, nil).
func (p *Provider) ListPrompts(ctx context.Context) ([]Prompt, error) {
	out, err := p.listPrompts(ctx)
	return out, p.secrets.err(err)
}

func (p *Provider) listPrompts(ctx context.Context) ([]Prompt, error) {
	if !p.Alive() {
		return nil, p.deadError("prompts/list")
	}
	if !p.offersPrompts() {
		return nil, nil
	}
	ctx, cancel := context.WithTimeoutCause(ctx, PromptTimeout, fmt.Errorf("no answer within %v", PromptTimeout))
	defer cancel()
	var (
		out    []Prompt
		params = &sdk.ListPromptsParams{}
		r      = p.secrets
	)
	for page := 0; ; page++ {
		if page == maxCatalogPages {
			return nil, fmt.Errorf("mcp provider %q: prompts/list returned more than %d pages", p.srv.Namespace, maxCatalogPages)
		}
		var res *sdk.ListPromptsResult
		err := p.request(ctx, "prompts/list", false, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
			res, err = cs.ListPrompts(ctx, params)
			return err
		})
		if err != nil {
			return nil, p.callError(ctx, "prompts/list", err)
		}
		for _, pr := range res.Prompts {
			if len(out) == MaxPrompts {
				p.opts.Logger.Warn("mcp provider lists too many prompts; the rest are left out", "namespace", p.srv.Namespace, "max", MaxPrompts)
				return out, nil
			}
			if pr == nil {
				continue
			}
			q := Prompt{Name: r.text(pr.Name), Title: r.text(pr.Title), Description: r.text(pr.Description)}
			for _, a := range pr.Arguments {
				if a != nil {
					q.Arguments = append(q.Arguments, PromptArgument{Name: r.text(a.Name), Title: r.text(a.Title), Description: r.text(a.Description), Required: a.Required})
				}
			}
			out = append(out, q)
		}
		if res.NextCursor == "" {
			return out, nil
		}
		params = &sdk.ListPromptsParams{Cursor: res.NextCursor}
	}
}

// offersPrompts reports whether the server declared the prompts
// capability in its handshake.
func (p *Provider) offersPrompts() bool {
	res := p.conn.Load().cs.InitializeResult()
	return res != nil && res.Capabilities != nil && res.Capabilities.Prompts != nil
}

// GetPrompt sends prompts/get for the prompt name (the remote name) with
// args, within PromptTimeout, and returns its messages as text with the
// server's secrets redacted. It does not check args: Prompt.CheckArgs does,
// before. A prompt whose text passes MaxPromptText is an error wrapping
// ErrPromptTooLong; a server's error answer is returned as an error.
func (p *Provider) GetPrompt(ctx context.Context, name string, args map[string]string) (PromptResult, error) {
	out, err := p.getPrompt(ctx, name, args)
	return out, p.secrets.err(err)
}

func (p *Provider) getPrompt(ctx context.Context, name string, args map[string]string) (PromptResult, error) {
	if !p.Alive() {
		return PromptResult{}, p.deadError("prompts/get")
	}
	ctx, cancel := context.WithTimeoutCause(ctx, PromptTimeout, fmt.Errorf("no answer within %v", PromptTimeout))
	defer cancel()
	var res *sdk.GetPromptResult
	err := p.request(ctx, "prompts/get", false, func(ctx context.Context, cs *sdk.ClientSession) (err error) {
		res, err = cs.GetPrompt(ctx, &sdk.GetPromptParams{Name: name, Arguments: args})
		return err
	})
	if err != nil {
		return PromptResult{}, p.callError(ctx, fmt.Sprintf("prompts/get %q", name), err)
	}
	out := PromptResult{Description: p.secrets.text(res.Description)}
	size := 0
	for _, m := range res.Messages {
		if m == nil {
			continue
		}
		text := p.secrets.text(contentText(m.Content))
		size += len(text)
		if size > MaxPromptText {
			return PromptResult{}, fmt.Errorf("mcp provider %q: prompt %q: %w (%d messages); ask its author for a shorter one", p.srv.Namespace, name, ErrPromptTooLong, len(res.Messages))
		}
		out.Messages = append(out.Messages, PromptMessage{Role: string(m.Role), Text: text})
	}
	return out, nil
}

// contentText is a prompt message's content as text: the text of a text
// block, a placeholder line naming any other block.
func contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return "[image: " + orUnknown(c.MIMEType) + "]"
	case *sdk.AudioContent:
		return "[audio: " + orUnknown(c.MIMEType) + "]"
	case *sdk.ResourceLink:
		return "[resource link: " + c.URI + mimeSuffix(c.MIMEType) + "]"
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "[resource]"
		}
		return "[resource: " + c.Resource.URI + mimeSuffix(c.Resource.MIMEType) + "]"
	case nil:
		return ""
	default:
		return fmt.Sprintf("[content: %T]", c)
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown type"
	}
	return s
}

func mimeSuffix(mime string) string {
	if mime == "" {
		return ""
	}
	return " (" + mime + ")"
}
