package consent

// SamplingRequest is what a sampling prompt shows (docs/consent.md#sampling):
// an MCP server asks the session's model for a completion during a call.
// A Request whose Sampling is set is such a prompt: Tool, Provider and
// Placement name the call that asks; Arguments hold this same value as
// JSON, so a host that knows no sampling variant still shows it all.
//
// Only AllowOnce and Deny are offered; any allowing Decision is taken as
// AllowOnce (no grant, no saved policy), and Bypass does not answer it.
type SamplingRequest struct {
	Namespace  string `json:"namespace"`             // the provider that asks
	ServerName string `json:"server_name,omitempty"` // from its initialize answer
	// Messages are sent to the model as they are shown: Role "user" or
	// "assistant", Text with images and audio as placeholders (not sent).
	Messages     []SamplingMessage `json:"messages"`
	SystemPrompt string            `json:"system_prompt,omitempty"`
	// MaxTokens is what the model may answer with: the server's maxTokens,
	// capped (harness.MaxSamplingTokens); AskedMaxTokens is the server's.
	MaxTokens      int   `json:"max_tokens"`
	AskedMaxTokens int64 `json:"asked_max_tokens"`
	// Model says which model answers: the session's model.Provider.Describe().
	Model string `json:"model"`
	// Invocation is the id of the asking call's invocation; Seq counts the
	// call's sampling requests from 1.
	Invocation string `json:"invocation"`
	Seq        int    `json:"seq"`
}

// SamplingMessage is one message of a SamplingRequest.
type SamplingMessage struct {
	Role string `json:"role"`
	Text string `json:"text"`
}
