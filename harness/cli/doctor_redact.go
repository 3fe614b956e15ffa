package cli

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"sort"
	"strings"

	"github.com/openworker/desktop/harness/mcp"
)

// doctorMinSecret is the shortest value doctor hides: shorter ones ("1",
// "on") would blank out ordinary text.
const doctorMinSecret = 4

// secretEnvWords mark an environment variable whose value doctor hides
// (OPENAI_API_KEY, GITHUB_TOKEN, DB_PASSWORD, ...).
var secretEnvWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "COOKIE"}

// doctorRedactor hides every secret doctor knows of, in each form a value
// could take in the report: as written, URL-escaped, base64 and
// JSON-escaped (docs/cli.md#doctor). Then the home folder becomes ~.
type doctorRedactor struct{ r *strings.Replacer }

// newDoctorRedactor collects the secrets: each provider's secrets and the
// values of its env and headers, the password and query values of its
// URL, the values of secret-looking environment variables
// (secretEnvWords), and the host's (DoctorHooks.Secrets).
func newDoctorRedactor(in DoctorInput) doctorRedactor {
	var secrets []string
	for _, srv := range in.Servers {
		secrets = append(secrets, srv.Secrets...)
		for _, v := range srv.Env {
			secrets = append(secrets, v)
		}
		for _, v := range srv.Headers {
			secrets = append(secrets, v)
			if _, tok, ok := strings.Cut(v, " "); ok { // "Bearer TOKEN"
				secrets = append(secrets, tok)
			}
		}
		secrets = append(secrets, urlSecrets(srv.URL)...)
	}
	for _, a := range in.Agents {
		secrets = append(secrets, a.Secrets...)
		for _, v := range a.Headers {
			secrets = append(secrets, v)
			if _, tok, ok := strings.Cut(v, " "); ok {
				secrets = append(secrets, tok)
			}
		}
		secrets = append(secrets, urlSecrets(a.Card)...)
	}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if secretEnvName(k) {
			secrets = append(secrets, v)
		}
		if strings.Contains(v, "://") { // HTTPS_PROXY, DATABASE_URL: their passwords and keys
			secrets = append(secrets, urlSecrets(v)...)
		}
	}
	for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		secrets = append(secrets, in.Getenv(k))
	}
	secrets = append(secrets, urlSecrets(in.Getenv("OPENAI_BASE_URL"))...)
	secrets = append(secrets, urlSecrets(in.Getenv("ANTHROPIC_BASE_URL"))...)
	if in.Hooks.Secrets != nil {
		secrets = append(secrets, in.Hooks.Secrets()...)
	}
	return doctorRedactor{r: secretReplacer(secrets)}
}

func secretEnvName(k string) bool {
	k = strings.ToUpper(k)
	for _, w := range secretEnvWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return mcp.CredentialName(k) // whole words too: GITHUB_PAT, SMTP_PASS, BASIC_AUTH
}

// secretReplacer replaces each secret of at least doctorMinSecret bytes,
// and its escaped forms, by mcp.Redacted; longer ones first, so that a
// secret inside another is not left half shown.
func secretReplacer(secrets []string) *strings.Replacer {
	seen := map[string]bool{}
	var forms []string
	add := func(s string) {
		if len(s) >= doctorMinSecret && !seen[s] {
			seen[s] = true
			forms = append(forms, s)
		}
	}
	for _, s := range secrets {
		s = strings.TrimSpace(s)
		if len(s) < doctorMinSecret {
			continue
		}
		add(s)
		add(url.QueryEscape(s))
		add(url.PathEscape(s))
		add(base64.StdEncoding.EncodeToString([]byte(s)))
		add(base64.RawURLEncoding.EncodeToString([]byte(s)))
		if q, err := json.Marshal(s); err == nil {
			add(string(q[1 : len(q)-1]))
		}
	}
	sort.Slice(forms, func(i, k int) bool { return len(forms[i]) > len(forms[k]) })
	pairs := make([]string, 0, 2*len(forms))
	for _, f := range forms {
		pairs = append(pairs, f, mcp.Redacted)
	}
	return strings.NewReplacer(pairs...)
}

// clean is s with every secret hidden and the home folder as ~.
func (d doctorRedactor) clean(s string) string { return homeTilde(d.r.Replace(s)) }

// urlSecrets are the password, the key-like path segments and the query
// values of a URL (those of a secret-looking key, and any of 8 bytes or
// more).
func urlSecrets(raw string) []string {
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
	// A path segment that looks like a key (Zapier-style
	// /api/mcp/s/<secret>/mcp): 16 bytes or more with a digit.
	for _, seg := range strings.Split(u.Path, "/") {
		if len(seg) >= 16 && strings.ContainsAny(seg, "0123456789") {
			out = append(out, seg)
		}
	}
	for k, vs := range u.Query() {
		for _, v := range vs {
			if secretEnvName(k) || strings.Contains(strings.ToUpper(k), "SIG") || len(v) >= 8 {
				out = append(out, v)
			}
		}
	}
	return out
}

// SafeURL is raw without user info, query or fragment (a query value
// may be a key): scheme://host/path, with "?…" when there was a query.
func SafeURL(raw string) string {
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
