package redact

import (
	"net/url"
	"slices"
	"strings"
)

// URL is raw as it may be shown: scheme://host/path, without user info,
// query or fragment (a query value may be a key), with "?…" when there was
// a query; "(a URL that does not parse)" for one that does not. A secret
// in the path is not known here: URLSecrets names the path segments that
// look like keys, for a Redactor.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	out := u.Scheme + "://" + u.Host + u.EscapedPath()
	if u.RawQuery != "" {
		out += "?…"
	}
	return out
}

// URLSecrets are the secrets a URL holds, for New: the password of its
// user info, its path segments that look like keys (PathSecrets) and its
// query values:
// those of a key that looks secret (SecretName, or holding "SIG") and any
// of 8 bytes or more. None for "" or a URL that does not parse.
func URLSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil || raw == "" {
		return nil
	}
	var out []string
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
		}
	}
	out = append(out, PathSecrets(u.Path)...)
	for k, vs := range u.Query() {
		for _, v := range vs {
			if SecretName(k) || strings.Contains(strings.ToUpper(k), "SIG") || len(v) >= 8 {
				out = append(out, v)
			}
		}
	}
	return out
}

// ShortURL is raw without user info, query and fragment, as errors about
// an MCP server's address show it ("https://mcp.example.com/mcp");
// "(unparsable URL)" for one that does not parse. Unlike URL it leaves no
// "?…" mark and keeps an opaque URL's text.
func ShortURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(unparsable URL)"
	}
	u.User, u.RawQuery, u.Fragment = nil, "", ""
	return u.String()
}

// keyMarkers are the path segments after which the next one is a key,
// whatever it looks like (Zapier's /api/mcp/s/<key>/mcp).
var keyMarkers = []string{"s", "key", "keys", "token", "tokens", "secret", "apikey", "api-key", "api_key"}

// PathSecrets are the segments of a URL's (unescaped) path that look like
// keys (docs/mcp.md#secrets): a segment that follows one named s, key,
// keys, token, tokens, secret, apikey, api-key or api_key (any case) and
// has MinSecret bytes or more, and any segment of 16 bytes or more with a
// digit in it. Ordinary paths (/mcp, /v1/sse, /api/mcp) hold none.
func PathSecrets(path string) []string {
	var out []string
	segs := strings.Split(path, "/")
	for i, seg := range segs {
		afterMarker := i > 0 && slices.ContainsFunc(keyMarkers, func(m string) bool { return strings.EqualFold(m, segs[i-1]) })
		if afterMarker && len(seg) >= MinSecret || len(seg) >= 16 && strings.ContainsAny(seg, "0123456789") {
			out = append(out, seg)
		}
	}
	return out
}
