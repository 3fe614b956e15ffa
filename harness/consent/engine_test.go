package consent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type memStore struct {
	mu sync.Mutex
	m  map[string]string
}

func (s *memStore) key(c, t, d string) string { return c + "\x00" + t + "\x00" + d }

func (s *memStore) UserPolicy(_ context.Context, c, t, d string) (string, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.m[s.key(c, t, d)]
	return p, ok, nil
}

func (s *memStore) SaveUserPolicy(_ context.Context, c, t, d, p string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string]string{}
	}
	s.m[s.key(c, t, d)] = p
	return nil
}

type answer struct {
	d     Decision
	err   error
	wait  bool
	asked int
}

func (a *answer) Prompt(ctx context.Context, _ Request) (Decision, error) {
	a.asked++
	if a.wait {
		<-ctx.Done()
		return Deny, ctx.Err()
	}
	return a.d, a.err
}

func subject(policy map[string]string) Subject {
	return Subject{Request: Request{SessionID: "s1", Coworker: "cw", Tool: "ex.t"}, Policies: policy, Digest: "sha256:1"}
}

func TestDenyAlwaysWins(t *testing.T) {
	st := &memStore{}
	st.SaveUserPolicy(context.Background(), "cw", "ex.t", "sha256:1", "deny")
	for _, tc := range []struct {
		name   string
		e      *Engine
		policy map[string]string
		source string
	}{
		{"manifest deny beats bypass", &Engine{Mode: Bypass}, map[string]string{"ex.t": "deny"}, SourceManifest},
		{"manifest * deny", &Engine{Mode: Bypass}, map[string]string{"*": "deny"}, SourceManifest},
		{"manifest deny beats user allow", &Engine{Mode: Ask, Store: &memStore{m: map[string]string{"cw\x00ex.t\x00sha256:1": "allow"}}}, map[string]string{"ex.t": "deny"}, SourceManifest},
		{"user deny beats manifest allow", &Engine{Mode: Bypass, Store: st}, map[string]string{"ex.t": "allow"}, SourceUser},
	} {
		out := tc.e.Decide(context.Background(), subject(tc.policy))
		if out.Decision != Deny || out.Source != tc.source {
			t.Errorf("%s: Decide = %+v, want deny from %s", tc.name, out, tc.source)
		}
	}
}

func TestAnswersAndGrants(t *testing.T) {
	st := &memStore{}
	a := &answer{d: AllowAlways}
	prompted := 0
	e := &Engine{Mode: Ask, Prompter: a, Store: st}
	s := subject(nil)
	s.OnPrompt = func() { prompted++ }
	if out := e.Decide(context.Background(), s); out.Decision != AllowAlways || out.Source != SourcePrompt {
		t.Fatalf("first Decide = %+v", out)
	}
	// Saved as a user policy bound to the descriptor digest, and a grant.
	if p, ok, _ := st.UserPolicy(context.Background(), "cw", "ex.t", "sha256:1"); !ok || p != "allow" {
		t.Fatalf("saved policy = %q %v", p, ok)
	}
	if out := e.Decide(context.Background(), s); !out.Decision.Allows() || out.Source != SourceUser {
		t.Fatalf("second Decide = %+v, want the user policy", out)
	}
	// A changed descriptor digest asks again.
	s2 := s
	s2.Digest = "sha256:2"
	a.d = AllowSession
	if out := e.Decide(context.Background(), s2); out.Source != SourcePrompt {
		t.Fatalf("changed digest: %+v, want a prompt", out)
	}
	if out := e.Decide(context.Background(), s2); out.Source != SourceGrant {
		t.Fatalf("after allow_session: %+v, want the grant", out)
	}
	e.Revoke("s1")
	if e.Granted("s1", "ex.t", "sha256:2") {
		t.Fatal("grant survived Revoke")
	}
	if a.asked != 2 || prompted != 2 {
		t.Fatalf("asked %d, OnPrompt %d; want 2 and 2", a.asked, prompted)
	}
}

