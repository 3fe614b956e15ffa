package servers

import (
	"strings"

	"github.com/openworker/desktop/internal/redact"
)

// argSecrets are the credentials written into a stdio server's arguments
// (docs/mcp.md#secrets), as many configurations copied from other clients
// do: the value of a credential-named option, given as "--api-key VALUE",
// "--api-key=VALUE" or "-token=VALUE", the value of a credential-named
// "NAME=VALUE" argument (docker's -e), the value of a credential-named
// header argument ("Authorization: Bearer TOKEN", "X-Api-Key: KEY", as
// mcp-remote --header takes them), the token after "Bearer ", and any
// argument or "NAME=VALUE" value shaped like a well-known token
// (redact.TokenValue: ghp_…, sk-…, AKIA…) whatever its name.
func argSecrets(args []string) []string {
	var out []string
	for i, a := range args {
		if _, val, ok := strings.Cut(a, "="); redact.TokenValue(a) || ok && redact.TokenValue(val) {
			if !ok || !redact.TokenValue(val) {
				val = a
			}
			out = append(out, val)
			continue
		}
		if name, val, ok := strings.Cut(a, "="); ok && redact.CredentialName(strings.TrimLeft(name, "-")) && !strings.ContainsAny(name, " /") {
			out = append(out, val)
			continue
		}
		if name, val, ok := strings.Cut(a, ":"); ok && redact.CredentialName(name) && !strings.ContainsAny(name, " /") { // a header: "Authorization: Bearer X", "X-Api-Key: X"
			val = strings.TrimSpace(val)
			out = append(out, val)
			if _, tok, ok := strings.Cut(val, " "); ok {
				out = append(out, tok)
			}
			continue
		}
		if i := strings.Index(strings.ToLower(a), "bearer "); i >= 0 {
			tok, _, _ := strings.Cut(strings.TrimSpace(a[i+len("bearer "):]), " ")
			out = append(out, tok)
			continue
		}
		if strings.HasPrefix(a, "-") && redact.CredentialName(strings.TrimLeft(a, "-")) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			out = append(out, args[i+1])
		}
	}
	return dedupe(out)
}

func dedupe(list []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range list {
		if s == "" || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}
