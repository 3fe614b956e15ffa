package doctor

import (
	"os"
	"strings"

	"github.com/openworker/desktop/internal/redact"
)

// redactor hides every secret doctor knows of, in each form a value
// could take in the report (internal/redact: as written, URL-escaped,
// base64 and JSON-escaped; docs/cli.md#doctor). Then the home folder
// becomes ~.
type redactor struct {
	r    redact.Redactor
	home tilder
}

// newRedactor collects the secrets: each provider's secrets and the
// values of its env and headers, the password and query values of its
// URL, the values of secret-looking environment variables
// (redact.SecretName), and the host's (Hooks.Secrets).
func newRedactor(in Input) redactor {
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
		secrets = append(secrets, redact.URLSecrets(srv.URL)...)
	}
	for _, a := range in.Agents {
		secrets = append(secrets, a.Secrets...)
		for _, v := range a.Headers {
			secrets = append(secrets, v)
			if _, tok, ok := strings.Cut(v, " "); ok {
				secrets = append(secrets, tok)
			}
		}
		secrets = append(secrets, redact.URLSecrets(a.Card)...)
	}
	for _, kv := range os.Environ() {
		k, v, _ := strings.Cut(kv, "=")
		if redact.SecretName(k) {
			secrets = append(secrets, v)
		}
		if strings.Contains(v, "://") { // HTTPS_PROXY, DATABASE_URL: their passwords and keys
			secrets = append(secrets, redact.URLSecrets(v)...)
		}
	}
	for _, k := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY"} {
		secrets = append(secrets, in.Getenv(k))
	}
	secrets = append(secrets, redact.URLSecrets(in.Getenv("OPENAI_BASE_URL"))...)
	secrets = append(secrets, redact.URLSecrets(in.Getenv("ANTHROPIC_BASE_URL"))...)
	if in.Hooks.Secrets != nil {
		secrets = append(secrets, in.Hooks.Secrets()...)
	}
	return redactor{r: redact.New(secrets), home: homeTilder()}
}

// clean is s with every secret hidden and the home folder as ~.
func (d redactor) clean(s string) string { return d.home.apply(d.r.Replace(s)) }
