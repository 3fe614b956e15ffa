package oauth

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// browser is the redirects' HTTP client: a hang guard, far longer than the
// listener takes to answer on a loaded machine.
var browser = &http.Client{Timeout: 30 * time.Second}

// The redirect listener is on 127.0.0.1 only, takes one redirect (a second
// one is told the sign-in is over), and is closed after.
func TestLoopbackOneUseThenClosed(t *testing.T) {
	lb, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(lb.redirectURL, "http://127.0.0.1:") || !strings.HasSuffix(lb.redirectURL, "/callback") {
		t.Fatalf("redirect URL = %s", lb.redirectURL)
	}
	if ip := lb.ln.Addr().(*net.TCPAddr).IP; !ip.Equal(net.IPv4(127, 0, 0, 1)) {
		t.Fatalf("listening on %v", ip)
	}
	for i, want := range []int{http.StatusOK, http.StatusGone} {
		resp, err := browser.Get(lb.redirectURL + "?code=c1&state=s1&iss=https%3A%2F%2Fauth.example")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Fatalf("redirect %d answered %d, want %d", i, resp.StatusCode, want)
		}
	}
	res, err := lb.wait(context.Background(), time.Minute)
	if err != nil || res.Code != "c1" || res.State != "s1" || res.Iss != "https://auth.example" {
		t.Fatalf("wait = %+v, %v", res, err)
	}
	lb.close()
	if c, err := net.Dial("tcp", lb.ln.Addr().String()); err == nil {
		c.Close()
		t.Fatal("the listener still accepts after the sign-in")
	}
}

// An error redirect (the person refused) ends the wait with the server's
// code and description.
func TestLoopbackErrorRedirect(t *testing.T) {
	lb, err := listenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer lb.close()
	resp, err := browser.Get(lb.redirectURL + "?error=access_denied&error_description=no+thanks")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if _, err := lb.wait(context.Background(), time.Minute); err == nil || !strings.Contains(err.Error(), "access_denied: no thanks") {
		t.Fatalf("wait = %v", err)
	}
}

// The wait ends with a clear error when its bound passes (synctest's clock).
func TestLoopbackWaitBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		lb := &loopback{got: make(chan callback, 1)}
		_, err := lb.wait(context.Background(), DefaultSignInTimeout)
		if err == nil || !strings.Contains(err.Error(), "did not come back from the sign-in page within 5m0s; sign in again") {
			t.Fatalf("wait = %v", err)
		}
	})
}
