package journal

import (
	"context"
	"database/sql"
	"math/rand/v2"
	"time"
)

// A busy journal (docs/journal.md#busy): SQLite's busy_timeout makes a
// writer wait for another's write lock up to busyTimeoutMS; past it, every
// journal write is tried again, with a growing, jittered pause, until
// busyRetryFor has passed since the first try. Only then does the write
// fail with the busy error (busyError: the file and who holds it).
var (
	busyRetryFor   = 2 * time.Minute
	busyBackoffMin = 20 * time.Millisecond
	busyBackoffMax = time.Second
)

// commitRetrying is commit tried again while the journal is busy, as long
// as busyRetryFor and ctx allow. fn runs inside each try's transaction, so
// a try that fails leaves nothing behind.
func (j *Journal) commitRetrying(ctx context.Context, fn func(tx *sql.Tx) error) error {
	deadline := time.Now().Add(busyRetryFor)
	pause := busyBackoffMin
	for {
		err := j.commit(ctx, fn)
		if !isBusy(err) || time.Now().After(deadline) {
			return err
		}
		d := pause/2 + rand.N(pause/2+1) // jitter: writers that met each other do not meet again
		t := time.NewTimer(d)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		pause = min(2*pause, busyBackoffMax)
	}
}
