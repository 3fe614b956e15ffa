package modeltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/openworker/desktop/harness/model"
)

// ScriptFormat describes the script file ParseScript reads (scriptmodel -h
// prints it). Unknown fields are errors, so a typo does not silently change
// a test.
const ScriptFormat = `A script file is JSON: an array of replies, or {"replies": [...]}, one
reply per model request, in order. Each reply has the optional fields
  "text":        "streamed text",
  "tool_calls":  [{"id": "optional", "name": "ns__tool", "arguments": {"any": "JSON"}}],
  "err":         500,                  HTTP status to fail the request with
  "err_message": "shown to the client",
  "delay":       "250ms",              Go duration, or a number of milliseconds
  "chunk":       3,                    bytes per streamed piece
  "stop_reason": "stop",
  "input_tokens": 1200,                the usage reported (default: counted from
  "output_tokens": 300                 the request's and reply's length)
A tool call's "name" is the tool's alias: every "." of NAMESPACE.TOOL becomes
"__". "arguments" may be JSON or a string sent verbatim. Example:
  [{"tool_calls": [{"name": "device__battery_status_get", "arguments": {}}]},
   {"text": "The battery is fine."}]
`

// ParseScript decodes a script (ScriptFormat). Errors name the reply index.
func ParseScript(data []byte) ([]Reply, error) {
	data = bytes.TrimSpace(data)
	var raw []json.RawMessage
	if len(data) > 0 && data[0] == '{' {
		var doc struct {
			Replies []json.RawMessage `json:"replies"`
		}
		if err := strictUnmarshal(data, &doc); err != nil {
			return nil, fmt.Errorf("script: %v (want an array of replies or {\"replies\": [...]})", err)
		}
		raw = doc.Replies
	} else if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("script: %v (want an array of replies or {\"replies\": [...]})", err)
	}
	replies := make([]Reply, len(raw))
	for i, r := range raw {
		if err := replies[i].UnmarshalJSON(r); err != nil {
			return nil, fmt.Errorf("script: replies[%d]: %v", i, err)
		}
	}
	return replies, nil
}

// LoadScript reads and parses a script file; errors name the file.
func LoadScript(path string) ([]Reply, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	replies, err := ParseScript(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return replies, nil
}

// UnmarshalJSON decodes one reply of a script file (see ParseScript).
func (r *Reply) UnmarshalJSON(data []byte) error {
	var w struct {
		Text      string `json:"text"`
		ToolCalls []struct {
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"tool_calls"`
		Err        int             `json:"err"`
		ErrMessage string          `json:"err_message"`
		Delay      json.RawMessage `json:"delay"`
		Chunk      int             `json:"chunk"`
		StopReason string          `json:"stop_reason"`
		// The usage reported (Reply.InputTokens, Reply.OutputTokens).
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	}
	if err := strictUnmarshal(data, &w); err != nil {
		return err
	}
	*r = Reply{Text: w.Text, Err: w.Err, ErrMessage: w.ErrMessage, Chunk: w.Chunk, StopReason: w.StopReason, InputTokens: w.InputTokens, OutputTokens: w.OutputTokens}
	if w.InputTokens < 0 || w.OutputTokens < 0 {
		return fmt.Errorf("input_tokens %d, output_tokens %d: a count is never negative", w.InputTokens, w.OutputTokens)
	}
	if w.Err != 0 && (w.Err < 400 || w.Err > 599) {
		return fmt.Errorf("err %d is not an HTTP error status (400-599)", w.Err)
	}
	if len(w.Delay) > 0 {
		var s string
		var ms float64
		switch {
		case json.Unmarshal(w.Delay, &s) == nil:
			d, err := time.ParseDuration(s)
			if err != nil {
				return fmt.Errorf("delay: %v (want a Go duration such as \"250ms\")", err)
			}
			r.Delay = d
		case json.Unmarshal(w.Delay, &ms) == nil:
			r.Delay = time.Duration(ms * float64(time.Millisecond))
		default:
			return fmt.Errorf("delay %s is neither a duration string nor milliseconds", w.Delay)
		}
	}
	for i, tc := range w.ToolCalls {
		if tc.Name == "" {
			return fmt.Errorf("tool_calls[%d]: no name", i)
		}
		args := string(tc.Arguments)
		var s string
		if json.Unmarshal(tc.Arguments, &s) == nil {
			args = s
		}
		r.ToolCalls = append(r.ToolCalls, model.ToolCall{ID: tc.ID, Name: tc.Name, Arguments: args})
	}
	return nil
}

func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
