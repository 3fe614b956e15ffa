package app

import (
	"net"
	"strings"
	"testing"
)

func TestModelUnreachable(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	open := "http://" + l.Addr().String() + "/v1"
	defer l.Close()
	closed, _ := net.Listen("tcp", "127.0.0.1:0")
	_, port, _ := net.SplitHostPort(closed.Addr().String())
	closed.Close()
	for url, warn := range map[string]bool{
		open:                               false,
		"http://127.0.0.1:" + port + "/v1": true,
		"http://localhost:" + port + "/v1": true,
		"https://api.example.invalid/v1":   false, // remote: never probed
		"http://10.1.2.3:" + port + "/v1":  false,
		"::not a url":                      false,
	} {
		got := modelUnreachable(url)
		if (got != "") != warn || (warn && !strings.Contains(got, url)) {
			t.Errorf("modelUnreachable(%q) = %q; want a warning: %v", url, got, warn)
		}
	}
}
