package update

import (
	"errors"
	"net"
	"net/url"
	"strings"
	"testing"
)

// TestUnreachableNamesTheHost: a name that does not resolve (built by
// hand, so no lookup leaves the machine) is said in words, the cause kept.
func TestUnreachableNamesTheHost(t *testing.T) {
	dns := &net.DNSError{Err: "no such host", Name: "updates.example", IsNotFound: true}
	got := unreachable("https://updates.example/feed.json", &url.Error{Op: "Get", URL: "https://updates.example/feed.json", Err: &net.OpError{Op: "dial", Net: "tcp", Err: dns}})
	if !strings.Contains(got.Error(), "updates.example cannot be found") || !errors.As(got, &dns) {
		t.Errorf("no such host: %v", got)
	}
	if got := unreachable("http://x/", errors.New("boom")); got.Error() != "fetch http://x/: boom" {
		t.Errorf("other error: %v", got)
	}
}
