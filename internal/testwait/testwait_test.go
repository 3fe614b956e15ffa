package testwait

import (
	"sync/atomic"
	"testing"
	"time"
)

// For returns true as soon as the condition holds, and false once the
// bound has passed without it.
func TestFor(t *testing.T) {
	var n atomic.Int32
	if !For(time.Minute, func() bool { return n.Add(1) == 3 }) || n.Load() != 3 {
		t.Fatalf("For stopped after %d calls, want 3 and true", n.Load())
	}
	if For(30*time.Millisecond, func() bool { return false }) {
		t.Fatal("For reported a condition that never held")
	}
}
