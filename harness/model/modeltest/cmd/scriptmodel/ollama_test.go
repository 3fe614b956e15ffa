package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// With -ollama, GET /api/tags lists the models as Ollama does; other
// paths reach the scripted model.
func TestOllamaTags(t *testing.T) {
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "next", http.StatusTeapot) })
	srv := httptest.NewServer(withOllamaTags(next, []string{"scripted", "other"}))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/api/tags")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	want := `{"models":[{"name":"scripted","model":"scripted"},{"name":"other","model":"other"}]}`
	if resp.StatusCode != 200 || string(body) != want {
		t.Fatalf("GET /api/tags = %d %s, want 200 %s", resp.StatusCode, body, want)
	}
	resp, err = http.Get(srv.URL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusTeapot {
		t.Fatalf("GET /v1/models = %d, want it passed on", resp.StatusCode)
	}
}
