package redact

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// Two secrets, one a prefix of the other, in each form they may take:
// whichever order they come in, the longer one is replaced whole, so no
// tail of it survives in any form (the MCP and A2A redactors before this
// package replaced them in configuration order and printed "def123").
func TestPrefixOverlapLeavesNoTail(t *testing.T) {
	type pair struct{ short, long string }
	pairs := []pair{
		{"sk-abc", "sk-abcdef123"},
		// Characters every encoding changes, so that each form differs
		// from the plain one.
		{`sk-abc/+&"`, `sk-abc/+&"def123=`},
	}
	forms := []struct {
		name string
		of   func(string) string
	}{
		{"plain", func(s string) string { return s }},
		{"JSON", func(s string) string { b, _ := json.Marshal(s); return string(b[1 : len(b)-1]) }},
		{"JSON without HTML escaping", func(s string) string { return jsonForms(s)[1] }},
		{"URL query", url.QueryEscape},
		{"URL path", url.PathEscape},
		{"base64", func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }},
		{"base64 raw", func(s string) string { return base64.RawStdEncoding.EncodeToString([]byte(s)) }},
		{"base64 URL", func(s string) string { return base64.URLEncoding.EncodeToString([]byte(s)) }},
		{"base64 URL raw", func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }},
	}
	for _, p := range pairs {
		for _, order := range [][]string{{p.short, p.long}, {p.long, p.short}} {
			r := New(order)
			for _, f := range forms {
				long, short := f.of(p.long), f.of(p.short)
				cases := []struct{ in, want string }{
					{"key " + long + " end", "key [redacted] end"},
					{"key " + short + " end", "key [redacted] end"},
					{long + short + long, "[redacted][redacted][redacted]"},
					{`{"a":"` + long + `","b":"` + short + `"}`, `{"a":"[redacted]","b":"[redacted]"}`},
					{"https://x.test/p?key=" + long + "&k2=" + short, "https://x.test/p?key=[redacted]&k2=[redacted]"},
				}
				for _, c := range cases {
					got := r.Replace(c.in)
					if got != c.want {
						t.Errorf("New(%q) %s: Replace(%q) = %q, want %q", order, f.name, c.in, got, c.want)
					}
					// No piece of the longer secret's form past the shorter's.
					if tail := strings.TrimPrefix(long, short); tail != long && strings.Contains(got, tail) {
						t.Errorf("New(%q) %s: the tail %q of the longer secret survives in %q", order, f.name, tail, got)
					}
				}
			}
		}
	}
}

// Secrets that overlap without being prefixes, and one that repeats into
// itself, are replaced as one run: no part of either shows.
func TestOverlappingSecretsOneRun(t *testing.T) {
	r := New([]string{"abc1-xyz", "xyz-987654"})
	if got := r.Replace("k=abc1-xyz-987654;"); got != "k=[redacted];" {
		t.Errorf("Replace = %q, want one run", got)
	}
	r = New([]string{"aaaa"})
	if got := r.Replace("xaaaaaay"); got != "x[redacted]y" {
		t.Errorf("Replace = %q, want one run", got)
	}
}

// A non-ASCII secret is hidden where a JSON encoder that keeps to ASCII
// echoed it as \u escapes (lower- or upper-case hex), as well as in its
// other forms.
func TestNonASCIISecret(t *testing.T) {
	const secret = "pässwörd-ä1"
	r := New([]string{secret})
	for _, in := range []string{
		`{"password": "p\u00e4ssw\u00f6rd-\u00e41"}`,
		`{"password": "p\u00E4ssw\u00F6rd-\u00E41"}`,
		`{"password": "` + secret + `"}`,
		`{"password": "` + url.QueryEscape(secret) + `"}`,
		`{"password": "` + base64.StdEncoding.EncodeToString([]byte(secret)) + `"}`,
	} {
		if got := r.Replace(in); got != `{"password": "[redacted]"}` {
			t.Errorf("Replace(%s) = %s", in, got)
		}
	}
	// Above U+FFFF: a surrogate pair.
	r = New([]string{"key-😀-1"})
	if got := r.Replace(`"key-\ud83d\ude00-1"`); got != `"[redacted]"` {
		t.Errorf("Replace(surrogate pair) = %s", got)
	}
}

