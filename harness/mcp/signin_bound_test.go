package mcp

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"
)

// The start bound stops while a sign-in holds it and runs on after, with
// the time left (synctest's clock).
func TestStartBoundPausesForSignIn(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel, b := withStartBound(context.Background(), 30*time.Second)
		defer cancel()
		time.Sleep(10 * time.Second)
		release := b.hold()
		time.Sleep(10 * time.Minute)
		if ctx.Err() != nil {
			t.Fatal("the bound ran out during the sign-in")
		}
		release()
		time.Sleep(19 * time.Second)
		if ctx.Err() != nil {
			t.Fatal("the bound ran out before its time left")
		}
		time.Sleep(2 * time.Second)
		if !errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			t.Fatalf("cause = %v, want the start timeout", context.Cause(ctx))
		}
	})
}
