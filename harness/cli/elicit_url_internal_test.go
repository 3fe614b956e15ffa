package cli

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/openworker/desktop/harness/elicit"
)

func urlQuestion(t *testing.T, raw string) elicit.Question {
	t.Helper()
	u, host, err := elicit.CheckURL(raw)
	if err != nil {
		t.Fatal(err)
	}
	q := elicit.NewURLQuestion("eli_u", "Sign in to Example", u, host)
	q.Namespace, q.ServerName, q.Tool, q.Invocation = "web", "Web", "web.signin", "inv_9"
	return q
}

// A URL question shows the full URL and its host (punycode) and opens the
// page only on y; Enter declines without opening; a page that cannot open
// declines and says so; without a terminal it declines unasked.
func TestTerminalElicitURL(t *testing.T) {
	q := urlQuestion(t, "https://bücher.example/login")
	for _, c := range []struct {
		in     string
		action elicit.Action
		opens  bool
		fail   error
		says   string
	}{
		{"y\n", elicit.Accept, true, nil, "opened in your browser"},
		{"\n", elicit.Decline, false, nil, "[y/N]"},
		{"n\n", elicit.Decline, false, nil, "[y/N]"},
		{"yes\n", elicit.Decline, true, errors.New("no browser"), "the page did not open (no browser); declined"},
	} {
		var out strings.Builder
		var opened []string
		p := &terminalPrompter{in: strings.NewReader(c.in), out: &out, interactive: true, lock: &sync.Mutex{},
			open: func(u string) error { opened = append(opened, u); return c.fail }}
		ans, err := p.Elicit(context.Background(), q)
		if err != nil || ans.Action != c.action || ans.Content != nil {
			t.Errorf("%q: Elicit = %+v, %v", c.in, ans, err)
		}
		if (len(opened) == 1) != c.opens || (c.opens && opened[0] != "https://xn--bcher-kva.example/login") {
			t.Errorf("%q: opened %q", c.in, opened)
		}
		s := out.String()
		for _, want := range []string{"web (Web) asks you to open a page during web.signin (inv_9)", "host: xn--bcher-kva.example", "https://xn--bcher-kva.example/login", c.says} {
			if !strings.Contains(s, want) {
				t.Errorf("%q: output lacks %q:\n%s", c.in, want, s)
			}
		}
	}
	var out strings.Builder
	p := &terminalPrompter{in: strings.NewReader("y\n"), out: &out, interactive: false, lock: &sync.Mutex{},
		open: func(string) error { t.Error("opened without a terminal"); return nil }}
	if _, err := p.Elicit(context.Background(), q); !errors.Is(err, elicit.ErrNoPerson) {
		t.Errorf("without a terminal: %v", err)
	}
}
