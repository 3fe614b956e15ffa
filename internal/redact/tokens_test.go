package redact

import "testing"

// TestTokenValue: values shaped like well-known credentials are secrets
// whatever their name; short or spaced look-alikes are not.
func TestTokenValue(t *testing.T) {
	for v, want := range map[string]bool{
		"ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gH3jK5":   true,
		"github_pat_11ABCDEFG0123456789_abcdefghijklmnop": true,
		"gho_0123456789abcdefghijXYZ":                     true,
		"sk-proj-0123456789abcdefghijklmnop":              true,
		"sk-ant-api03-0123456789abcdefghij":               true,
		"xoxb-123456789012-abcdefghij":                    true,
		"AKIAIOSFODNN7EXAMPLE":                            true,
		"ASIAIOSFODNN7EXAMPLE":                            true,
		"glpat-0123456789abcdefghij":                      true,
		"AIzaSyA-0123456789abcdefghijklmnopqrstu":         true,
		"ghp_123":                            false, // too short to be one
		"sk-short":                           false,
		"AKIAlowercase0000000":               false,
		"ghp_0123456789abcdefghij klm":       false, // a space: prose, not a token
		"/home/me/sk-0123456789abcdefghijkl": false, // not at the start
		"production":                         false,
		"":                                   false,
	} {
		if got := TokenValue(v); got != want {
			t.Errorf("TokenValue(%q) = %v, want %v", v, got, want)
		}
	}
}
