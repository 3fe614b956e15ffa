package app

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The window loads a view's document from the app's asset server with the
// view's own policy (a srcdoc frame would get the window's, which runs no
// inline script: docs/mcp-apps.md#sandbox); other paths go to the assets.
func TestViewPagesServeTheDocumentWithItsPolicy(t *testing.T) {
	var v viewPages
	assets := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("asset " + r.URL.Path)) })
	h := v.middleware(assets)
	get := func(path string) *httptest.ResponseRecorder {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
		return rec
	}
	csp := "default-src 'none'; script-src 'unsafe-inline'"
	url, err := v.add("<!DOCTYPE html><p>view</p>", csp)
	if err != nil || !strings.HasPrefix(url, viewPagePath) || len(url) != len(viewPagePath)+32 {
		t.Fatalf("add = %q, %v", url, err)
	}
	rec := get(url)
	if rec.Code != 200 || rec.Body.String() != "<!DOCTYPE html><p>view</p>" || rec.Header().Get("Content-Security-Policy") != csp+"; sandbox allow-scripts" ||
		rec.Header().Get("Content-Type") != "text/html; charset=utf-8" || rec.Header().Get("Cache-Control") != "no-store" {
		t.Fatalf("GET %s = %d %q %v", url, rec.Code, rec.Body.String(), rec.Header())
	}
	if rec := get(viewPagePath + "0123"); rec.Code != http.StatusNotFound {
		t.Fatalf("an unknown view = %d, want 404", rec.Code)
	}
	if rec := get("/index.html"); rec.Body.String() != "asset /index.html" {
		t.Fatalf("an asset = %q", rec.Body.String())
	}
	if _, err := v.add(strings.Repeat("x", maxViewPage+1), csp); err == nil || !strings.Contains(err.Error(), "over the") {
		t.Fatalf("an oversized document: %v", err)
	}
	if _, err := v.add("<p>", "default-src 'none'\r\nX-Evil: 1"); err == nil {
		t.Fatal("a policy with a line break was taken")
	}
	// The oldest documents go first when the bound is reached.
	big := strings.Repeat("y", maxViewPage)
	var urls []string
	for range maxViewPages/maxViewPage + 1 {
		u, err := v.add(big, csp)
		if err != nil {
			t.Fatal(err)
		}
		urls = append(urls, u)
	}
	if get(url).Code != http.StatusNotFound || get(urls[0]).Code != http.StatusNotFound || get(urls[len(urls)-1]).Code != 200 || v.bytes > maxViewPages {
		t.Fatalf("after %d large documents: first %d, oldest large %d, newest %d; %d bytes kept", len(urls), get(url).Code, get(urls[0]).Code, get(urls[len(urls)-1]).Code, v.bytes)
	}
}
