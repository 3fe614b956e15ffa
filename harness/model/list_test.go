package model_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/model"
	"github.com/openworker/desktop/harness/model/modeltest"
)

// probeKey is long enough to be scrubbed (short keys such as "ollama" are not secrets).
const probeKey = "sk-test-0123456789abcdef"

// probeErr asserts err is a *model.ProbeError with reason and a message
// containing want, and without the key.
func probeErr(t *testing.T, err error, reason string, want ...string) *model.ProbeError {
	t.Helper()
	var pe *model.ProbeError
	if !errors.As(err, &pe) {
		t.Fatalf("error = %v (%T); want a *model.ProbeError", err, err)
	}
	if pe.Reason != reason {
		t.Errorf("reason = %q (%v); want %q", pe.Reason, err, reason)
	}
	for _, w := range want {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not contain %q", err, w)
		}
	}
	if strings.Contains(err.Error(), probeKey) || strings.Contains(fmt.Sprintf("%+v", *pe), probeKey) {
		t.Errorf("error %q holds the API key", err)
	}
	return pe
}

// server serves h on 127.0.0.1 until the test ends.
func server(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}

func TestListModelsOpenAI(t *testing.T) {
	srv := modeltest.NewOpenAI(t)
	srv.SetModels("llama3.2:latest", "qwen2.5:7b")
	l, err := model.ListModels(context.Background(), model.Config{BaseURL: srv.URL, APIKey: probeKey})
	if err != nil {
		t.Fatal(err)
	}
	if l.API != model.APIOpenAI || l.URL != srv.URL+"/models" || len(l.Models) != 2 || l.Models[1].ID != "qwen2.5:7b" {
		t.Errorf("listing = %+v; want the two models from GET %s/models", l, srv.URL)
	}
	if srv.Remaining() != 0 || len(srv.Requests()) != 0 {
		t.Errorf("listing was recorded as a model request")
	}
	// The key goes as a bearer token; a base with a trailing slash gets one "/models".
	var auth, path string
	base := server(t, func(w http.ResponseWriter, r *http.Request) {
		auth, path = r.Header.Get("Authorization"), r.URL.Path
		fmt.Fprint(w, `{"object":"list","data":[{"id":"m1","object":"model"}]}`)
	})
	if _, err := model.ListModels(context.Background(), model.Config{BaseURL: base + "/v1/", APIKey: probeKey}); err != nil {
		t.Fatal(err)
	}
	if auth != "Bearer "+probeKey || path != "/v1/models" {
		t.Errorf("request had Authorization %q, path %q; want the bearer key and /v1/models", auth, path)
	}
}