// Values under MinSecret bytes (after trimming) are no secrets: they would
// blank out ordinary text. The zero Redactor changes nothing.
func TestShortValuesAreNoSecrets(t *testing.T) {
	for _, secrets := range [][]string{nil, {""}, {"a"}, {"on"}, {"abc"}, {"  ab  "}, {"\tabc\n"}} {
		r := New(secrets)
		if r.Active() {
			t.Errorf("New(%q) is active", secrets)
		}
		if got := r.Replace("turn on abc a  ab  "); got != "turn on abc a  ab  " {
			t.Errorf("New(%q).Replace = %q", secrets, got)
		}
	}
	r := New([]string{"abcd", " wxyz "})
	if got := r.Replace("abcd wxyz"); got != "[redacted] [redacted]" {
		t.Errorf("4-byte secrets: Replace = %q", got)
	}
	var zero Redactor
	if zero.Replace("abcd") != "abcd" || zero.Tail("abcd") != "abcd" || zero.Error(nil) != nil || !slices.Equal(zero.Texts([]string{"ab", "cd"}), []string{"ab", "cd"}) {
		t.Error("the zero Redactor changed something")
	}
}

// Each form a secret may take is hidden (the forms doctor checked before
// this package), and a 2-byte value is not.
func TestForms(t *testing.T) {
	const secret = `tok/"en+=&9`
	r := New([]string{secret, "on"})
	for _, form := range []string{secret, url.QueryEscape(secret), url.PathEscape(secret), base64.StdEncoding.EncodeToString([]byte(secret)), base64.RawURLEncoding.EncodeToString([]byte(secret)), `tok/\"en+=\u00269`, `tok/\"en+=&9`} {
		if got := r.Replace("x " + form + " y"); got != "x [redacted] y" {
			t.Errorf("Replace(%q) = %q", form, got)
		}
	}
	if got := r.Replace("turn on"); got != "turn on" {
		t.Errorf("a 2-byte value was hidden: %q", got)
	}
}

// A label says where a value came from; a longer secret holding it wins.
func TestLabels(t *testing.T) {
	r := New([]string{"Bearer tok-12345"}, Label{"/opt/srv", "[command from ${SRV}]"}, Label{"tok-12345", "[headers.X from ${TOK}]"})
	if got := r.Replace("exec /opt/srv: not found; tok-12345; Bearer tok-12345"); got != "exec [command from ${SRV}]: not found; [headers.X from ${TOK}]; [redacted]" {
		t.Errorf("Replace = %q", got)
	}
}

// JSON stays valid, or is nil when a secret spanned its syntax; Error
// keeps the chain.
func TestJSONAndError(t *testing.T) {
	r := New([]string{"sk-supersecret-42", `pa"ss\word`})
	if got := r.JSON(json.RawMessage(`{"a":"sk-supersecret-42","b":"pa\"ss\\word"}`)); string(got) != `{"a":"[redacted]","b":"[redacted]"}` {
		t.Errorf("JSON = %s", got)
	}
	if got := New([]string{`a","b`}).JSON(json.RawMessage(`{"k":"a","b":1}`)); got != nil {
		t.Errorf("JSON across syntax = %s, want nil", got)
	}
	base := errors.New("exited; stderr: auth failed for sk-supersecret-42")
	err := r.Error(base)
	if strings.Contains(err.Error(), "supersecret") || !errors.Is(err, base) {
		t.Errorf("Error = %v (Is base: %v)", err, errors.Is(err, base))
	}
	plain := errors.New("nothing secret")
	if r.Error(plain) != plain {
		t.Error("an error without a secret was wrapped")
	}
}

// The end of a text that begins inside a secret loses that fragment too.
func TestTailCutInsideASecret(t *testing.T) {
	r := New([]string{"sk-SUPERSECRET-0123456789"})
	if got := r.Tail("UPERSECRET-0123456789YYYY"); got != "[redacted]YYYY" {
		t.Fatalf("Tail = %q", got)
	}
	if got := r.Tail("789 and more"); got != "789 and more" {
		t.Errorf("a fragment under MinSecret was hidden: %q", got)
	}
}

