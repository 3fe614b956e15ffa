package a2a_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/openworker/desktop/harness/a2a"
	"github.com/openworker/desktop/harness/a2a/a2atest"
	"github.com/openworker/desktop/harness/tool"
)

func startAgent(t *testing.T, opts a2atest.Options) *a2atest.Agent {
	t.Helper()
	return a2atest.New(t, opts)
}

// hangGuard bounds a wait for something that must happen (a task's start,
// an answer of the test's own agent): far longer than it takes on a
// loaded machine, so it only catches a hang.
const hangGuard = 30 * time.Second

// fetch reads ag's card with opts; a bound opts leaves at its default
// (the card's 10 s, tasks/cancel's 5 s) is hangGuard instead, as these are
// waits for the test's own agent, which answers.
func fetch(t *testing.T, ag *a2atest.Agent, opts a2a.Options) *a2a.Agent {
	t.Helper()
	if opts.CardTimeout == 0 {
		opts.CardTimeout = hangGuard
	}
	if opts.CancelTimeout == 0 {
		opts.CancelTimeout = hangGuard
	}
	a, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "helper", Card: ag.CardURL, Headers: map[string]string{"X-Test": "fetch-check"}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestFetchSkillsAndDigest(t *testing.T) {
	ag := startAgent(t, a2atest.Options{Streaming: true})
	a := fetch(t, ag, a2a.Options{})
	var names []string
	for _, s := range a.Skills() {
		if err := s.Descriptor.Validate(); err != nil {
			t.Errorf("%s: %v", s.Descriptor.Name, err)
		}
		if s.Descriptor.Classification != tool.External || s.Descriptor.Risk != tool.NonIdempotentWrite || s.Descriptor.Version != "1.0.0" {
			t.Errorf("%s: %+v", s.Descriptor.Name, s.Descriptor)
		}
		names = append(names, s.Descriptor.Name)
	}
	if got := strings.Join(names, ","); got != "helper.echo,helper.slow,helper.ask,helper.fail" {
		t.Fatalf("skills %s", got)
	}
	if !strings.Contains(a.Skills()[0].Descriptor.Description, "Echoes the message back") {
		t.Errorf("description %q", a.Skills()[0].Descriptor.Description)
	}
	want, err := a2a.Digest(a.Raw())
	if err != nil || a.Digest() != want || !strings.HasPrefix(want, "sha256:") {
		t.Fatalf("digest %q, want %q (%v)", a.Digest(), want, err)
	}
	// Canonical JSON: the same card with other spacing has the same digest.
	var indented bytes.Buffer
	if err := json.Indent(&indented, a.Raw(), "", "    "); err != nil {
		t.Fatal(err)
	}
	spaced, _ := a2a.Digest(indented.Bytes())
	if spaced != want {
		t.Errorf("digest of the same card respaced %s, want %s", spaced, want)
	}
	if !a.Streaming() || a.Placement() != tool.PlacementLocal || a.Endpoint() != ag.URL+"/a2a" {
		t.Errorf("streaming %v placement %q endpoint %q", a.Streaming(), a.Placement(), a.Endpoint())
	}
	if ag.Requests("X-Test: fetch-check") != 1 {
		t.Errorf("the card's GET carried the header %d times, want 1", ag.Requests("X-Test: fetch-check"))
	}
	ag.SetVersion("1.0.1")
	if b := fetch(t, ag, a2a.Options{}); b.Digest() == a.Digest() {
		t.Errorf("a changed card kept the digest %s", b.Digest())
	}
}

func serve(t *testing.T, body string, status int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/.well-known/agent-card.json"
}

const goodSkills = `"skills":[{"id":"echo","name":"Echo","description":"d","tags":[]}]`

func TestFetchMalformedCards(t *testing.T) {
	for _, c := range []struct {
		name, body string
		status     int
		want       string
	}{
		{"not json", "{\n  \"name\": \"x\",\n  oops\n}", 200, "it is not JSON: line 3, column 3"},
		{"array", `[1,2]`, 200, "it is not a JSON object"},
		{"wrong type", `{"name": 7, "url": "http://127.0.0.1:1/a2a", ` + goodSkills + `}`, 200, "it is not an agent card"},
		{"no name", `{"url": "http://127.0.0.1:1/a2a", ` + goodSkills + `}`, 200, `it has no "name"`},
		{"no url", `{"name": "x", ` + goodSkills + `}`, 200, `it has no "url"`},
		{"no skills", `{"name": "x", "url": "http://127.0.0.1:1/a2a", "skills": []}`, 200, `it lists no "skills"`},
		{"skill without id", `{"name": "x", "url": "http://127.0.0.1:1/a2a", "skills": [{"name": "E"}]}`, 200, `skill 0 ("E") has no "id"`},
		{"duplicate skill", `{"name": "x", "url": "http://127.0.0.1:1/a2a", "skills": [{"id": "a"}, {"id": "a"}]}`, 200, `skill id "a" is listed twice`},
		{"grpc only", `{"name": "x", "url": "http://127.0.0.1:1", "preferredTransport": "GRPC", ` + goodSkills + `}`, 200, "offers no JSONRPC interface"},
		{"plain http elsewhere", `{"name": "x", "url": "http://agents.example.com/a2a", ` + goodSkills + `}`, 200, `its endpoint: "agents.example.com" is not this computer`},
		{"not found", `nothing here`, 404, "the server answered HTTP 404 Not Found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := serve(t, c.body, c.status)
			_, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "x", Card: u}, a2a.Options{CardTimeout: hangGuard})
			if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), u) {
				t.Fatalf("error %v; want it to name %s and say %q", err, u, c.want)
			}
		})
	}
}

