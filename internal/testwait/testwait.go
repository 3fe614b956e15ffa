// Package testwait waits in tests for what another goroutine or process
// does: a condition polled with a generous bound, so a test passes on a
// busy machine and still ends when it hangs (docs/ci.md#busy-machine).
// Waits on the test's own clock belong in testing/synctest instead; this
// is for real processes, sockets and files, which synctest cannot fake.
package testwait

import (
	"testing"
	"time"
)

// poll is how often Until asks again.
const poll = 10 * time.Millisecond

// Until calls cond until it is true or bound has passed; then it fails t
// naming what it waited for and how long.
func Until(t testing.TB, bound time.Duration, what string, cond func() bool) {
	t.Helper()
	if !For(bound, cond) {
		t.Fatalf("not within %v: %s", bound, what)
	}
}

// For calls cond until it is true or bound has passed, and reports
// whether it became true: for a wait whose end is checked by the caller.
func For(bound time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(bound)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(poll)
	}
	return true
}