// An Ollama without the OpenAI-compatible list (404) is asked for its
// tags at the root, with or without /v1 in the base URL.
func TestListModelsOllamaTags(t *testing.T) {
	var asked []string
	base := server(t, func(w http.ResponseWriter, r *http.Request) {
		asked = append(asked, r.URL.Path)
		if r.URL.Path != "/api/tags" {
			http.NotFound(w, r) // Ollama answers 404 "404 page not found" in text
			return
		}
		fmt.Fprint(w, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189,"details":{"family":"llama"}},{"name":"","model":"mistral:7b"}]}`)
	})
	for _, b := range []string{base + "/v1", base} {
		asked = nil
		l, err := model.ListModels(context.Background(), model.Config{BaseURL: b, APIKey: model.OllamaAPIKey})
		if err != nil {
			t.Fatalf("base %s: %v", b, err)
		}
		if l.API != model.APIOllama || len(l.Models) != 2 || l.Models[0].ID != "llama3.2:latest" || l.Models[1].ID != "mistral:7b" {
			t.Errorf("base %s: listing = %+v; want Ollama's two tags", b, l)
		}
		if len(asked) != 2 || asked[1] != "/api/tags" {
			t.Errorf("base %s: asked %v; want the models list, then /api/tags", b, asked)
		}
		if !l.Has("llama3.2") || l.Has("llama3") {
			t.Errorf("Has: llama3.2 → %v, llama3 → %v; want the :latest tag to match only its name", l.Has("llama3.2"), l.Has("llama3"))
		}
	}
}

func TestListModelsAnthropic(t *testing.T) {
	srv := modeltest.NewAnthropic(t)
	srv.SetModels("claude-sonnet-4-5-20250929", "claude-haiku-4-5-20251001")
	l, err := model.ListModels(context.Background(), model.Config{Provider: model.ProviderAnthropic, BaseURL: srv.URL, APIKey: probeKey})
	if err != nil {
		t.Fatal(err)
	}
	if l.API != model.APIAnthropic || len(l.Models) != 2 || l.Models[0].Name != "claude-sonnet-4-5-20250929" {
		t.Errorf("listing = %+v", l)
	}
	if !l.Has("claude-sonnet-4-5") || !l.Has("claude-haiku-4-5-20251001") || l.Has("claude-sonnet-4") || l.Has("claude-opus-4-5") {
		t.Errorf("Has: an alias without the date must match its model, and nothing else")
	}
	var key, version, path string
	base := server(t, func(w http.ResponseWriter, r *http.Request) {
		key, version, path = r.Header.Get("x-api-key"), r.Header.Get("anthropic-version"), r.URL.RequestURI()
		fmt.Fprint(w, `{"data":[{"type":"model","id":"claude-x-20250101","display_name":"Claude X"}],"has_more":false,"first_id":"a","last_id":"a"}`)
	})
	l, err = model.ListModels(context.Background(), model.Config{Provider: model.ProviderAnthropic, BaseURL: base, APIKey: probeKey})
	if err != nil || l.Models[0].Name != "Claude X" {
		t.Fatalf("listing = %+v, %v", l, err)
	}
	if key != probeKey || version != model.AnthropicVersion || path != "/v1/models?limit=1000" {
		t.Errorf("request had x-api-key %q, anthropic-version %q, path %q", key, version, path)
	}
}

// A 401 names the status and the server's message, with the key the
// server echoed scrubbed; no Ollama fallback is tried.
func TestListModelsUnauthorized(t *testing.T) {
	srv := modeltest.NewOpenAI(t)
	srv.FailModels(401, "Incorrect API key provided: "+probeKey+". Find your key at the dashboard.")
	_, err := model.ListModels(context.Background(), model.Config{BaseURL: srv.URL, APIKey: probeKey})
	pe := probeErr(t, err, model.ReasonHTTP, "GET "+srv.URL+"/models: HTTP 401: Incorrect API key provided: [redacted]")
	if pe.StatusCode != 401 {
		t.Errorf("status = %d", pe.StatusCode)
	}
	// Anthropic's error shape, and Ollama's {"error": "..."}.
	a := modeltest.NewAnthropic(t)
	a.FailModels(401, "invalid x-api-key")
	_, err = model.ListModels(context.Background(), model.Config{Provider: model.ProviderAnthropic, BaseURL: a.URL, APIKey: probeKey})
	probeErr(t, err, model.ReasonHTTP, "HTTP 401: invalid x-api-key")
	base := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusForbidden)
		fmt.Fprint(w, `{"error":"model access denied"}`)
	})
	_, err = model.ListModels(context.Background(), model.Config{BaseURL: base + "/v1"})
	probeErr(t, err, model.ReasonHTTP, "HTTP 403: model access denied")
}

func TestListModelsRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	_, err = model.ListModels(context.Background(), model.Config{BaseURL: "http://" + addr + "/v1", APIKey: probeKey})
	probeErr(t, err, model.ReasonRefused, "GET http://"+addr+"/v1/models: connection refused: nothing listens at "+addr)
}

// A server that never answers ends the probe at the context's deadline,
// and the error names the bound.
func TestListModelsTimeout(t *testing.T) {
	release := make(chan struct{})
	base := server(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := model.ListModels(ctx, model.Config{BaseURL: base + "/v1", APIKey: probeKey})
	probeErr(t, err, model.ReasonTimeout, "timeout: no answer within ")
	// Cancelling is not a failure of the server: ctx.Err() as is.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := model.ListModels(ctx, model.Config{BaseURL: base + "/v1"}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled probe = %v; want context.Canceled", err)
	}
}

func TestListModelsBadBodies(t *testing.T) {
	huge := server(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `{"data":[{"id":"`)
		w.Write([]byte(strings.Repeat("x", model.MaxListBytes)))
		fmt.Fprint(w, `"}]}`)
	})
	_, err := model.ListModels(context.Background(), model.Config{Provider: model.ProviderAnthropic, BaseURL: huge, APIKey: probeKey})
	probeErr(t, err, model.ReasonBody, "larger than 4 MiB")

	var paths []string
	garbage := server(t, func(w http.ResponseWriter, r *http.Request) {
		paths = append(paths, r.URL.Path)
		fmt.Fprint(w, "<html><body>Welcome to nginx! key "+probeKey+"</body></html>")
	})
	_, err = model.ListModels(context.Background(), model.Config{BaseURL: garbage + "/v1", APIKey: probeKey})
	probeErr(t, err, model.ReasonBody, "/v1/models: the answer is not a model list", "<html><body>Welcome to nginx! key [redacted]")
	if len(paths) != 2 || paths[1] != "/api/tags" {
		t.Errorf("asked %v; want the models list, then Ollama's tags", paths)
	}
	wrong := server(t, func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"object":"list"}`) })
	_, err = model.ListModels(context.Background(), model.Config{BaseURL: wrong})
	probeErr(t, err, model.ReasonBody, `want {"data": [{"id": "..."}]}`)
}

func TestListModelsTLS(t *testing.T) {
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, `{"data":[]}`) }))
	s.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	s.StartTLS()
	defer s.Close()
	_, err := model.ListModels(context.Background(), model.Config{BaseURL: s.URL + "/v1", APIKey: probeKey})
	probeErr(t, err, model.ReasonTLS, "TLS: the server's certificate is not trusted")
	// https:// to a plain http server.
	plain := server(t, func(w http.ResponseWriter, r *http.Request) {})
	_, err = model.ListModels(context.Background(), model.Config{BaseURL: strings.Replace(plain, "http://", "https://", 1)})
	probeErr(t, err, model.ReasonTLS, "TLS: ")
}

// A host name that does not resolve is named as such. The resolver's
// answer is given by the dialer: no query leaves the machine.
func TestListModelsDNS(t *testing.T) {
	hc := &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
		return nil, &net.OpError{Op: "dial", Net: network, Err: &net.DNSError{Err: "no such host", Name: "models.invalid", IsNotFound: true}}
	}}}
	_, err := model.ListModels(context.Background(), model.Config{BaseURL: "http://models.invalid/v1", APIKey: probeKey, HTTPClient: hc})
	probeErr(t, err, model.ReasonDNS, `DNS: the host name "models.invalid" does not resolve (no such host)`)
}

func TestListModelsBadConfig(t *testing.T) {
	for _, c := range []model.Config{{BaseURL: "127.0.0.1:11434"}, {Provider: "gemini", BaseURL: "http://127.0.0.1:1"}} {
		if _, err := model.ListModels(context.Background(), c); !errors.Is(err, model.ErrConfig) {
			t.Errorf("ListModels(%+v) = %v; want ErrConfig", c, err)
		}
	}
}

func TestConnection(t *testing.T) {
	srv := modeltest.NewOpenAI(t, modeltest.Reply{Text: "pong"})
	srv.SetModels("scripted")
	c, err := model.TestConnection(context.Background(), model.Config{BaseURL: srv.URL, Model: "scripted", APIKey: probeKey})
	if err != nil {
		t.Fatal(err)
	}
	if c.Via != model.ViaModels || c.Listing == nil || !c.Listing.Has("scripted") || c.Latency <= 0 {
		t.Errorf("connection = %+v; want it through the models list, with a latency", c)
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("the test sent %d chat requests; want none while the list answers", len(srv.Requests()))
	}
	// No models list: one 1-token request to the model.
	srv.FailModels(404, "no such route")
	c, err = model.TestConnection(context.Background(), model.Config{BaseURL: srv.URL, Model: "scripted", APIKey: probeKey})
	if err != nil || c.Via != model.ViaChat {
		t.Fatalf("connection without a list = %+v, %v; want it through a chat request", c, err)
	}
	if reqs := srv.Requests(); len(reqs) != 1 || reqs[0].Model != "scripted" || reqs[0].MaxTokens != 1 {
		t.Errorf("requests = %+v; want one 1-token request to the model", reqs)
	}
	// The chat request fails: its status and message, without the key.
	bad := modeltest.NewOpenAI(t, modeltest.Reply{Err: 404, ErrMessage: "model \"nope\" not found, try pulling it first; key " + probeKey})
	bad.FailModels(404, "")
	_, err = model.TestConnection(context.Background(), model.Config{BaseURL: bad.URL, Model: "nope", APIKey: probeKey})
	probeErr(t, err, model.ReasonHTTP, "POST "+bad.URL+"/chat/completions: HTTP 404: model \"nope\" not found", "key [redacted]")
	// A rejected key is not retried as a chat.
	bad.FailModels(401, "bad key")
	_, err = model.TestConnection(context.Background(), model.Config{BaseURL: bad.URL, Model: "nope", APIKey: probeKey})
	probeErr(t, err, model.ReasonHTTP, "GET "+bad.URL+"/models: HTTP 401: bad key")
	if n := len(bad.Requests()); n != 1 {
		t.Errorf("%d chat requests; want only the first one", n)
	}
}

func TestListingHas(t *testing.T) {
	l := model.Listing{Models: []model.ListedModel{{ID: "gpt-4o-mini"}, {ID: "models/gemini-2.0-flash"}, {ID: "qwen2.5"}}}
	for name, want := range map[string]bool{
		"gpt-4o-mini": true, " gpt-4o-mini ": true, "gpt-4o": false, "gemini-2.0-flash": true,
		"qwen2.5:latest": true, "qwen2.5:7b": false, "": false,
	} {
		if got := l.Has(name); got != want {
			t.Errorf("Has(%q) = %v; want %v", name, got, want)
		}
	}
}

// A redirect to another host is not followed, so no key header goes
// there: Go drops Authorization on such a redirect but not Anthropic's
// x-api-key. A redirect on the same host is followed.
func TestListModelsKeepsTheKeyOnRedirect(t *testing.T) {
	var leaked []string
	other := server(t, func(w http.ResponseWriter, r *http.Request) {
		leaked = append(leaked, r.Header.Get("x-api-key")+r.Header.Get("Authorization"))
		fmt.Fprint(w, `{"data":[{"type":"model","id":"claude-x-20250101"}],"has_more":false}`)
	})
	other = strings.Replace(other, "127.0.0.1", "localhost", 1) // another host, still this machine
	for _, provider := range []string{model.ProviderAnthropic, model.ProviderOpenAI} {
		base := server(t, func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other+r.URL.RequestURI(), http.StatusMovedPermanently)
		})
		if provider == model.ProviderOpenAI {
			base += "/v1"
		}
		_, err := model.ListModels(context.Background(), model.Config{Provider: provider, BaseURL: base, APIKey: probeKey})
		if err == nil || !strings.Contains(err.Error(), "not followed, so the API key is not sent there") {
			t.Errorf("%s: redirect to another host = %v; want it refused", provider, err)
		}
	}
	if len(leaked) != 0 {
		t.Fatalf("the other host got %d requests (headers %q)", len(leaked), leaked)
	}
	var hits int
	var base string
	base = server(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/old/v1/models" {
			http.Redirect(w, r, base+"/v1/models", http.StatusFound)
			return
		}
		hits++
		fmt.Fprint(w, `{"object":"list","data":[{"id":"m1"}]}`)
	})
	if l, err := model.ListModels(context.Background(), model.Config{BaseURL: base + "/old/v1", APIKey: probeKey}); err != nil || len(l.Models) != 1 || hits != 1 {
		t.Fatalf("same-host redirect = %+v, %v (hits %d); want it followed", l, err, hits)
	}
}

// The key is scrubbed from a server's message before it is cut short, so
// no part of it survives the cut; and a URL that does not parse keeps
// its password out of the error.
func TestListModelsScrubsBeforeCutting(t *testing.T) {
	key := "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdef"
	base := server(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusUnauthorized)
		fmt.Fprint(w, "<html>"+strings.Repeat("x", 160)+" invalid key "+key+"</html>")
	})
	_, err := model.ListModels(context.Background(), model.Config{BaseURL: base + "/v1", APIKey: key})
	if err == nil || strings.Contains(err.Error(), key[:12]) {
		t.Fatalf("error = %v; want no part of the key", err)
	}
	for _, u := range []string{"http://u:hunter2@127.0.0.1:1/%zz", "http://u:hunter2@[::1"} {
		_, err := model.ListModels(context.Background(), model.Config{BaseURL: u})
		if err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("ListModels(%s) = %v; want an error without the password", u, err)
		}
		if _, err := model.New(model.Config{BaseURL: u, Model: "m"}); err == nil || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("New(%s) = %v; want an error without the password", u, err)
		}
	}
}
