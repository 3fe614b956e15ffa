package elicit

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"

	"golang.org/x/net/idna"

	"github.com/openworker/desktop/harness/tool"
)

// URL mode (docs/mcp.md#url-mode): a server asks the person to open a page
// (a sign-in, a payment) outside the host. The question shows the full URL
// with its host emphasised; the page is opened in the default browser only
// when the person chooses to (Accept means "open it").

// Modes of a question.
const (
	ModeForm = "form"
	ModeURL  = "url"
)

// MaxURL bounds the URL of a URL-mode question, in bytes.
const MaxURL = 8 << 10

// ByCompleted is the Source of a URL question the server said was done
// (notifications/elicitation/complete) before the person chose: cancelled.
const ByCompleted Source = "completed"

// ErrCompleted is the cause of a URL question's ctx when the server sent
// notifications/elicitation/complete for it.
var ErrCompleted = errors.New("the server said the interaction is complete")

// CheckURL returns the URL a URL-mode question may show and open, and its
// host as shown (IDN hosts in punycode, so a look-alike shows as
// xn--...), or why it is refused: only https URLs, or http to 127.0.0.1,
// ::1 or localhost; no user:password@ part (it hides the real host); at
// most MaxURL bytes. The returned URL carries the punycode host. Errors
// name the scheme or the host, never the whole URL (it may hold a token).
func CheckURL(raw string) (*url.URL, string, error) {
	if len(raw) > MaxURL {
		return nil, "", fmt.Errorf("the URL is %d bytes, over the %d bytes a question may show", len(raw), MaxURL)
	}
	if strings.TrimSpace(raw) != raw || strings.ContainsAny(raw, " \x00\r\n\t") {
		return nil, "", fmt.Errorf("the URL has spaces or control characters")
	}
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL itself
		}
		return nil, "", fmt.Errorf("the URL is not valid: %v", err)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return nil, "", fmt.Errorf("the URL's scheme %q is refused: only https (or http to this computer) is opened", u.Scheme)
	}
	if u.User != nil {
		return nil, "", fmt.Errorf("the URL has a user name part (%q@), which hides the real host; refused", u.User.Username())
	}
	name := u.Hostname()
	if name == "" {
		return nil, "", fmt.Errorf("the %s URL has no host", scheme)
	}
	host := name
	if net.ParseIP(name) == nil {
		if host, err = idna.Lookup.ToASCII(name); err != nil {
			return nil, "", fmt.Errorf("the URL's host %q is not a valid host name: %v", name, err)
		}
	}
	if scheme == "http" && !tool.IsLoopbackHost(host) {
		return nil, "", fmt.Errorf("the URL is plain http to %s, another computer; only https is opened (http only to 127.0.0.1 or localhost)", host)
	}
	out := *u
	out.Scheme, out.Host = scheme, joinHost(host, u.Port())
	return &out, host, nil
}

func joinHost(host, port string) string {
	if strings.Contains(host, ":") { // IPv6
		host = "[" + host + "]"
	}
	if port == "" {
		return host
	}
	return host + ":" + port
}

// NewURLQuestion makes the question of a URL-mode request whose URL passed
// CheckURL; the caller fills in who asks.
func NewURLQuestion(id, message string, u *url.URL, host string) Question {
	return Question{ID: id, Mode: ModeURL, Message: clipMessage(message), URL: u.String(), Host: host, Fields: []Field{}}
}
