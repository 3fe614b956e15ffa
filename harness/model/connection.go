package model

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
)

// How TestConnection reached the server, in Connection.Via.
const (
	ViaModels = "models" // the models list answered (ListModels)
	ViaChat   = "chat"   // a 1-token request to Config.Model answered
)

// Connection is what a successful TestConnection measured.
type Connection struct {
	Via     string        // ViaModels or ViaChat
	Latency time.Duration // of the request that answered
	// Listing is the server's list when Via is ViaModels; Listing.Has
	// says whether Config.Model is in it.
	Listing *Listing
}

// TestConnection checks that the server c describes answers, with the
// key: it lists the models (ListModels; free, and it loads no model).
// When the server has no models list (HTTP 404 or 405) and c.Model is
// set, it sends one 1-token request to that model instead, exactly as a
// turn would (the provider's Stream), so a wrong model name or key shows
// there. Errors are those of ListModels: *ProbeError naming the request,
// the reason and the server's message, never the key; the same bounds
// (ProbeTimeout, MaxListBytes) apply.
func TestConnection(ctx context.Context, c Config) (Connection, error) {
	c, err := endpoint(c)
	if err != nil {
		return Connection{}, err
	}
	pctx, budget, cancel := probeContext(ctx)
	defer cancel()
	l, err := ListModels(pctx, c)
	if err == nil {
		return Connection{Via: ViaModels, Latency: l.Latency, Listing: &l}, nil
	}
	if !chatFallback(c, err) {
		if ctx.Err() == context.Canceled {
			return Connection{}, ctx.Err()
		}
		return Connection{}, err
	}
	p, err := New(c)
	if err != nil {
		return Connection{}, err
	}
	start := time.Now()
	_, err = p.Stream(pctx, Request{Messages: []Message{{Role: User, Text: "ping"}}, MaxTokens: 1}, nil)
	if err == nil {
		return Connection{Via: ViaChat, Latency: time.Since(start)}, nil
	}
	if ctx.Err() == context.Canceled {
		return Connection{}, ctx.Err()
	}
	return Connection{}, chatProbeError(c, budget, err)
}

// chatFallback says whether the models list failed for want of one (HTTP
// 404 or 405) and c names a model to send the 1-token request to instead.
func chatFallback(c Config, listErr error) bool {
	var pe *ProbeError
	return strings.TrimSpace(c.Model) != "" && errors.As(listErr, &pe) && pe.Reason == ReasonHTTP &&
		(pe.StatusCode == 404 || pe.StatusCode == 405)
}

// chatProbeError turns the 1-token request's error into a *ProbeError
// naming that request, as ListModels would have: an HTTP status, a
// network failure, the probe's time budget, or a body that was not an
// answer; anything else is returned as it is.
func chatProbeError(c Config, budget time.Duration, err error) error {
	chatURL := strings.TrimRight(c.BaseURL, "/") + "/chat/completions"
	if c.Provider == ProviderAnthropic {
		chatURL = strings.TrimRight(c.BaseURL, "/") + "/v1/messages"
	}
	var re *RequestError
	switch {
	case errors.As(err, &re) && re.StatusCode != 0:
		e := httpFail(http.MethodPost, chatURL, c.APIKey, ReasonHTTP, re.StatusCode, "")
		e.Detail, e.Err = re.Detail, err // Detail is "HTTP 401: ..." already, scrubbed
		return e
	case errors.As(err, &re) && re.Err != nil && !errors.Is(re.Err, ErrResponseTooLarge):
		return probeFail(http.MethodPost, chatURL, c.APIKey, budget, re.Err)
	case errors.Is(err, context.DeadlineExceeded):
		return probeFail(http.MethodPost, chatURL, c.APIKey, budget, err)
	case errors.As(err, &re):
		e := httpFail(http.MethodPost, chatURL, c.APIKey, ReasonBody, 0, re.Detail)
		e.Err = err
		return e
	}
	return err
}
