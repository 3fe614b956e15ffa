package main

import (
	"encoding/json"
	"net/http"
)

// withOllamaTags answers GET /api/tags with models as Ollama lists its
// own ({"models":[{"name":…,"model":…}]}) and passes every other request
// to next: with -ollama the scripted model stands in for a local Ollama.
func withOllamaTags(next http.Handler, models []string) http.Handler {
	type tag struct {
		Name  string `json:"name"`
		Model string `json:"model"`
	}
	tags := struct {
		Models []tag `json:"models"`
	}{Models: []tag{}}
	for _, m := range models {
		tags.Models = append(tags.Models, tag{Name: m, Model: m})
	}
	body, _ := json.Marshal(tags)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/tags" {
			next.ServeHTTP(w, r)
			return
		}
		if r.Method != http.MethodGet {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	})
}
