package model

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// ToolNamePattern is the tool-name rule of both the OpenAI
// function-calling API and the Anthropic Messages API: what a tool's model
// alias must match (docs/registry.md#model-alias).
const ToolNamePattern = `^[a-zA-Z0-9_-]{1,64}$`

var toolNameRE = regexp.MustCompile(ToolNamePattern)

// NameRule is a model provider's rule for the tool names (model aliases) a
// request may carry. Every Provider is one; ToolNames returns one without
// building a provider (no key, address or model needed).
type NameRule interface {
	// Name is the provider's name ("openai", "anthropic"), or AnyProvider
	// for SharedToolNames.
	Name() string
	// CheckToolName returns nil when alias fits the rule, else an error
	// naming the alias, why it fails and the rule (ToolNamePattern).
	CheckToolName(alias string) error
}

// AnyProvider is the Name of SharedToolNames.
const AnyProvider = "any"

// SharedToolNames is the rule every provider shares (ToolNamePattern):
// what applies when no provider is configured, as in `openworker check`
// without --provider.
var SharedToolNames NameRule = nameRule(AnyProvider)

// ToolNames returns the tool-name rule of the provider named ("openai",
// "anthropic"); "" returns SharedToolNames. Another name is an error
// wrapping ErrConfig.
func ToolNames(provider string) (NameRule, error) {
	switch provider {
	case "":
		return SharedToolNames, nil
	case ProviderOpenAI, ProviderAnthropic:
		return nameRule(provider), nil
	}
	return nil, fmt.Errorf("%w: unknown provider %q (want %q or %q)", ErrConfig, provider, ProviderOpenAI, ProviderAnthropic)
}

// nameRule is the rule of the provider it names (or AnyProvider).
type nameRule string

func (r nameRule) Name() string                     { return string(r) }
func (r nameRule) CheckToolName(alias string) error { return checkToolName(string(r), alias) }

// checkToolName reports whether alias fits toolNameRE, naming the alias,
// the rule that failed and the provider (AnyProvider: both of them).
func checkToolName(provider, alias string) error {
	if toolNameRE.MatchString(alias) {
		return nil
	}
	var why string
	switch {
	case alias == "":
		why = "it is empty"
	case len(alias) > 64:
		why = fmt.Sprintf("it is %d bytes long, more than 64", len(alias))
	default:
		for _, r := range alias {
			if !(r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
				why = fmt.Sprintf("it contains %q", r)
				break
			}
		}
	}
	who := "the " + provider + " provider"
	if provider == AnyProvider {
		who = "the model providers (openai, anthropic)"
	}
	return fmt.Errorf("tool alias %q is not accepted by %s: %s; tool names must match %s", alias, who, why, ToolNamePattern)
}

// Limits on one response, so that a misbehaving or hostile endpoint cannot
// make a provider hold unbounded memory. Exceeding one ends the attempt
// with an error wrapping ErrResponseTooLarge.
const (
	// MaxToolCalls is the most tool calls accepted in one response. The
	// harness itself runs far fewer per turn (docs/turns.md: 64); the rest are
	// returned so that it can refuse them and journal the refusal.
	MaxToolCalls = 16384
	// MaxResponseBytes bounds the text plus all tool names and arguments of
	// one response.
	MaxResponseBytes = 32 << 20
)

// ErrResponseTooLarge is wrapped by the error Stream returns when a response
// exceeds MaxToolCalls or MaxResponseBytes.
var ErrResponseTooLarge = errors.New("model response too large")

// RequestError is the error Stream returns when the request or its stream
// fails for any reason other than the caller's context. Its message names
// the endpoint and model, never the API key.
type RequestError struct {
	Provider string // "openai" or "anthropic"
	BaseURL  string // with any password redacted
	Model    string
	// StatusCode is the HTTP status of a rejected request, or 0 (network
	// failure, broken stream, limit exceeded).
	StatusCode int
	// Detail is a short description safe to show a user: the server's own
	// error message when it gave one (at most 500 bytes), else the cause.
	Detail string
	// Err is the underlying error (an SDK or network error), for errors.Is/As.
	Err error
}

func (e *RequestError) Error() string {
	return fmt.Sprintf("model request to %s (%s model %s) failed: %s", e.BaseURL, e.Provider, e.Model, e.Detail)
}

func (e *RequestError) Unwrap() error { return e.Err }

// maxDetail bounds RequestError.Detail.
const maxDetail = 500

// requestError builds a RequestError, scrubbing key from every string.
func requestError(provider, baseURL, model, key string, status int, detail string, err error) error {
	detail = strings.TrimSpace(detail)
	if detail == "" && err != nil {
		detail = err.Error()
	}
	if status != 0 {
		prefix := fmt.Sprintf("HTTP %d", status)
		if detail == "" {
			detail = prefix
		} else {
			detail = prefix + ": " + detail
		}
	}
	detail = redactKey(detail, key)
	if len(detail) > maxDetail {
		detail = detail[:maxDetail] + "..."
	}
	return &RequestError{
		Provider:   provider,
		BaseURL:    redactKey(RedactURL(baseURL), key),
		Model:      model,
		StatusCode: status,
		Detail:     detail,
		Err:        err,
	}
}

// redactKey replaces key in s. Short keys ("ollama") are not secrets worth
// mangling messages for.
func redactKey(s, key string) string {
	for _, k := range []string{key, strings.TrimSpace(key)} { // the header sends it trimmed
		if len(k) >= 8 {
			s = strings.ReplaceAll(s, k, "[redacted]")
		}
	}
	return s
}
