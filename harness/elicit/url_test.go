package elicit

import (
	"strings"
	"testing"
)

func TestCheckURL(t *testing.T) {
	for _, c := range []struct{ in, url, host string }{
		{"https://login.example.com/a?b=c#d", "https://login.example.com/a?b=c#d", "login.example.com"},
		{"HTTPS://Example.COM:8443/x", "https://example.com:8443/x", "example.com"},
		{"https://bücher.example/", "https://xn--bcher-kva.example/", "xn--bcher-kva.example"},
		{"https://аpple.com/", "https://xn--pple-43d.com/", "xn--pple-43d.com"}, // Cyrillic а: a look-alike
		{"http://127.0.0.1:9000/cb", "http://127.0.0.1:9000/cb", "127.0.0.1"},
		{"http://localhost/cb", "http://localhost/cb", "localhost"},
		{"http://[::1]:8080/", "http://[::1]:8080/", "::1"},
	} {
		u, host, err := CheckURL(c.in)
		if err != nil || u.String() != c.url || host != c.host {
			t.Errorf("CheckURL(%q) = %v, %q, %v; want %q, %q", c.in, u, host, err, c.url, c.host)
		}
	}
	for _, c := range []struct{ in, why string }{
		{"javascript:alert(1)", `scheme "javascript" is refused`},
		{"JavaScript:alert(1)", `scheme "javascript" is refused`},
		{"data:text/html,x", `scheme "data"`},
		{"file:///etc/passwd", `scheme "file"`},
		{"vscode://x", `scheme "vscode"`},
		{"http://evil.example/", "plain http to evil.example"},
		{"https://user:pw@evil.example/", "user name part"},
		{"https:///nohost", "has no host"},
		{" https://example.com", "spaces or control"},
		{"https://example.com/\nx", "spaces or control"},
		{"https://" + strings.Repeat("a", MaxURL), "over the"},
		{"https://exa mple.com/", "spaces or control"},
		{"https://%zz/", "not valid"},
	} {
		if _, _, err := CheckURL(c.in); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("CheckURL(%q) = %v; want %q", c.in, err, c.why)
		}
	}
}

func TestURLQuestionTakesNoContent(t *testing.T) {
	u, host, _ := CheckURL("https://example.com/")
	q := NewURLQuestion("eli_1", "Sign in", u, host)
	if q.Mode != ModeURL || q.URL != "https://example.com/" || q.Host != "example.com" || q.Check(nil) != nil {
		t.Fatalf("q = %+v, check %v", q, q.Check(nil))
	}
	if q.Check(map[string]any{"x": 1}) == nil {
		t.Fatal("a URL question took content")
	}
}