func TestPromptFailuresDeny(t *testing.T) {
	for _, tc := range []struct {
		name   string
		e      *Engine
		source string
		reason string
	}{
		{"no prompter", &Engine{Mode: Ask}, SourceError, "no one can be asked"},
		{"prompter error", &Engine{Mode: Ask, Prompter: &answer{err: errors.New("window closed")}}, SourceError, "window closed"},
		{"bogus answer", &Engine{Mode: Ask, Prompter: &answer{d: "maybe"}}, SourceError, "not a decision"},
		{"user says no", &Engine{Mode: Ask, Prompter: &answer{d: Deny}}, SourcePrompt, "you denied"},
		{"parked in the inbox", &Engine{Mode: Ask, Prompter: &answer{err: fmt.Errorf("%w: inbox item inb_1", ErrParked)}}, SourceParked, "waiting on you: inbox item inb_1"},
	} {
		out := tc.e.Decide(context.Background(), subject(nil))
		if out.Decision != Deny || out.Source != tc.source || !strings.Contains(out.Reason, tc.reason) {
			t.Errorf("%s: Decide = %+v, want deny from %s mentioning %q", tc.name, out, tc.source, tc.reason)
		}
	}
}

// lateAnswer answers d after delay, or gives up when the prompt's context
// ends first.
type lateAnswer struct {
	d     Decision
	delay time.Duration
}

func (a lateAnswer) Prompt(ctx context.Context, _ Request) (Decision, error) {
	select {
	case <-time.After(a.delay):
		return a.d, nil
	case <-ctx.Done():
		return Deny, ctx.Err()
	}
}

// An unanswered prompt denies after the engine's timeout (5 minutes by
// default), and an answer just before it counts. The prompts run in a
// synctest bubble, whose clock is exact and advances only when every
// goroutine waits, so no case races the machine's speed.
func TestPromptTimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		e        *Engine
		decision Decision
		source   string
		reason   string
		took     time.Duration
	}{
		{"default timeout", &Engine{Mode: Ask, Prompter: &answer{wait: true}}, Deny, SourceTimeout, "nobody answered within 5m0s", DefaultPromptTimeout},
		{"set timeout", &Engine{Mode: Ask, Prompter: &answer{wait: true}, Timeout: 20 * time.Millisecond}, Deny, SourceTimeout, "nobody answered within 20ms", 20 * time.Millisecond},
		{"late answer", &Engine{Mode: Ask, Prompter: lateAnswer{AllowOnce, time.Second}, Timeout: time.Second - time.Nanosecond}, Deny, SourceTimeout, "nobody answered within 999.999999ms", time.Second - time.Nanosecond},
		{"answer in time", &Engine{Mode: Ask, Prompter: lateAnswer{AllowOnce, time.Second - time.Nanosecond}, Timeout: time.Second}, AllowOnce, SourcePrompt, "", time.Second - time.Nanosecond},
	} {
		synctest.Test(t, func(t *testing.T) {
			start := time.Now()
			out := tc.e.Decide(context.Background(), subject(nil))
			if took := time.Since(start); took != tc.took {
				t.Errorf("%s: Decide took %v of the bubble's clock, want %v", tc.name, took, tc.took)
			}
			if out.Decision != tc.decision || out.Source != tc.source || !strings.Contains(out.Reason, tc.reason) {
				t.Errorf("%s: Decide = %+v, want %s from %s mentioning %q", tc.name, out, tc.decision, tc.source, tc.reason)
			}
		})
	}
}

func TestIdentityIsCanonicalAndDiffNamesParts(t *testing.T) {
	p := IdentityParts{Bundle: "sha256:b", Policies: map[string]string{"a": "allow", "b": "deny"},
		Selection:   map[string]Selected{"x.y": {Provider: "native", Remote: "x.y"}},
		Descriptors: map[string]PinnedDesc{"x.y": {Version: "1.0.0", Input: "sha256:i", Digest: "sha256:d"}}, Executable: "sha256:e"}
	id1, canon, err := Identity(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(id1, "sha256:") || len(id1) != 71 || !strings.Contains(string(canon), `"policies":{"a":"allow","b":"deny"}`) {
		t.Fatalf("Identity = %s, canonical %s", id1, canon)
	}
	q := p
	q.Executable = "sha256:f"
	q.Descriptors = map[string]PinnedDesc{"x.y": {Version: "1.1.0", Input: "sha256:j", Digest: "sha256:d2"}}
	id2, _, _ := Identity(q)
	if id1 == id2 {
		t.Fatal("a changed executable kept the identity")
	}
	diff := strings.Join(p.Diff(q), "; ")
	if !strings.Contains(diff, "executable") || !strings.Contains(diff, "x.y (version 1.0.0 → 1.1.0)") {
		t.Fatalf("Diff = %s", diff)
	}
}
