package model

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Provider names accepted in Config.Provider.
const (
	ProviderOpenAI    = "openai"
	ProviderAnthropic = "anthropic"
)

// Defaults used by FromEnv and New when a field is empty.
const (
	// DefaultOllamaHost is where Ollama listens unless OLLAMA_HOST says otherwise.
	DefaultOllamaHost = "http://127.0.0.1:11434"
	// OllamaAPIKey is sent to Ollama, which ignores it; the OpenAI SDK wants a key.
	OllamaAPIKey = "ollama"
	// DefaultOllamaModel is the model asked of Ollama when none is given.
	DefaultOllamaModel = "llama3.2"
	// DefaultOpenAIBaseURL is the OpenAI endpoint used when a key is set but no base URL.
	DefaultOpenAIBaseURL = "https://api.openai.com/v1"
	// DefaultOpenAIModel is the model asked of an OpenAI-compatible endpoint
	// other than Ollama when none is given.
	DefaultOpenAIModel = "gpt-4o-mini"
	// DefaultAnthropicBaseURL is the Anthropic endpoint (the SDK appends "v1/messages").
	DefaultAnthropicBaseURL = "https://api.anthropic.com"
	// DefaultAnthropicModel is the Anthropic model asked when none is given.
	DefaultAnthropicModel = "claude-sonnet-4-5"
	// DefaultAnthropicMaxTokens is max_tokens for Anthropic when Request.MaxTokens is 0.
	DefaultAnthropicMaxTokens = 4096
)

// Config says which provider to talk to and how. The zero value plus FromEnv
// is the usual way to fill it.
type Config struct {
	// Provider is "openai" (the default when empty) or "anthropic".
	Provider string
	// BaseURL is the API root: "http://127.0.0.1:11434/v1" for an
	// OpenAI-compatible server (the SDK appends "chat/completions"),
	// "https://api.anthropic.com" for Anthropic (the SDK appends "v1/messages").
	BaseURL string
	// Model is the model name sent with each request; required by New.
	Model string
	// APIKey is sent as a bearer token. It never appears in errors or Describe.
	APIKey string
	// HTTPClient, when non-nil, carries every request (tests, proxies).
	// Timeouts belong to the caller's context, not to this client.
	HTTPClient *http.Client
}

// FromEnv returns c with its empty fields filled the way the ecosystem's own
// tools fill them (docs/cli.md#environment-variables). getenv is usually os.Getenv; tests pass a fake.
// Fields already set are kept.
//
// For "openai" (or empty Provider):
//   - APIKey from OPENAI_API_KEY, BaseURL from OPENAI_BASE_URL;
//   - if neither the key nor the base URL is known (from c or the
//     environment), the target is Ollama: BaseURL is OLLAMA_HOST (default
//     http://127.0.0.1:11434; "host:port" without a scheme gets "http://";
//     a bare ":port" means 127.0.0.1) plus "/v1", APIKey "ollama", and the
//     default Model "llama3.2";
//   - with a key but no base URL, BaseURL is https://api.openai.com/v1;
//   - the default Model otherwise is "gpt-4o-mini".
//
// For "anthropic": APIKey from ANTHROPIC_API_KEY, BaseURL from
// ANTHROPIC_BASE_URL (default https://api.anthropic.com), Model
// "claude-sonnet-4-5".
//
// An unknown Provider is left alone for New to reject.
func FromEnv(c Config, getenv func(string) string) Config {
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	env := func(k string) string { return strings.TrimSpace(getenv(k)) }
	switch c.Provider {
	case "", ProviderOpenAI:
		c.Provider = ProviderOpenAI
		if c.APIKey == "" {
			c.APIKey = env("OPENAI_API_KEY")
		}
		if c.BaseURL == "" {
			c.BaseURL = env("OPENAI_BASE_URL")
		}
		switch {
		case c.APIKey == "" && c.BaseURL == "":
			c.BaseURL = ollamaBaseURL(env("OLLAMA_HOST"))
			c.APIKey = OllamaAPIKey
			if c.Model == "" {
				c.Model = DefaultOllamaModel
			}
		case c.BaseURL == "":
			c.BaseURL = DefaultOpenAIBaseURL
		}
		if c.Model == "" {
			c.Model = DefaultOpenAIModel
		}
	case ProviderAnthropic:
		if c.APIKey == "" {
			c.APIKey = env("ANTHROPIC_API_KEY")
		}
		if c.BaseURL == "" {
			c.BaseURL = env("ANTHROPIC_BASE_URL")
		}
		if c.BaseURL == "" {
			c.BaseURL = DefaultAnthropicBaseURL
		}
		if c.Model == "" {
			c.Model = DefaultAnthropicModel
		}
	}
	return c
}

// ollamaBaseURL turns an OLLAMA_HOST value into an OpenAI-compatible base URL.
// Ollama accepts "host", "host:port", ":port" and full URLs.
func ollamaBaseURL(host string) string {
	if host == "" {
		host = DefaultOllamaHost
	}
	if !strings.Contains(host, "://") {
		if strings.HasPrefix(host, ":") {
			host = "127.0.0.1" + host
		}
		if !strings.Contains(host, ":") || strings.HasSuffix(host, "]") {
			host += ":11434"
		}
		host = "http://" + host
	}
	host = strings.TrimRight(host, "/")
	return strings.TrimSuffix(host, "/v1") + "/v1"
}

// ErrConfig is wrapped by every error New returns for a bad Config.
var ErrConfig = errors.New("model: bad configuration")

// New returns the Provider c describes. It does not read the environment
// (call FromEnv first) and makes no network request. Errors wrap ErrConfig:
// an unknown provider, an empty model, a base URL that is not an absolute
// http(s) URL. An empty BaseURL means the provider's public endpoint.
func New(c Config) (Provider, error) {
	c, err := endpoint(c)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(c.Model) == "" {
		return nil, fmt.Errorf("%w: no model name for provider %s at %s (set a model name)", ErrConfig, c.Provider, RedactURL(c.BaseURL))
	}
	// The hosted APIs need a key: say so before any request leaves the
	// machine. Local and compatible endpoints may take none.
	if strings.TrimSpace(c.APIKey) == "" {
		switch {
		case c.Provider == ProviderAnthropic && c.BaseURL == DefaultAnthropicBaseURL:
			return nil, fmt.Errorf("%w: the Anthropic API needs a key: set ANTHROPIC_API_KEY (or use the base URL of a compatible local endpoint)", ErrConfig)
		case c.Provider == ProviderOpenAI && c.BaseURL == DefaultOpenAIBaseURL:
			return nil, fmt.Errorf("%w: the OpenAI API needs a key: set OPENAI_API_KEY (or use the base URL of a local endpoint such as Ollama)", ErrConfig)
		}
	}
	if c.Provider == ProviderAnthropic {
		return newAnthropic(c), nil
	}
	return newOpenAI(c), nil
}

// RedactURL is s with the password of its user info hidden, also when s
// does not parse as a URL: for errors that quote a base URL.
func RedactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		// Unparsable, yet it may hold "user:password@": cut what is
		// between "://" and the last "@" before the path.
		if i := strings.Index(s, "://"); i >= 0 {
			rest := s[i+3:]
			end := strings.IndexAny(rest, "/?#")
			if end < 0 {
				end = len(rest)
			}
			if at := strings.LastIndex(rest[:end], "@"); at >= 0 {
				return s[:i+3] + "xxxxx@" + rest[at+1:]
			}
		}
		return s
	}
	if u.User == nil {
		return s
	}
	return u.Redacted()
}
