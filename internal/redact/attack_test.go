package redact

import (
	"encoding/base64"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// A URL path holds a key after /s/, /key/, /token/ (any length from
// MinSecret on) or as a long segment with a digit; ordinary paths hold
// none (docs/mcp.md#secrets).
func TestPathSecrets(t *testing.T) {
	for path, want := range map[string][]string{
		"/mcp/s/abcdEFGH/mcp":              {"abcdEFGH"},
		"/api/KEY/plainletters/v1":         {"plainletters"},
		"/token/tok1":                      {"tok1"},
		"/x/zapKEY0123456789ab/mcp":        {"zapKEY0123456789ab"},
		"/s/abc/mcp":                       nil, // under MinSecret
		"/mcp":                             nil,
		"/api/mcp/sse":                     nil,
		"/v1/servers/filesystem-tools/mcp": nil,
		"":                                 nil,
	} {
		if got := PathSecrets(path); !slices.Equal(got, want) {
			t.Errorf("PathSecrets(%q) = %q, want %q", path, got, want)
		}
	}
}

// Attack: a non-ASCII secret echoed in each form a server may use is
// hidden in every one, each form on its own in a text.
func TestAttackNonASCIIForms(t *testing.T) {
	const secret = "pässwörd-ä-42"
	r := New([]string{"  " + secret + "\n"}) // as read from a file: the trimmed form is the secret too
	forms := map[string]string{
		"raw":            secret,
		"json \\u lower": `p\u00e4ssw\u00f6rd-\u00e4-42`,
		"json \\u upper": `p\u00E4ssw\u00F6rd-\u00E4-42`,
		"url query":      url.QueryEscape(secret),
		"url path":       url.PathEscape(secret),
		"url %C3%A4":     "p%C3%A4ssw%C3%B6rd-%C3%A4-42",
		"base64 std":     base64.StdEncoding.EncodeToString([]byte(secret)),
		"base64 raw":     base64.RawStdEncoding.EncodeToString([]byte(secret)),
		"base64 url":     base64.URLEncoding.EncodeToString([]byte(secret)),
		"base64 rawurl":  base64.RawURLEncoding.EncodeToString([]byte(secret)),
		"trimmed":        secret,
		"untrimmed":      "  " + secret + "\n",
	}
	for name, f := range forms {
		in := "echo: <" + f + "> done"
		got := r.Replace(in)
		if got != "echo: <"+Redacted+"> done" {
			t.Errorf("%s: Replace(%q) = %q", name, in, got)
		}
	}
}

// Attack: two secrets where one is the other's prefix, in every order
// and form: no tail of the longer survives.
func TestAttackPrefixOverlap(t *testing.T) {
	short, long := "sk-attack", "sk-attack-0123456789-tail"
	for _, secrets := range [][]string{{short, long}, {long, short}} {
		r := New(secrets)
		for _, in := range []string{long, short + " " + long, long + long, base64.StdEncoding.EncodeToString([]byte(long))} {
			got := r.Replace(in)
			if strings.Contains(got, "0123456789") || strings.Contains(got, "tail") || strings.Contains(got, "sk-") {
				t.Errorf("New(%q).Replace(%q) = %q", secrets, in, got)
			}
		}
	}
}

// Attack: a secret split across two lines of one text, or two text
// blocks, reaches no reader in halves.
func TestAttackSplitAcrossBlocks(t *testing.T) {
	const secret = "owtok-SPLIT-9876543210"
	r := New([]string{secret})
	for cut := 1; cut < len(secret); cut++ {
		got := r.Texts([]string{"head " + secret[:cut], secret[cut:] + " rest"})
		joined := strings.Join(got, "\n")
		if a, b := secret[:cut], secret[cut:]; len(a) >= MinSecret && strings.Contains(joined, a) || len(b) >= MinSecret && strings.Contains(joined, b) {
			t.Errorf("cut %d: blocks = %q", cut, got)
		}
		if !strings.HasPrefix(got[0], "head ") || !strings.HasSuffix(got[1], " rest") {
			t.Errorf("cut %d: ordinary text lost: %q", cut, got)
		}
	}
}

// Attack: a known token shape under a neutral variable name is a token.
func TestAttackTokenUnderNeutralName(t *testing.T) {
	for _, v := range []string{"ghp_" + strings.Repeat("a1B2", 9), "github_pat_11ABCDEFG0123456789abcdef", "xoxb-123456789012", "AKIAIOSFODNN7EXAMPLE"} {
		if !TokenValue(v) {
			t.Errorf("TokenValue(%q) = false (as GH=%s)", v, v)
		}
	}
	for _, v := range []string{"ghp_short", "hello world", "production"} {
		if TokenValue(v) {
			t.Errorf("TokenValue(%q) = true", v)
		}
	}
}
