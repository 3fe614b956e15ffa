package redact

import "strings"

// tokenPrefixes are the prefixes of well-known credential formats and the
// least number of token characters ([A-Za-z0-9_-]) that must follow for a
// value to be taken as one (docs/servers.md#secrets).
var tokenPrefixes = []struct {
	prefix string
	min    int
}{
	{"github_pat_", 20}, // GitHub fine-grained personal access token
	{"ghp_", 20},        // GitHub classic personal access token
	{"gho_", 20},        // GitHub OAuth token
	{"ghu_", 20},        // GitHub user-to-server token
	{"ghs_", 20},        // GitHub server-to-server token
	{"ghr_", 20},        // GitHub refresh token
	{"glpat-", 20},      // GitLab personal access token
	{"sk-", 20},         // OpenAI (sk-proj-…), Anthropic (sk-ant-…) and other API keys
	{"xoxb-", 10},       // Slack bot token
	{"xoxp-", 10},       // Slack user token
	{"xoxa-", 10},       // Slack app token
	{"xoxr-", 10},       // Slack refresh token
	{"xoxs-", 10},       // Slack session token
	{"xapp-", 10},       // Slack app-level token
	{"AIza", 35},        // Google API key
	{"hf_", 30},         // Hugging Face token
	{"npm_", 36},        // npm access token
}

// TokenValue reports whether a value has the shape of a well-known
// credential, whatever the name it is given under (GH=ghp_…): a GitHub,
// GitLab, OpenAI/Anthropic ("sk-"), Slack ("xox?-", "xapp-"), Google
// ("AIza"), Hugging Face or npm token with enough characters after its
// prefix, or an AWS access key id (AKIA or ASIA and 16 more capitals or
// digits). A value with a space in it is none.
func TokenValue(v string) bool {
	if awsKeyID(v) {
		return true
	}
	for _, p := range tokenPrefixes {
		if rest, ok := strings.CutPrefix(v, p.prefix); ok && len(rest) >= p.min && tokenChars(rest) {
			return true
		}
	}
	return false
}

func awsKeyID(v string) bool {
	if len(v) != 20 || !(strings.HasPrefix(v, "AKIA") || strings.HasPrefix(v, "ASIA")) {
		return false
	}
	for _, r := range v[4:] {
		if !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

func tokenChars(s string) bool {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}
