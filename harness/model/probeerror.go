package model

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"
)

// Reasons a probe (ListModels, TestConnection) fails, in ProbeError.Reason
// (docs/app.md#model-picker).
const (
	ReasonRefused = "refused" // nothing listens at the address
	ReasonDNS     = "dns"     // the host name does not resolve
	ReasonTimeout = "timeout" // no answer within the probe's time bound
	ReasonTLS     = "tls"     // the TLS handshake or the certificate failed
	ReasonNetwork = "network" // another network failure
	ReasonHTTP    = "http"    // the server answered with a non-2xx status
	ReasonBody    = "body"    // the answer is not a model list, or larger than MaxListBytes
)

// ProbeError is the error of a failed probe. Its message names the
// request ("GET http://127.0.0.1:11434/v1/models"), the reason and the
// server's own message; it never holds the API key (it is scrubbed even
// from server messages that echo it).
type ProbeError struct {
	Method, URL string // the request, with any password of the URL redacted
	Reason      string // one of the Reason constants
	// StatusCode is the HTTP status when Reason is ReasonHTTP (or the
	// status of a 2xx answer that is not a model list), else 0.
	StatusCode int
	// Detail is a short text safe to show: the server's error message
	// (at most 500 bytes) or the cause.
	Detail string
	Err    error // the underlying error, for errors.Is/As; may be nil
}

func (e *ProbeError) Error() string {
	return fmt.Sprintf("%s %s: %s", e.Method, e.URL, e.Detail)
}

func (e *ProbeError) Unwrap() error { return e.Err }

// probeFail builds the ProbeError of a failed round trip: the reason is
// named from err (refused, DNS, timeout after budget, TLS), and key is
// scrubbed from every string.
func probeFail(method, rawURL, key string, budget time.Duration, err error) *ProbeError {
	e := &ProbeError{Method: method, URL: redactKey(RedactURL(rawURL), key), Reason: ReasonNetwork, Err: err}
	host := ""
	if u, perr := url.Parse(rawURL); perr == nil {
		host = u.Host
	}
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		e.Reason, e.Detail = ReasonTimeout, fmt.Sprintf("timeout: no answer within %s", budget)
	case errors.As(err, &dns):
		e.Reason, e.Detail = ReasonDNS, fmt.Sprintf("DNS: the host name %q does not resolve (%s)", dns.Name, dns.Err)
	case isRefused(err):
		e.Reason, e.Detail = ReasonRefused, fmt.Sprintf("connection refused: nothing listens at %s", host)
	case errors.As(err, &certErr) || errors.As(err, &unknownCA) || errors.As(err, &hostErr):
		e.Reason, e.Detail = ReasonTLS, "TLS: the server's certificate is not trusted: "+innermost(err)
	case strings.Contains(err.Error(), "HTTP response to HTTPS client"):
		e.Reason, e.Detail = ReasonTLS, "TLS: the server answered in plain HTTP; use an http:// base URL"
	case errors.As(err, &recErr) || strings.Contains(err.Error(), "tls: "):
		e.Reason, e.Detail = ReasonTLS, "TLS: "+innermost(err)+" (is the server plain http://?)"
	default:
		e.Detail = innermost(err)
	}
	e.Detail = clip(redactKey(e.Detail, key))
	return e
}

// httpFail builds the ProbeError of a non-2xx answer (or of a 2xx answer
// that is not what was asked, with reason ReasonBody).
func httpFail(method, rawURL, key string, reason string, status int, detail string) *ProbeError {
	d := strings.TrimSpace(detail)
	if reason == ReasonHTTP {
		if d == "" {
			d = fmt.Sprintf("HTTP %d", status)
		} else {
			d = fmt.Sprintf("HTTP %d: %s", status, d)
		}
	}
	return &ProbeError{Method: method, URL: redactKey(RedactURL(rawURL), key), Reason: reason, StatusCode: status,
		Detail: clip(redactKey(d, key))}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// innermost is the text of the deepest error under *url.Error and
// *net.OpError wrappers, which repeat the method and URL.
func innermost(err error) string {
	for {
		if ue, ok := err.(*url.Error); ok && ue.Err != nil {
			err = ue.Err
			continue
		}
		if oe, ok := err.(*net.OpError); ok && oe.Err != nil {
			err = oe.Err
			continue
		}
		return err.Error()
	}
}

func clip(s string) string {
	if len(s) > maxDetail {
		return s[:maxDetail] + "..."
	}
	return s
}
