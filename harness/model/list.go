package model

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"
)

// Bounds of a probe (ListModels, TestConnection), docs/app.md#model-picker.
const (
	// ProbeTimeout bounds one probe when the caller's context has no
	// earlier deadline.
	ProbeTimeout = 10 * time.Second
	// MaxListBytes bounds the body of a model list; a larger answer is a
	// ProbeError with ReasonBody.
	MaxListBytes = 4 << 20
	// maxErrorBody bounds what is read of an error answer for its message.
	maxErrorBody = 64 << 10
	// AnthropicVersion is the anthropic-version header of the models list.
	AnthropicVersion = "2023-06-01"
)

// APIs a Listing can come from.
const (
	APIOpenAI    = "openai"    // GET {base}/models, {"data":[{"id":...}]}
	APIOllama    = "ollama"    // GET {root}/api/tags, {"models":[{"name":...}]}
	APIAnthropic = "anthropic" // GET {base}/v1/models, {"data":[{"id":...,"display_name":...}]}
)

// ListedModel is one model of a server's list.
type ListedModel struct {
	ID   string `json:"id"`             // the name to put in Config.Model
	Name string `json:"name,omitempty"` // a display name, when the server gives one (Anthropic)
}

// Listing is a server's list of models.
type Listing struct {
	API     string        `json:"api"` // APIOpenAI, APIOllama or APIAnthropic: which list answered
	URL     string        `json:"url"` // the request that answered (password redacted)
	Models  []ListedModel `json:"models"`
	Latency time.Duration `json:"-"` // from sending the request to the end of the body
}

// datedID is an Anthropic model ID with its date suffix ("-20250929").
var datedID = regexp.MustCompile(`-[0-9]{8}$`)

// Has reports whether name is a model of the list, as the server would
// take it: the exact ID; for Ollama "NAME" for "NAME:latest" (and back);
// for Anthropic an alias without the date suffix ("claude-sonnet-4-5" for
// "claude-sonnet-4-5-20250929"); "models/NAME" for NAME (Gemini's list).
func (l Listing) Has(name string) bool {
	name = strings.TrimSpace(name)
	if name == "" {
		return false
	}
	for _, m := range l.Models {
		id := m.ID
		switch {
		case id == name, id == "models/"+name,
			strings.TrimSuffix(id, ":latest") == strings.TrimSuffix(name, ":latest"),
			datedID.MatchString(id) && strings.TrimSuffix(id, datedID.FindString(id)) == name:
			return true
		}
	}
	return false
}

// ListModels asks the server c describes for its models, with one GET
// (two for an Ollama without the OpenAI-compatible list):
//   - "openai": GET {BaseURL}/models, as the client builds its URLs
//     ("chat/completions" after the base, so a base without /v1 gets
//     none); when that answers 404 or 405 or with something that is not a
//     list, Ollama's GET {BaseURL without /v1}/api/tags is tried, and its
//     list is returned if it answers; otherwise the first error;
//   - "anthropic": GET {BaseURL}/v1/models?limit=1000 with x-api-key and
//     anthropic-version.
//
// The key goes as a bearer token (openai) or x-api-key (anthropic), never
// in an error. The probe ends after ProbeTimeout or the context's
// deadline, whichever is first; a body over MaxListBytes is refused.
// Failures are *ProbeError (reason refused, dns, timeout, tls, http with
// the server's message, body); a cancelled ctx returns ctx.Err(); a bad
// Config wraps ErrConfig.
func ListModels(ctx context.Context, c Config) (Listing, error) {
	c, err := endpoint(c)
	if err != nil {
		return Listing{}, err
	}
	pctx, budget, cancel := probeContext(ctx)
	defer cancel()
	base := strings.TrimRight(c.BaseURL, "/")
	if c.Provider == ProviderAnthropic {
		return getList(pctx, ctx, c, budget, APIAnthropic, base+"/v1/models?limit=1000")
	}
	l, err := getList(pctx, ctx, c, budget, APIOpenAI, base+"/models")
	var pe *ProbeError
	if errors.As(err, &pe) && (pe.Reason == ReasonBody || pe.Reason == ReasonHTTP && (pe.StatusCode == 404 || pe.StatusCode == 405)) {
		if ol, oerr := getList(pctx, ctx, c, budget, APIOllama, strings.TrimSuffix(base, "/v1")+"/api/tags"); oerr == nil {
			return ol, nil
		}
	}
	return l, err
}

