package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/openworker/desktop/harness/model"
)

// OllamaFound is what the first-run setup found of a local Ollama
// (docs/app.md#first-run).
type OllamaFound struct {
	// Running says that something answered at URL; false when the
	// connection was refused (nothing listens: Ollama is not running).
	Running bool `json:"running"`
	// URL is where Ollama was asked (its root, without /v1).
	URL string `json:"url"`
	// BaseURL is the OpenAI-compatible base URL chats use: URL + "/v1".
	BaseURL string `json:"base_url"`
	// Models are the names GET /api/tags listed, as Ollama lists them.
	Models []string `json:"models"`
	// Error says why no list came back, and what to do; "" when it did.
	Error string `json:"error"`
}

// ollamaProbeTimeout bounds the probe: Ollama on this computer answers its
// list at once, or nothing listens.
const ollamaProbeTimeout = 5 * time.Second

// maxOllamaList bounds the /api/tags answer read.
const maxOllamaList = 4 << 20

// FindOllama looks for Ollama on this computer (OLLAMA_HOST, else
// 127.0.0.1:11434) and lists its models with GET /api/tags. A failure is
// data (Error), not an error of the call: the setup shows it and offers
// the API-key path.
func (pr *Preferences) FindOllama() (OllamaFound, error) {
	ctx, cancel := context.WithTimeout(pr.base, ollamaProbeTimeout)
	defer cancel()
	f := probeOllama(ctx, http.DefaultClient, ollamaRoot(pr.cfg.Getenv))
	noteOllama(f) // e2e builds only (e2e_hook.go)
	return f, nil
}

// ollamaRoot is Ollama's address without /v1: the base URL the model
// package uses for Ollama (OLLAMA_HOST, else 127.0.0.1:11434), which only
// OLLAMA_HOST of the environment decides.
func ollamaRoot(getenv func(string) string) string {
	onlyHost := func(k string) string {
		if k == "OLLAMA_HOST" && getenv != nil {
			return getenv(k)
		}
		return ""
	}
	c := model.FromEnv(model.Config{Provider: model.ProviderOpenAI}, onlyHost)
	return strings.TrimSuffix(c.BaseURL, "/v1")
}

// probeOllama asks the Ollama at root for its models.
func probeOllama(ctx context.Context, client *http.Client, root string) OllamaFound {
	out := OllamaFound{URL: root, BaseURL: root + "/v1"}
	models, answered, err := ollamaTags(ctx, client, root+"/api/tags")
	out.Running = answered
	switch {
	case err == nil:
		out.Models = models
	case isConnRefused(err):
		out.Error = "Ollama is not running on this computer (nothing answers at " + root + "). Start it (ollama serve) and try again, or use an API key instead."
	default:
		out.Error = err.Error()
	}
	return out
}

// ollamaTags is GET url's list of model names ({"models":[{"name":…}]});
// answered says an HTTP answer came back (something listens).
func ollamaTags(ctx context.Context, client *http.Client, url string) (names []string, answered bool, err error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, false, fmt.Errorf("GET %s: %w", url, err)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, false, fmt.Errorf("could not reach Ollama: GET %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxOllamaList))
	if err != nil {
		return nil, true, fmt.Errorf("GET %s: reading the answer: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, true, fmt.Errorf("something at %s answered HTTP %d, not Ollama's model list: %s", url, resp.StatusCode, tagsSnippet(body))
	}
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &tags); err != nil {
		return nil, true, fmt.Errorf("something at %s answered, but not with Ollama's model list (%v): %s; is it Ollama?", url, err, tagsSnippet(body))
	}
	names = make([]string, 0, len(tags.Models))
	for _, m := range tags.Models {
		if n := strings.TrimSpace(m.Name); n != "" {
			names = append(names, n)
		} else if n := strings.TrimSpace(m.Model); n != "" {
			names = append(names, n)
		}
	}
	return names, true, nil
}

// tagsSnippet is the start of body, for an error message.
func tagsSnippet(body []byte) string {
	s := strings.TrimSpace(string(body))
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	if s == "" {
		return "(empty)"
	}
	return fmt.Sprintf("%q", s)
}

// wsaConnRefused is Windows' WSAECONNREFUSED, which syscall.ECONNREFUSED
// does not match there (as harness/model/refused.go).
const wsaConnRefused = syscall.Errno(10061)

// isConnRefused reports whether err is a refused TCP connection.
func isConnRefused(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || (runtime.GOOS == "windows" && errors.Is(err, wsaConnRefused))
}
