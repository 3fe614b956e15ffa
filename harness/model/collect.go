package model

import (
	"fmt"
	"strconv"
	"strings"
)

// collector assembles one streamed response: text and tool calls whose
// names and arguments arrive in pieces, keyed by the index the provider
// gives each call (OpenAI tool_calls[].index, Anthropic content block index).
// It enforces MaxToolCalls and MaxResponseBytes. Not safe for concurrent use.
type collector struct {
	text    strings.Builder
	calls   []*callBuilder
	byIndex map[int64]int // provider index → position in calls
	size    int           // bytes of text, names and arguments so far
}

type callBuilder struct {
	id, name string
	args     strings.Builder
	// fallback is used as the arguments when no argument piece arrived
	// (an Anthropic content_block_start that already carried the input).
	fallback string
}

func (c *collector) grow(n int) error {
	c.size += n
	if c.size > MaxResponseBytes {
		return fmt.Errorf("%w: more than %d bytes of text and tool arguments", ErrResponseTooLarge, MaxResponseBytes)
	}
	return nil
}

func (c *collector) addText(s string) error {
	if err := c.grow(len(s)); err != nil {
		return err
	}
	c.text.WriteString(s)
	return nil
}

// call returns the call at provider index i, starting a new one when i is
// new or when id names a different call than the one already at i (some
// OpenAI-compatible servers send every call with index 0 and distinct ids).
// The map keeps a sparse or hostile index from allocating anything but one
// entry.
func (c *collector) call(i int64, id string) (*callBuilder, error) {
	if pos, ok := c.byIndex[i]; ok {
		cb := c.calls[pos]
		if id == "" || cb.id == "" || cb.id == id {
			if cb.id == "" {
				cb.id = id
			}
			return cb, nil
		}
	}
	if len(c.calls) >= MaxToolCalls {
		return nil, fmt.Errorf("%w: more than %d tool calls in one reply", ErrResponseTooLarge, MaxToolCalls)
	}
	if err := c.grow(len(id)); err != nil {
		return nil, err
	}
	if c.byIndex == nil {
		c.byIndex = make(map[int64]int)
	}
	cb := &callBuilder{id: id}
	c.byIndex[i] = len(c.calls)
	c.calls = append(c.calls, cb)
	return cb, nil
}

// addName records a name piece. A repeat of the whole name (servers that
// send it with every chunk) is not appended twice.
func (c *collector) addName(cb *callBuilder, s string) error {
	if s == "" || s == cb.name {
		return nil
	}
	if err := c.grow(len(s)); err != nil {
		return err
	}
	cb.name += s
	return nil
}

func (c *collector) addArgs(cb *callBuilder, s string) error {
	if err := c.grow(len(s)); err != nil {
		return err
	}
	cb.args.WriteString(s)
	return nil
}

// toolCalls returns the calls in the order they started. A call without an
// id gets "call_N" (N its position) so a tool result can answer it; empty
// arguments become "{}" (no arguments). Malformed arguments are returned
// as sent: the harness decides what to do with them.
func (c *collector) toolCalls() []ToolCall {
	if len(c.calls) == 0 {
		return nil
	}
	out := make([]ToolCall, len(c.calls))
	for i, cb := range c.calls {
		args := cb.args.String()
		if args == "" {
			args = cb.fallback
		}
		if strings.TrimSpace(args) == "" {
			args = "{}"
		}
		id := cb.id
		if id == "" {
			id = "call_" + strconv.Itoa(i)
		}
		out[i] = ToolCall{ID: id, Name: cb.name, Arguments: args}
	}
	return out
}
