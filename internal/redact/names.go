package redact

import "strings"

// CredentialName reports whether an environment variable's name says it
// holds a credential, by its words (API_KEY, GITHUB_TOKEN, DB_PASSWORD,
// GITHUB_PAT, SMTP_PASS, BASIC_AUTH, ...): its value is a secret even when
// written literally in a servers file (docs/servers.md#secrets).
func CredentialName(name string) bool {
	words := strings.FieldsFunc(strings.ToUpper(name), func(r rune) bool { return !(r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') })
	for _, w := range words {
		switch w {
		case "KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASS", "PAT", "CREDENTIAL", "CREDENTIALS", "AUTH", "AUTHORIZATION", "COOKIE", "PRIVATE":
			return true
		}
	}
	return false
}

// secretWords mark a name whose value is hidden wherever they stand in it
// (OPENAI_API_KEY, GITHUB_TOKEN, DB_PASSWORD, MYAPIKEY, ...).
var secretWords = []string{"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "COOKIE"}

// SecretName reports whether a name (an environment variable, a URL's
// query key) looks like it holds a secret: it contains one of KEY, TOKEN,
// SECRET, PASSWORD, PASSWD, CREDENTIAL or COOKIE anywhere, or is a
// CredentialName (PAT, PASS or AUTH as a word). Doctor hides the values
// of such environment variables (docs/cli.md#doctor).
func SecretName(name string) bool {
	k := strings.ToUpper(name)
	for _, w := range secretWords {
		if strings.Contains(k, w) {
			return true
		}
	}
	return CredentialName(k)
}