func TestFetchCardOver1MB(t *testing.T) {
	pad := strings.Repeat("x", a2a.MaxCardBytes)
	u := serve(t, `{"name": "x", "description": "`+pad+`", "url": "http://127.0.0.1:1/a2a", `+goodSkills+`}`, 200)
	_, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "x", Card: u}, a2a.Options{CardTimeout: hangGuard})
	if err == nil || !strings.Contains(err.Error(), "over 1048576 bytes (1 MB)") || !strings.Contains(err.Error(), u) {
		t.Fatalf("error %v", err)
	}
}

func TestFetchURLRules(t *testing.T) {
	for raw, want := range map[string]string{
		"http://agents.example.com/.well-known/agent-card.json": "is not this computer",
		"ftp://127.0.0.1/card":                                 "is not an http:// or https:// URL",
		"https://u:hunter2@agents.example.com/card?key=sekrit": "", // refused only when fetched; the secrets never show
	} {
		_, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "x", Card: raw}, a2a.Options{Transport: refuse{}})
		if err == nil {
			t.Fatalf("%s: no error", raw)
		}
		if want != "" && !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want %q", raw, err, want)
		}
		if strings.Contains(err.Error(), "hunter2") || strings.Contains(err.Error(), "sekrit") {
			t.Errorf("%s: the error shows a secret: %v", raw, err)
		}
	}
}

// refuse is a transport that never reaches the network.
type refuse struct{}

func (refuse) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errRefused(r.URL.String())}
}

type errRefused string

func (e errRefused) Error() string { return "refused to dial " + string(e) }

// hang accepts connections and never answers; it returns its address.
func hang(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var conns []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns = append(conns, c)
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		<-done
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

func TestFetchNeverAnswers(t *testing.T) {
	addr := hang(t)
	u := "http://" + addr + "/.well-known/agent-card.json"
	start := time.Now()
	_, err := a2a.Fetch(context.Background(), tool.A2AAgent{Namespace: "x", Card: u}, a2a.Options{CardTimeout: 200 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "the agent did not answer within 200ms") || !strings.Contains(err.Error(), u) {
		t.Fatalf("error %v", err)
	}
	if d := time.Since(start); d > hangGuard {
		t.Errorf("Fetch took %s", d)
	}
}
