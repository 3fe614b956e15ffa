package app

import (
	"errors"
	"fmt"
	"strings"

	"github.com/openworker/desktop/harness/model"
)

// probeTimeout bounds ListModels and TestConnection (tests shorten it).
var probeTimeout = model.ProbeTimeout

// ModelList is the Settings model picker's list (docs/app.md#model-picker).
type ModelList struct {
	Provider string   `json:"provider"`
	BaseURL  string   `json:"base_url"` // where the list was asked, defaults applied
	API      string   `json:"api"`      // "openai", "ollama" or "anthropic": which list answered
	Models   []string `json:"models"`   // the model names, as the server lists them
}

// ConnectionTest is what Test connection found. A failure is data (OK
// false, Error), not an error of the call: the Settings screen shows it.
type ConnectionTest struct {
	OK       bool   `json:"ok"`
	Provider string `json:"provider"`
	BaseURL  string `json:"base_url"` // defaults applied
	Model    string `json:"model"`    // defaults applied
	// LatencyMS is the time of the request that answered, in whole
	// milliseconds (0: under 1 ms).
	LatencyMS int64  `json:"latency_ms"`
	Via       string `json:"via"` // "models" (the list answered) or "chat" (a 1-token request)
	// Listed says whether Model is in the server's list; meaningful when
	// Via is "models" and Models is not empty.
	Listed bool     `json:"listed"`
	Models []string `json:"models"`
	// Error is the exact failure: the request, the reason and the
	// server's message; never the API key.
	Error  string `json:"error"`
	Reason string `json:"reason"` // refused, dns, timeout, tls, network, http, body (model.Reason*)
	Status int    `json:"status"` // the HTTP status of a rejected request, or 0
	Advice string `json:"advice"` // what to do about it, when there is a usual fix
}

// ListModels asks the server of provider ("openai" or "anthropic") at
// baseURL ("" for the default, as in Settings) for its models. key is the
// API key to use, or "" for the stored one (keychain, then environment).
// Errors name the request and the reason, never the key. A success
// against the model in use also removes the model banner.
func (pr *Preferences) ListModels(provider, baseURL, key string) (ModelList, error) {
	c, err := pr.probeConfig(provider, baseURL, "", key)
	if err != nil {
		return ModelList{}, err
	}
	ctx, cancel := model.WithProbeTimeout(pr.base, probeTimeout)
	defer cancel()
	l, err := model.ListModels(ctx, c)
	if err != nil {
		return ModelList{}, fmt.Errorf("could not list the models: %w", err)
	}
	out := ModelList{Provider: c.Provider, BaseURL: c.BaseURL, API: l.API, Models: modelIDs(l)}
	pr.probed(c, &out, nil)
	return out, nil
}

// TestConnection sends one tiny request to the server of provider at
// baseURL with modelName (both "" for the defaults) and key ("" for the
// stored one): the models list, or a 1-token request when the server has
// no list (model.TestConnection). It reports the latency or the exact
// failure; the error is only for bad arguments.
func (pr *Preferences) TestConnection(provider, baseURL, modelName, key string) (ConnectionTest, error) {
	c, err := pr.probeConfig(provider, baseURL, modelName, key)
	if err != nil {
		return ConnectionTest{}, err
	}
	ctx, cancel := model.WithProbeTimeout(pr.base, probeTimeout)
	defer cancel()
	out := ConnectionTest{Provider: c.Provider, BaseURL: c.BaseURL, Model: c.Model}
	conn, err := model.TestConnection(ctx, c)
	var pe *model.ProbeError
	switch {
	case err == nil:
		out.OK, out.Via, out.LatencyMS = true, conn.Via, conn.Latency.Milliseconds()
		if conn.Listing != nil {
			out.Models, out.Listed = modelIDs(*conn.Listing), conn.Listing.Has(c.Model)
		}
	case errors.As(err, &pe):
		out.Error, out.Reason, out.Status = pe.Error(), pe.Reason, pe.StatusCode
		out.Advice = probeAdvice(c, pe)
	default:
		out.Error = err.Error()
	}
	var list *ModelList
	if out.OK && conn.Listing != nil {
		list = &ModelList{Provider: c.Provider, BaseURL: c.BaseURL, API: conn.Listing.API, Models: out.Models}
	}
	pr.probed(c, list, &out)
	return out, nil
}

// probeConfig is the model configuration Settings would build with these
// values (settings, key, environment defaults: modelConfig). key "" takes
// the stored key.
func (pr *Preferences) probeConfig(provider, baseURL, modelName, key string) (model.Config, error) {
	if err := checkProvider(provider); err != nil {
		return model.Config{}, err
	}
	baseURL = strings.TrimSpace(baseURL)
	s := Settings{Provider: provider}
	p := &s.OpenAI
	if provider == model.ProviderAnthropic {
		p = &s.Anthropic
	}
	p.BaseURL, p.Model = baseURL, strings.TrimSpace(modelName)
	if err := checkBaseURL(providerLabel(provider), baseURL); err != nil {
		return model.Config{}, err
	}
	if key = strings.TrimSpace(key); key != "" {
		c := model.Config{Provider: provider, BaseURL: p.BaseURL, Model: p.Model, APIKey: key}
		return model.FromEnv(c, pr.cfg.Getenv), nil
	}
	c, _ := pr.modelConfig(s) // a keychain that cannot be read: the environment may still have a key
	return c, nil
}

// probed records the last probe for the e2e hook and, when it reached
// the model in use, checks the model banner again, so that it goes on
// every screen once the server answers (modelState.apply's rule).
func (pr *Preferences) probed(c model.Config, list *ModelList, test *ConnectionTest) {
	noteProbe(list, test) // e2e builds only (e2e_hook.go)
	if (list != nil || test != nil && test.OK) && c.Provider == pr.settings.get().Provider && c.BaseURL == pr.model.current().baseURL {
		pr.model.recheck(false)
	}
}

// probeAdvice says what usually fixes a failed probe, or "".
func probeAdvice(c model.Config, pe *model.ProbeError) string {
	switch {
	case pe.Reason == model.ReasonRefused:
		return startModelAdvice(c.BaseURL) + "."
	case pe.StatusCode == 401 || pe.StatusCode == 403:
		return "Check the API key: save the right one in the key field (it is kept in the OS keychain) or set " + envKeyName(c.Provider) + "."
	case pe.StatusCode == 404:
		return "Check the base URL: OpenAI-compatible servers usually end in /v1; Anthropic's has none."
	case pe.Reason == model.ReasonTimeout:
		return "The server did not answer in time: check the address, or that it is not busy loading a model."
	case pe.Reason == model.ReasonDNS:
		return "Check the host name in the base URL."
	}
	return ""
}

func modelIDs(l model.Listing) []string {
	ids := make([]string, 0, len(l.Models))
	for _, m := range l.Models {
		ids = append(ids, m.ID)
	}
	return ids
}
