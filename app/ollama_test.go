package app

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// fakeOllama serves GET /api/tags with body on 127.0.0.1 (httptest).
func fakeOllama(t *testing.T, status int, body string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet || r.URL.Path != "/api/tags" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func probeCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// The models GET /api/tags lists, in order, and the OpenAI-compatible
// base URL chats use; FindOllama asks OLLAMA_HOST's address.
func TestFindOllamaListsModels(t *testing.T) {
	srv := fakeOllama(t, 200, `{"models":[{"name":"llama3.2:latest","model":"llama3.2:latest","size":2019393189},{"name":"qwen2.5:7b"},{"model":"only-model-field"}]}`)
	host := strings.TrimPrefix(srv.URL, "http://")
	e := newTestEnv(t, envOpts{noModel: true, cfg: config{Getenv: func(k string) string {
		if k == "OLLAMA_HOST" {
			return host
		}
		return ""
	}}})
	got, err := e.app.Preferences.FindOllama()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"llama3.2:latest", "qwen2.5:7b", "only-model-field"}
	if !got.Running || got.Error != "" || !slices.Equal(got.Models, want) {
		t.Fatalf("FindOllama = %+v, want running with %q", got, want)
	}
	if got.URL != srv.URL || got.BaseURL != srv.URL+"/v1" {
		t.Fatalf("FindOllama asked %q (base URL %q), want %q and %q/v1", got.URL, got.BaseURL, srv.URL, srv.URL)
	}
}

// Nothing listening: a clear "not running" and the API-key path offered.
func TestFindOllamaNotRunning(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	root := "http://" + ln.Addr().String()
	ln.Close() // a port nothing listens on: the connection is refused
	got := probeOllama(probeCtx(t), http.DefaultClient, root)
	if got.Running || len(got.Models) != 0 {
		t.Fatalf("probe of a closed port = %+v, want not running", got)
	}
	for _, want := range []string{"Ollama is not running on this computer", root, "ollama serve", "use an API key instead"} {
		if !strings.Contains(got.Error, want) {
			t.Errorf("error %q does not say %q", got.Error, want)
		}
	}
}

// Something answers that is not Ollama's list: the error says what came
// back and where, and that it answered (not "not running").
func TestFindOllamaBadAnswers(t *testing.T) {
	for _, c := range []struct {
		name, body string
		status     int
		want       []string
	}{
		{"bad JSON", `{"models": [oops`, 200, []string{"not with Ollama's model list", "/api/tags", `oops`, "is it Ollama?"}},
		{"HTML page", `<html>hello</html>`, 200, []string{"not with Ollama's model list", "<html>hello</html>"}},
		{"HTTP 500", `{"error":"boom"}`, 500, []string{"answered HTTP 500", "boom"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := fakeOllama(t, c.status, c.body)
			got := probeOllama(probeCtx(t), srv.Client(), srv.URL)
			if !got.Running || len(got.Models) != 0 || got.Error == "" {
				t.Fatalf("probe = %+v, want running, no models and an error", got)
			}
			for _, w := range c.want {
				if !strings.Contains(got.Error, w) {
					t.Errorf("error %q does not say %q", got.Error, w)
				}
			}
		})
	}
}

// Ollama with no model pulled: running, an empty list and no error.
func TestFindOllamaNoModels(t *testing.T) {
	srv := fakeOllama(t, 200, `{"models":[]}`)
	got := probeOllama(probeCtx(t), srv.Client(), srv.URL)
	if !got.Running || got.Error != "" || len(got.Models) != 0 || got.Models == nil {
		t.Fatalf("probe = %+v, want running with an empty (non-nil) list", got)
	}
}

func TestOllamaRoot(t *testing.T) {
	for env, want := range map[string]string{
		"":                       "http://127.0.0.1:11434",
		"127.0.0.1:5000":         "http://127.0.0.1:5000",
		":6000":                  "http://127.0.0.1:6000",
		"http://localhost:7000/": "http://localhost:7000",
		"http://127.0.0.1:8/v1/": "http://127.0.0.1:8",
	} {
		got := ollamaRoot(func(k string) string {
			if k == "OLLAMA_HOST" {
				return env
			}
			return "elsewhere" // no other variable decides
		})
		if got != want {
			t.Errorf("OLLAMA_HOST=%q: root %q, want %q", env, got, want)
		}
	}
}
