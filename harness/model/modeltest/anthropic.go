package modeltest

import (
	"encoding/json"
	"strconv"
)

// streamAnthropic writes the reply as Messages events: message_start, a
// text block (start, ping, text_delta pieces, stop), one tool_use block per
// call (start with input {}, input_json_delta pieces, stop), message_delta
// with the stop reason and usage, and message_stop.
func (a answer) streamAnthropic(s *sse) {
	if !s.send("message_start", map[string]any{"type": "message_start", "message": map[string]any{
		"id": "msg_modeltest_" + itoa(a.n), "type": "message", "role": "assistant", "content": []any{},
		"model": a.model, "stop_reason": nil, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": a.inTokens, "output_tokens": 1},
	}}) {
		return
	}
	index := 0
	if a.Text != "" {
		if !s.send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "text", "text": ""}}) ||
			!s.send("ping", map[string]any{"type": "ping"}) {
			return
		}
		for _, piece := range split(a.Text, a.chunk()) {
			if !s.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "text_delta", "text": piece}}) {
				return
			}
		}
		if !s.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}) {
			return
		}
		index++
	}
	for i, tc := range a.ToolCalls {
		if !s.send("content_block_start", map[string]any{"type": "content_block_start", "index": index,
			"content_block": map[string]any{"type": "tool_use", "id": a.callID("toolu", i), "name": tc.Name, "input": map[string]any{}}}) {
			return
		}
		for _, piece := range split(tc.Arguments, a.chunk()) {
			if !s.send("content_block_delta", map[string]any{"type": "content_block_delta", "index": index,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": piece}}) {
				return
			}
		}
		if !s.send("content_block_stop", map[string]any{"type": "content_block_stop", "index": index}) {
			return
		}
		index++
	}
	if !s.send("message_delta", map[string]any{"type": "message_delta",
		"delta": map[string]any{"stop_reason": a.anthropicStop(), "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": a.outTokens()}}) {
		return
	}
	s.send("message_stop", map[string]any{"type": "message_stop"})
}

func (a answer) anthropicStop() string {
	switch {
	case a.StopReason != "":
		return a.StopReason
	case len(a.ToolCalls) > 0:
		return "tool_use"
	default:
		return "end_turn"
	}
}

// anthropicMessage is the non-streamed message object. Arguments that are
// not a JSON object are sent as the input {}.
func (a answer) anthropicMessage() map[string]any {
	content := []any{}
	if a.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": a.Text})
	}
	for i, tc := range a.ToolCalls {
		var input map[string]any
		if json.Unmarshal([]byte(tc.Arguments), &input) != nil || input == nil {
			input = map[string]any{}
		}
		content = append(content, map[string]any{"type": "tool_use", "id": a.callID("toolu", i), "name": tc.Name, "input": input})
	}
	return map[string]any{
		"id": "msg_modeltest_" + itoa(a.n), "type": "message", "role": "assistant", "model": a.model,
		"content": content, "stop_reason": a.anthropicStop(), "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": a.inTokens, "output_tokens": a.outTokens()},
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
