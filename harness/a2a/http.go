package a2a

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// headerTransport sends the agent's headers with every request and bounds
// every response body to limit bytes.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	limit   int64
}

func (t *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.headers) > 0 {
		r = r.Clone(r.Context())
		for k, v := range t.headers {
			r.Header.Set(k, v)
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return nil, err
	}
	resp.Body = &limitedBody{rc: resp.Body, left: t.limit, limit: t.limit}
	return resp, nil
}

// errTooLarge is the error of an answer over MaxResponseBytes.
var errTooLarge = errors.New("the agent's answer is over the bound")

type limitedBody struct {
	rc    io.ReadCloser
	left  int64
	limit int64
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		return 0, fmt.Errorf("%w of %d bytes", errTooLarge, b.limit)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	return n, err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// RedactURL returns raw without its password and query values, which may
// be credentials: what errors about an agent show of its URLs.
func RedactURL(raw string) string { return redactURL(raw) }

// redactURL drops a URL's password and query values, which may be
// credentials.
func redactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return "(a URL that does not parse)"
	}
	if u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "redacted")
		}
	}
	if u.RawQuery != "" {
		q := u.Query()
		for k := range q {
			q.Set(k, "redacted")
		}
		u.RawQuery = q.Encode()
	}
	return u.String()
}

// scrub removes raw's secrets (its password and query values) from
// err's text.
func scrub(err error, raw string) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	changed := false
	for _, sec := range urlSecrets(raw) {
		if sec != "" && strings.Contains(msg, sec) {
			msg = strings.ReplaceAll(msg, sec, "redacted")
			changed = true
		}
	}
	if !changed {
		return err
	}
	return &scrubbed{msg: msg, err: err}
}

func urlSecrets(raw string) []string {
	u, err := url.Parse(raw)
	if err != nil {
		return nil
	}
	var out []string
	if pw, ok := u.User.Password(); ok {
		out = append(out, pw, url.QueryEscape(pw))
	}
	for _, vs := range u.Query() {
		for _, v := range vs {
			out = append(out, v, url.QueryEscape(v))
		}
	}
	return out
}

// scrubbed keeps the error chain (errors.Is) under a redacted text.
type scrubbed struct {
	msg string
	err error
}

func (e *scrubbed) Error() string { return e.msg }
func (e *scrubbed) Unwrap() error { return e.err }