// endpoint applies the provider's default base URL and HTTP client and
// checks the provider and the URL: what New and the probes (ListModels,
// TestConnection) share. Errors wrap ErrConfig.
func endpoint(c Config) (Config, error) {
	switch c.Provider {
	case "", ProviderOpenAI:
		c.Provider = ProviderOpenAI
		if c.BaseURL == "" {
			c.BaseURL = DefaultOpenAIBaseURL
		}
	case ProviderAnthropic:
		if c.BaseURL == "" {
			c.BaseURL = DefaultAnthropicBaseURL
		}
	default:
		return c, fmt.Errorf("%w: unknown provider %q (want %q or %q)", ErrConfig, c.Provider, ProviderOpenAI, ProviderAnthropic)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return c, fmt.Errorf("%w: base URL %q for provider %s is not an absolute http:// or https:// URL", ErrConfig, RedactURL(c.BaseURL), c.Provider)
	}
	if c.HTTPClient == nil {
		c.HTTPClient = &http.Client{}
	}
	return c, nil
}

// keyStaysHome is client, following a redirect only to the same host (and
// never from https to http): Go drops Authorization on a redirect to
// another host but not x-api-key, Anthropic's key header.
func keyStaysHome(client *http.Client) *http.Client {
	c := *client
	next := c.CheckRedirect
	c.CheckRedirect = func(r *http.Request, via []*http.Request) error {
		from := via[0].URL
		if r.URL.Host != from.Host || from.Scheme == "https" && r.URL.Scheme != "https" {
			return fmt.Errorf("the server redirects to %s; not followed, so the API key is not sent there (use that address as the base URL if it is the server)", RedactURL(r.URL.String()))
		}
		if next != nil {
			return next(r, via)
		}
		if len(via) >= 10 {
			return errors.New("stopped after 10 redirects")
		}
		return nil
	}
	return &c
}

// probeContext bounds a probe by ProbeTimeout or ctx's earlier deadline,
// and returns the bound for the timeout message.
func probeContext(ctx context.Context) (context.Context, time.Duration, context.CancelFunc) {
	budget := ProbeTimeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < budget {
		budget = time.Until(dl)
		if outer, ok := ctx.Value(probeBudgetKey{}).(time.Duration); ok {
			// A probe inside a probe (TestConnection's ListModels) names
			// the outer bound, not what was left of it.
			pctx, cancel := context.WithTimeout(ctx, budget)
			return pctx, outer, cancel
		}
	}
	pctx, cancel := context.WithTimeout(ctx, budget)
	budget = budget.Round(time.Millisecond)
	return context.WithValue(pctx, probeBudgetKey{}, budget), budget, cancel
}

// probeBudgetKey holds the bound a probe's context was given.
type probeBudgetKey struct{}

// WithProbeTimeout bounds the probes run with the returned context by d,
// and a timeout error names d itself, however late the probe starts on a
// busy machine.
func WithProbeTimeout(parent context.Context, d time.Duration) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithTimeout(parent, d)
	return context.WithValue(ctx, probeBudgetKey{}, d.Round(time.Millisecond)), cancel
}