// A secret split across adjacent text blocks is redacted in each block
// that holds a piece of it, however short; text at a boundary that does
// not complete a secret stays.
func TestSecretSplitAcrossBlocks(t *testing.T) {
	const secret = "sk-SPLIT-0123456789"
	r := New([]string{secret, "line-one-secret\nline-two-secret", "on"})
	cases := []struct {
		name     string
		in, want []string
	}{
		{"two halves", []string{"key sk-SPLIT-01", "23456789 end"}, []string{"key [redacted]", "[redacted] end"}},
		{"three ways", []string{"a sk-SP", "LIT-0123", "456789 b"}, []string{"a [redacted]", "[redacted]", "[redacted] b"}},
		{"one byte left over", []string{"x sk-SPLIT-012345678", "9 y"}, []string{"x [redacted]", "[redacted] y"}},
		{"one byte first", []string{"x s", "k-SPLIT-0123456789 y"}, []string{"x [redacted]", "[redacted] y"}},
		{"whole ones stay whole", []string{secret, "and " + secret}, []string{"[redacted]", "and [redacted]"}},
		{"split and whole", []string{secret + " sk-SPLIT", "-0123456789"}, []string{"[redacted] [redacted]", "[redacted]"}},
		{"the model's newline between", []string{"a line-one-secret", "line-two-secret b"}, []string{"a [redacted]", "[redacted] b"}},
		{"no whole secret", []string{"ends with sk-SPLIT-0", "1 and more"}, []string{"ends with sk-SPLIT-0", "1 and more"}},
		{"short value across", []string{"o", "n and o", "n"}, []string{"o", "n and o", "n"}},
		{"an empty block between", []string{"sk-SPLIT-", "", "0123456789"}, []string{"[redacted]", "", "[redacted]"}},
		{"base64 split", []string{"c2stU1BMSVQt", "MDEyMzQ1Njc4OQ=="}, []string{"[redacted]", "[redacted]"}},
	}
	for _, c := range cases {
		if got := r.Texts(c.in); !slices.Equal(got, c.want) {
			t.Errorf("%s: Texts(%q) = %q, want %q", c.name, c.in, got, c.want)
		}
	}
}

// A URL keeps only its scheme, host and path (ShortURL without the "?…"
// mark); URLSecrets names its
// password, key-like path segments and secret query values.
func TestURL(t *testing.T) {
	if got := URL("https://u:pw@example.test:8443/a/b?key=k#frag"); got != "https://example.test:8443/a/b?…" {
		t.Errorf("URL = %q", got)
	}
	if got := URL("http://[::1"); got != "(a URL that does not parse)" {
		t.Errorf("URL(bad) = %q", got)
	}
	if got := ShortURL("https://u:pw@example.test:8443/a/b?key=k#frag"); got != "https://example.test:8443/a/b" {
		t.Errorf("ShortURL = %q", got)
	}
	if got := ShortURL("http://[::1"); got != "(unparsable URL)" {
		t.Errorf("ShortURL(bad) = %q", got)
	}
	got := URLSecrets("https://u:pw-secret@example.test/api/mcp/s/zapKEY0123456789ab/mcp?api_key=abc&page=2&sig=xyz&long=12345678")
	want := map[string]bool{"pw-secret": true, "zapKEY0123456789ab": true, "abc": true, "xyz": true, "12345678": true}
	for _, s := range got {
		if !want[s] {
			t.Errorf("URLSecrets holds %q, not a secret", s)
		}
		delete(want, s)
	}
	if len(want) > 0 {
		t.Errorf("URLSecrets(...) = %v; lacks %v", got, want)
	}
	if URLSecrets("") != nil {
		t.Error(`URLSecrets("") is not nil`)
	}
}

func TestSecretNames(t *testing.T) {
	for name, want := range map[string]bool{
		"OPENAI_API_KEY": true, "GITHUB_PAT": true, "SMTP_PASS": true, "BASIC_AUTH": true, "MYAPIKEY": true, "x-api-key": true,
		"PATH": false, "PASSAGE": false, "HOME": false, "AUTHOR": false,
	} {
		if got := SecretName(name); got != want {
			t.Errorf("SecretName(%q) = %v, want %v", name, got, want)
		}
	}
	for name, want := range map[string]bool{"GITHUB_PERSONAL_ACCESS_TOKEN": true, "db-password": true, "MYAPIKEY": false, "KEYBOARD": false} {
		if got := CredentialName(name); got != want {
			t.Errorf("CredentialName(%q) = %v, want %v", name, got, want)
		}
	}
}

func ExampleRedactor_Replace() {
	r := New([]string{"sk-abc", "sk-abcdef123"})
	fmt.Println(r.Replace("keys: sk-abcdef123, sk-abc, c2stYWJjZGVmMTIz"))
	// Output: keys: [redacted], [redacted], [redacted]
}
