package modeltest

import "time"

// streamOpenAI writes the reply as Chat Completions chunks: a role chunk,
// text pieces, for each tool call a chunk with its id and name and then its
// argument pieces, a finish chunk, an optional usage chunk, and [DONE].
func (a answer) streamOpenAI(s *sse, includeUsage bool) {
	id := "chatcmpl-modeltest-" + itoa(a.n)
	created := time.Now().Unix()
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{
			"id": id, "object": "chat.completion.chunk", "created": created, "model": a.model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}},
		}
	}
	if !s.send("", chunk(map[string]any{"role": "assistant", "content": ""}, nil)) {
		return
	}
	for _, piece := range split(a.Text, a.chunk()) {
		if !s.send("", chunk(map[string]any{"content": piece}, nil)) {
			return
		}
	}
	for i, tc := range a.ToolCalls {
		start := map[string]any{"index": i, "id": a.callID("call", i), "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": ""}}
		if !s.send("", chunk(map[string]any{"tool_calls": []any{start}}, nil)) {
			return
		}
		for _, piece := range split(tc.Arguments, a.chunk()) {
			part := map[string]any{"index": i, "function": map[string]any{"arguments": piece}}
			if !s.send("", chunk(map[string]any{"tool_calls": []any{part}}, nil)) {
				return
			}
		}
	}
	if !s.send("", chunk(map[string]any{}, a.openAIStop())) {
		return
	}
	if includeUsage {
		out := a.outTokens()
		if !s.send("", map[string]any{"id": id, "object": "chat.completion.chunk", "created": created, "model": a.model,
			"choices": []any{}, "usage": map[string]any{"prompt_tokens": a.inTokens, "completion_tokens": out, "total_tokens": a.inTokens + out}}) {
			return
		}
	}
	s.send("", "[DONE]")
}

func (a answer) openAIStop() string {
	switch {
	case a.StopReason != "":
		return a.StopReason
	case len(a.ToolCalls) > 0:
		return "tool_calls"
	default:
		return "stop"
	}
}

// openAIMessage is the non-streamed chat.completion object.
func (a answer) openAIMessage() map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil}
	if a.Text != "" {
		msg["content"] = a.Text
	}
	if len(a.ToolCalls) > 0 {
		calls := make([]any, len(a.ToolCalls))
		for i, tc := range a.ToolCalls {
			calls[i] = map[string]any{"id": a.callID("call", i), "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}}
		}
		msg["tool_calls"] = calls
	}
	out := a.outTokens()
	return map[string]any{
		"id": "chatcmpl-modeltest-" + itoa(a.n), "object": "chat.completion", "created": time.Now().Unix(), "model": a.model,
		"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": a.openAIStop(), "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": a.inTokens, "completion_tokens": out, "total_tokens": a.inTokens + out},
	}
}