// getList GETs one list and decodes it as api's shape. caller is the
// caller's context: its cancellation is returned as is.
func getList(ctx, caller context.Context, c Config, budget time.Duration, api, rawURL string) (Listing, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return Listing{}, fmt.Errorf("%w: %v", ErrConfig, redactKey(err.Error(), c.APIKey))
	}
	req.Header.Set("Accept", "application/json")
	if key := strings.TrimSpace(c.APIKey); key != "" {
		if api == APIAnthropic {
			req.Header.Set("x-api-key", key)
		} else {
			req.Header.Set("Authorization", "Bearer "+key)
		}
	}
	if api == APIAnthropic {
		req.Header.Set("anthropic-version", AnthropicVersion)
	}
	start := time.Now()
	resp, err := keyStaysHome(c.HTTPClient).Do(req)
	if err != nil {
		if caller.Err() == context.Canceled {
			return Listing{}, caller.Err()
		}
		return Listing{}, probeFail(http.MethodGet, rawURL, c.APIKey, budget, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		// Scrubbed before it is cut short: a key across the cut would not match.
		body = []byte(redactKey(string(body), c.APIKey))
		return Listing{}, httpFail(http.MethodGet, rawURL, c.APIKey, ReasonHTTP, resp.StatusCode, serverMessage(body))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxListBytes+1))
	if err != nil {
		if caller.Err() == context.Canceled {
			return Listing{}, caller.Err()
		}
		return Listing{}, probeFail(http.MethodGet, rawURL, c.APIKey, budget, err)
	}
	if len(body) > MaxListBytes {
		return Listing{}, httpFail(http.MethodGet, rawURL, c.APIKey, ReasonBody, resp.StatusCode,
			fmt.Sprintf("the answer is larger than %d MiB, too large for a model list", MaxListBytes>>20))
	}
	models, err := decodeList(api, body)
	if err != nil {
		_, err = decodeList(api, []byte(redactKey(string(body), c.APIKey))) // its message quotes the body: scrubbed first
		return Listing{}, httpFail(http.MethodGet, rawURL, c.APIKey, ReasonBody, resp.StatusCode, err.Error())
	}
	return Listing{API: api, URL: redactKey(RedactURL(rawURL), c.APIKey), Models: models, Latency: time.Since(start)}, nil
}

// decodeList reads api's list shape; a body without the list's key, or
// entries without a name, is an error naming the expected shape.
func decodeList(api string, body []byte) ([]ListedModel, error) {
	type entry struct {
		ID          string `json:"id"`
		Name        string `json:"name"`
		Model       string `json:"model"`
		DisplayName string `json:"display_name"`
	}
	var doc struct {
		Data   *[]entry `json:"data"`
		Models *[]entry `json:"models"`
	}
	list, want := &doc.Data, `{"data": [{"id": "..."}]}`
	if api == APIOllama {
		list, want = &doc.Models, `{"models": [{"name": "..."}]}`
	}
	if err := json.Unmarshal(body, &doc); err != nil || *list == nil {
		return nil, fmt.Errorf("the answer is not a model list (want %s): %s", want, snippet(body))
	}
	out := make([]ListedModel, 0, len(**list))
	for _, e := range **list {
		m := ListedModel{ID: e.ID, Name: e.DisplayName}
		if api == APIOllama {
			m.ID = e.Name
			if m.ID == "" {
				m.ID = e.Model
			}
		}
		if m.ID == "" {
			continue
		}
		out = append(out, m)
	}
	return out, nil
}

// serverMessage is the error message of an error body: OpenAI's and
// Anthropic's {"error":{"message":...}}, Ollama's {"error":"..."},
// {"message":...} or {"detail":...}; else the body's text, on one line.
func serverMessage(body []byte) string {
	var doc struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  any             `json:"detail"`
	}
	if json.Unmarshal(body, &doc) == nil {
		var s string
		var obj struct {
			Message string `json:"message"`
		}
		switch {
		case json.Unmarshal(doc.Error, &s) == nil && s != "":
			return s
		case json.Unmarshal(doc.Error, &obj) == nil && obj.Message != "":
			return obj.Message
		case doc.Message != "":
			return doc.Message
		case doc.Detail != nil:
			if s, ok := doc.Detail.(string); ok {
				return s
			}
			b, _ := json.Marshal(doc.Detail)
			return string(b)
		}
	}
	return snippet(body)
}

// snippet is the start of body on one line, for messages.
func snippet(body []byte) string {
	s := strings.Join(strings.Fields(string(bytes.ToValidUTF8(body[:min(len(body), 200)], nil))), " ")
	if s == "" {
		return "(empty body)"
	}
	if len(body) > 200 {
		s += "..."
	}
	return s
}
